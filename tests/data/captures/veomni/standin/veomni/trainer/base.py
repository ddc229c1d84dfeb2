# stand-in for veomni/trainer/base.py:370 (d9774494): the same call and message
from veomni.utils import logging

logger = logging.get_logger(__name__)
def log_rank(global_rank, world_size):
    logger.info(f"Process rank: {global_rank}, world size: {world_size}")
