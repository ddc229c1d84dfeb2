"""A tiny accelerate training loop on CPU in the style of the accelerate / transformers `no_trainer` examples.

Style copied from huggingface/transformers examples/pytorch/language-modeling/run_clm_no_trainer.py (logging
set up with `logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s",
datefmt="%m/%d/%Y %H:%M:%S", level=logging.INFO)`, `logger = get_logger(__name__)` from accelerate.logging,
`progress_bar = tqdm(range(max_train_steps), disable=not accelerator.is_local_main_process)` advanced once per
optimizer step): the bar and the log records both go to stderr, so each `logger.info` record is written right
after an unfinished bar redraw, on the same physical line.

Run (see README.md): python capture_accel.py OUT_PREFIX > OUT_PREFIX.log 2>&1
(or `accelerate launch --cpu --num_processes 2 capture_accel.py OUT_PREFIX --all-ranks`: every process logs its
steps, `main_process_only=False`). Every optimizer step appends {"epoch", "step", "loss", "lr", "step_time",
"logged"} to OUT_PREFIX.jsonl (OUT_PREFIX.rank<r>.jsonl for process r > 0; the script's own record, the truth);
every LOG_EVERY steps it logs
`epoch {e} step {n}: loss {loss:.4f} lr {lr:.3e} step_time {dt:.3f}s`.
"""

import json
import logging
import math
import sys
import time

import torch

torch.set_num_threads(1)
from accelerate import Accelerator  # noqa: E402
from accelerate.logging import get_logger  # noqa: E402
from tqdm.auto import tqdm  # noqa: E402

logging.basicConfig(
    format="%(asctime)s - %(levelname)s - %(name)s - %(message)s",
    datefmt="%m/%d/%Y %H:%M:%S",
    level=logging.INFO,
)
logger = get_logger(__name__)

VOCAB, DIM, SEQ, MBS = 64, 32, 16, 4
EPOCHS, STEPS_PER_EPOCH, GA, LOG_EVERY = 2, 15, 2, 5


def main():
    out = sys.argv[1]
    accelerator = Accelerator(cpu=True, gradient_accumulation_steps=GA)
    logger.info(accelerator.state, main_process_only=False)
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Embedding(VOCAB, DIM), torch.nn.Linear(DIM, DIM), torch.nn.GELU(), torch.nn.Linear(DIM, VOCAB)
    )
    data = torch.randint(0, VOCAB, (STEPS_PER_EPOCH * GA * MBS, SEQ + 1), generator=torch.Generator().manual_seed(1))
    loader = torch.utils.data.DataLoader(data, batch_size=MBS)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    # as the examples do: the steps from the prepared (per-process) loader
    max_train_steps = EPOCHS * math.ceil(len(loader) / GA)
    # the prepared scheduler steps once per process at each optimizer step (accelerate's AcceleratedScheduler), so
    # its length is max_train_steps * num_processes, as the examples set num_training_steps
    total = max_train_steps * accelerator.num_processes
    scheduler = accelerator.prepare(torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: 1.0 - s / total))
    total_batch_size = MBS * accelerator.num_processes * GA
    # the header of run_clm_no_trainer.py, line for line
    logger.info("***** Running training *****")
    logger.info(f"  Num examples = {len(data)}")
    logger.info(f"  Num Epochs = {EPOCHS}")
    logger.info(f"  Instantaneous batch size per device = {MBS}")
    logger.info(f"  Total train batch size (w. parallel, distributed & accumulation) = {total_batch_size}")
    logger.info(f"  Gradient Accumulation steps = {GA}")
    logger.info(f"  Total optimization steps = {max_train_steps}")
    progress_bar = tqdm(range(max_train_steps), disable=not accelerator.is_local_main_process)
    completed_steps = 0
    all_ranks = "--all-ranks" in sys.argv
    rank = accelerator.process_index
    with open(f"{out}.jsonl" if rank == 0 else f"{out}.rank{rank}.jsonl", "w") as truth:
        for epoch in range(EPOCHS):
            model.train()
            t0 = time.time()
            for batch in loader:
                with accelerator.accumulate(model):
                    logits = model(batch[:, :-1])
                    loss = torch.nn.functional.cross_entropy(logits.reshape(-1, VOCAB), batch[:, 1:].reshape(-1))
                    accelerator.backward(loss)
                    optimizer.step()
                    scheduler.step()
                    optimizer.zero_grad()
                if accelerator.sync_gradients:  # an optimizer step was taken
                    progress_bar.update(1)
                    completed_steps += 1
                    dt = time.time() - t0
                    t0 = time.time()
                    lr = scheduler.get_last_lr()[0]
                    logged = completed_steps % LOG_EVERY == 0
                    if logged:
                        logger.info(
                            f"epoch {epoch} step {completed_steps}: loss {loss.item():.4f} lr {lr:.3e} step_time {dt:.3f}s",
                            main_process_only=not all_ranks,
                        )
                    truth.write(json.dumps({"epoch": epoch, "step": completed_steps, "loss": loss.item(), "lr": lr,
                                            "step_time": dt, "logged": logged, "time": time.time()}) + "\n")
                    time.sleep(0.05)  # a step that lasts long enough for the whole-second clock to move now and then
    logger.info("training done")


if __name__ == "__main__":
    main()
