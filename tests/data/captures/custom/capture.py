#!/usr/bin/env python3
"""Capture real console logs of a small hand-written PyTorch training loop, as a new user's loop prints them.

A tiny byte-level language model (embedding, two MLP blocks, output layer; nothing downloaded) trains on
CPU on deterministic synthetic text, one thread, with AdamW and a linear warmup. Three print styles:

``--style pipe``: the custom-loop line of the project's example, value-then-unit pairs and a thousands
separator (``{tok_s:,.0f}``)::

    step 10/40 | loss 5.213 | 2.9 ms/step | 22,892 tok/s

``--style logging``: Python ``logging`` with ``format='%(asctime)s - %(levelname)s - %(name)s - %(message)s'``
(``2025-03-01 12:00:10,061 - INFO - __main__ - global_step=5 loss=... lr=...``), every 2 steps, NO timing:
the time between steps is only in the timestamps (printed to the millisecond).

``--style tqdm``: a tqdm bar (``mininterval=0``: drawn at every update) whose postfix carries the loss and
the learning rate (``set_postfix(loss=..., lr=...)``, which tqdm prints with 3 significant digits)::

    100%|██████████| 30/30 [00:00<00:00, 52.1it/s, loss=5.21, lr=0.001]

``--style tqdm_after``: the loop of Hugging Face diffusers' training examples (examples/text_to_image/
train_text_to_image.py at 000280f5: ``progress_bar = tqdm(range(0, args.max_train_steps), initial=...,
desc="Steps")``; after the optimizer step ``progress_bar.update(1)``, then ``logs = {"step_loss": ..., "lr":
...}; progress_bar.set_postfix(**logs)``), with tqdm's default ``mininterval`` (0.1 s): ``update`` redraws the
bar at the new position with the PREVIOUS step's postfix (when 0.1 s have passed), then ``set_postfix`` redraws
it at the same position with this step's::

    Steps:  25%|██▌       | 10/40 [00:00<00:00, 97.90it/s, lr=0.001, step_loss=4.97]

``--style tqdm_iter``: the bar as the loop's iterable (``for step in (bar := tqdm(range(1, steps + 1))):``) and
``bar.set_postfix(loss=..., lr=...)`` in the body: the postfix is drawn at once, before the bar's position counts
the step (tqdm's ``__iter__`` updates it after the body, and only every ``miniters`` iterations once it has
measured the rate), so the redraw at position p shows step p + 1's values, or a later step's.

``--style tqdm_epochs``: a bar per epoch as the loop's iterable, described as most hand-written loops describe it
(``for _ in (bar := tqdm(range(steps_per_epoch), desc=f"Epoch {epoch}")):``, epochs counted from 1), and
``bar.set_postfix(loss=...)`` in the body, tqdm's default ``mininterval``; the step counts on across epochs::

    Epoch 2:  45%|████▌     | 9/20 [00:00<00:00, 41.67it/s, loss=4.03]

Every step's values are also written at full precision, one JSON object a line, to ``--truth``: ``step``,
``loss``, ``lr``, ``step_time_s`` (``time.perf_counter`` around the optimizer step), ``tokens_per_s`` (tokens
of the step / its time), and ``t_log`` (``time.time()`` just before the step's line was printed or logged).

Run (from the repo root; see README.md beside this file)::

    python tests/data/captures/custom/capture.py --style pipe \\
        --truth tests/data/captures/custom/pipe.truth.jsonl > tests/data/captures/custom/pipe.log 2>&1

This file is a capture tool, not part of the logparse package or its tests.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time

import torch
from torch import nn
from torch.nn import functional as F

SEED = 1234
VOCAB, SEQ, BATCH = 256, 64, 8
EPOCHS = 3  # (tqdm_epochs)
WORDS = "the a model loss step token batch learning rate warmup gradient optimizer epoch train eval".split()


def synthetic_bytes(n: int) -> torch.Tensor:
    rng = random.Random(SEED)
    out = bytearray()
    while len(out) < n:
        out += (" ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 12))) + ". ").encode()
    return torch.tensor(list(out[:n]), dtype=torch.long)


class Tiny(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.emb = nn.Embedding(VOCAB, width)
        self.blocks = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width), nn.GELU())
        self.out = nn.Linear(width, VOCAB)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(self.blocks(self.emb(x)))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--style", choices=["pipe", "logging", "tqdm", "tqdm_after", "tqdm_iter", "tqdm_epochs"], required=True)
    ap.add_argument("--truth", required=True)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--width", type=int, default=128)
    args = ap.parse_args()
    torch.manual_seed(SEED)
    torch.set_num_threads(1)
    data = synthetic_bytes(200_000)
    model = Tiny(args.width)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    warmup, max_lr = 10, 1e-3
    truth = open(args.truth, "w")
    log = None
    bar = None
    if args.style == "logging":
        logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=logging.INFO)
        log = logging.getLogger(__name__)
        log.info("training a %d-wide model for %d steps, batch %d x %d tokens", args.width, args.steps, BATCH, SEQ)
    elif args.style == "tqdm":
        from tqdm import tqdm

        bar = tqdm(total=args.steps, mininterval=0)
    elif args.style == "tqdm_after":
        from tqdm import tqdm

        bar = tqdm(range(0, args.steps), initial=0, desc="Steps")
    elif args.style == "tqdm_iter":
        from tqdm import tqdm

        bar = tqdm(range(1, args.steps + 1))
    else:
        print(f"training for {args.steps} steps, {BATCH * SEQ} tokens a step")
    gen = torch.Generator().manual_seed(SEED)
    current: list = []  # the epoch's bar (tqdm_epochs)

    def by_epoch():
        from tqdm import tqdm

        per_epoch = args.steps // EPOCHS
        for epoch in range(1, EPOCHS + 1):
            current[:] = [tqdm(range(per_epoch), desc=f"Epoch {epoch}")]
            for i in current[0]:
                yield (epoch - 1) * per_epoch + i + 1

    if args.style == "tqdm_iter":
        steps = bar
    elif args.style == "tqdm_epochs":
        steps = by_epoch()
    else:
        steps = range(1, args.steps + 1)
    for step in steps:
        lr = max_lr * min(1.0, step / warmup)
        for g in opt.param_groups:
            g["lr"] = lr
        t0 = time.perf_counter()
        ix = torch.randint(0, len(data) - SEQ - 1, (BATCH,), generator=gen)
        x = torch.stack([data[i : i + SEQ] for i in ix])
        y = torch.stack([data[i + 1 : i + SEQ + 1] for i in ix])
        loss = F.cross_entropy(model(x).view(-1, VOCAB), y.view(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        lossf = loss.item()
        dt = time.perf_counter() - t0
        tok_s = BATCH * SEQ / dt
        rec = {"step": step, "loss": lossf, "lr": lr, "step_time_s": dt, "tokens_per_s": tok_s}
        if args.style == "pipe":
            rec["t_log"] = time.time()
            print(f"step {step}/{args.steps} | loss {lossf:.3f} | {dt * 1000:.1f} ms/step | {tok_s:,.0f} tok/s")
        elif args.style == "logging":
            if step % 2 == 0:
                rec["t_log"] = time.time()
                log.info(f"global_step={step} loss={lossf:.4f} lr={lr:.2e}")
        elif args.style == "tqdm":
            bar.set_postfix(loss=lossf, lr=lr, refresh=False)
            rec["t_log"] = time.time()
            bar.update(1)  # drawn now (mininterval=0): n = step, with this step's postfix
        elif args.style == "tqdm_after":
            bar.update(1)  # drawn only when 0.1 s have passed: n = step, with the previous step's postfix
            rec["t_log"] = time.time()
            bar.set_postfix(step_loss=lossf, lr=lr)  # drawn now: n = step, with this step's postfix
        elif args.style == "tqdm_epochs":
            rec["t_log"] = time.time()
            current[0].set_postfix(loss=lossf)  # drawn now, at the position of the epoch's steps counted so far
        else:
            rec["t_log"] = time.time()
            bar.set_postfix(loss=lossf, lr=lr)  # drawn now, at the position of the steps counted so far
        truth.write(json.dumps(rec) + "\n")
    if bar is not None:
        bar.close()
    truth.close()
    if log is not None:
        log.info("done")
    else:
        print("done", file=sys.stdout)


if __name__ == "__main__":
    main()
