# stand-in for veomni/arguments/arguments_types.py:887-890 (d9774494): the same calls and messages
from veomni.utils import logging

logger = logging.get_logger(__name__)
def derive(global_batch_size, micro_batch_size, dp_size):
    if global_batch_size is None:
        logger.info_rank0("`global_batch_size` is None, disable gradient accumulation.")
        return 1
    gradient_accumulation_steps = global_batch_size // (micro_batch_size * dp_size)
    logger.info_rank0(f"Set gradient accumulation to {gradient_accumulation_steps}.")
    return gradient_accumulation_steps
