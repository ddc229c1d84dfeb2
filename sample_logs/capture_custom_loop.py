#!/usr/bin/env python3
"""Capture real console logs of a hand-written PyTorch training loop, in four print styles.

This script produces the ``generic_*_cpu.log`` sample logs in ``sample_logs/`` that logparse's
generic pattern set (custom training loops) is tested against. It trains a tiny GPT (byte-level
embedding, 2 causal transformer layers, nothing downloaded) on deterministic synthetic text, on
CPU, with gradient accumulation 2 and a cosine learning-rate schedule, and prints one line per
optimizer step in one of four styles that research code uses:

``--style pipe`` (Karpathy's build-nanogpt ``train_gpt2.py``: ``print(f"step {step:5d} | loss
{loss_accum.item():.6f} | lr {lr:.4e} | norm {norm:.4f} | dt {dt:.2f}ms | tok/sec
{tokens_per_sec:.2f}")``), after a config dict echo::

    config: {'global_batch_size': 16, 'micro_batch_size': 8, ...}
    step     0 | loss 5.612345 | lr 3.0000e-04 | norm 1.2345 | dt 12.34ms | tok/sec 41234.56

``--style kv`` (``Step N/T key=value ...``, seconds with an ``s`` suffix, memory in GB), after a
YAML config echo::

    Step 1/100 loss=5.6123 grad_norm=1.234 lr=3.000e-04 time=0.0123s samples/s=1298.7 mem=0.31GB

``--style json`` (a JSON-lines logger: ``print(json.dumps({...}))`` per step, full precision, after a JSON
config record)::

    {"step": 1, "loss": 5.61, "lr": 0.0003, "grad_norm": 1.23, "step_time": 0.0123, "tokens_per_sec": 41234.5}

``--style bracket`` (``[step N] key: value, ...``, the step time in a ``dt_ms`` key, MFU in percent
against a nominal peak, an eval line every 20 steps), after an argparse ``Namespace`` echo::

    [step 1] loss: 5.6123, lr: 3.00e-04, grad_norm: 1.23, dt_ms: 12.34, tokens/sec: 41235, mfu: 0.61%
    [step 20] val_loss: 4.1234

Every value printed is also written at full precision to ``--truth`` (JSON): ``{"meta": {...},
"config": {...}, "steps": [{"step", "loss", "lr", "grad_norm", "step_time_s", ...}], "evals":
[...]}``. The loss is the mean over the step's micro-batches; the step time is ``time.perf_counter``
around the whole optimizer step; tokens/s = tokens per step / step time.

How to run (from the repo root)::

    PYTHONUNBUFFERED=1 ../venv-capture/bin/python sample_logs/capture_custom_loop.py --style pipe \\
        --truth sample_logs/generic_pipe_cpu.truth.json > sample_logs/generic_pipe_cpu.log 2>&1

The capture venv has torch 2.13.0+cpu (Python 3.11.7). Each run takes a few seconds on one thread.
This file is a capture tool, not part of the logparse package or its tests.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import resource
import sys
import time

import torch
from torch import nn
from torch.nn import functional as F

SEED = 1234
PEAK_FLOPS = 50e9  # a nominal CPU peak for the printed MFU (the script's own figure, not logparse's)

_WORDS = (
    "the a model loss step token batch learning rate warmup cosine gradient "
    "accumulation optimizer epoch train eval log parse rank world size cpu "
    "gloo tensor layer head embedding attention output input label value"
).split()


def synthetic_bytes(n: int, seed: int) -> torch.Tensor:
    rng = random.Random(seed)
    out = bytearray()
    while len(out) < n:
        out += (" ".join(rng.choice(_WORDS) for _ in range(rng.randint(4, 12))) + ". ").encode()
    return torch.tensor(list(out[:n]), dtype=torch.long)


class TinyGPT(nn.Module):
    def __init__(self, vocab: int, seq: int, width: int, layers: int, heads: int) -> None:
        super().__init__()
        self.tok = nn.Embedding(vocab, width)
        self.pos = nn.Embedding(seq, width)
        layer = nn.TransformerEncoderLayer(
            width, heads, 2 * width, dropout=0.0, batch_first=True, norm_first=True
        )
        self.blocks = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)
        self.register_buffer("mask", nn.Transformer.generate_square_subsequent_mask(seq), persistent=False)

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        t = x.shape[1]
        h = self.tok(x) + self.pos(torch.arange(t))
        h = self.blocks(h, mask=self.mask[:t, :t], is_causal=True)
        logits = self.head(self.norm(h))
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--style", choices=["pipe", "kv", "bracket", "json"], required=True)
    ap.add_argument("--truth", required=True)
    ap.add_argument("--steps", type=int, default=None)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()

    torch.manual_seed(SEED)
    torch.set_num_threads(args.threads)
    steps = args.steps or {"pipe": 120, "kv": 100, "bracket": 80, "json": 60}[args.style]
    cfg = {
        "global_batch_size": 16,
        "micro_batch_size": 8,
        "seq_len": 32,
        "gradient_accumulation_steps": 2,
        "n_layer": 2,
        "n_embd": 64,
        "n_head": 4,
        "vocab_size": 256,
        "max_steps": steps,
        "max_lr": 3e-3,
        "warmup_steps": 10,
        "weight_decay": 0.1,
    }
    print(f"# capture: python {platform.python_version()}, torch {torch.__version__}, style {args.style}")
    if args.style == "pipe":
        print(f"config: {cfg}")
    elif args.style == "kv":
        print("config:")
        print("  model:")
        for k in ("n_layer", "n_embd", "n_head", "vocab_size"):
            print(f"    {k}: {cfg[k]}")
        print("  train:")
        for k in ("micro_batch_size", "gradient_accumulation_steps", "max_steps", "max_lr", "weight_decay"):
            print(f"    {k}: {cfg[k]}")
        print("  data:")
        print(f"    block_size: {cfg['seq_len']}")
    elif args.style == "json":
        print(json.dumps({"config": cfg}))
    else:
        ns = argparse.Namespace(
            batch_size=cfg["micro_batch_size"],
            grad_accum=cfg["gradient_accumulation_steps"],
            seq_length=cfg["seq_len"],
            num_layers=cfg["n_layer"],
            hidden_size=cfg["n_embd"],
            lr=cfg["max_lr"],
            max_steps=steps,
            eval_every=20,
        )
        print(ns)

    data = synthetic_bytes(200_000, SEED)
    val = synthetic_bytes(20_000, SEED + 1)
    seq, mbs, ga = cfg["seq_len"], cfg["micro_batch_size"], cfg["gradient_accumulation_steps"]
    model = TinyGPT(cfg["vocab_size"], seq, cfg["n_embd"], cfg["n_layer"], cfg["n_head"])
    n_params = sum(p.numel() for p in model.parameters())
    print(f"number of parameters: {n_params}")
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["max_lr"], weight_decay=cfg["weight_decay"])
    gen = torch.Generator().manual_seed(SEED)

    def batch(src: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        ix = torch.randint(len(src) - seq - 1, (mbs,), generator=gen)
        x = torch.stack([src[i : i + seq] for i in ix])
        y = torch.stack([src[i + 1 : i + seq + 1] for i in ix])
        return x, y

    def lr_at(it: int) -> float:
        if it < cfg["warmup_steps"]:
            return cfg["max_lr"] * (it + 1) / cfg["warmup_steps"]
        ratio = (it - cfg["warmup_steps"]) / max(1, steps - cfg["warmup_steps"])
        return 0.1 * cfg["max_lr"] + 0.45 * cfg["max_lr"] * (1 + math.cos(math.pi * ratio))

    tokens_per_step = cfg["global_batch_size"] * seq
    truth_steps, evals = [], []
    first = 0 if args.style == "pipe" else 1
    for i in range(steps):
        t0 = time.perf_counter()
        lr = lr_at(i)
        for group in opt.param_groups:
            group["lr"] = lr
        opt.zero_grad(set_to_none=True)
        loss_accum = 0.0
        for _ in range(ga):
            x, y = batch(data)
            loss = model(x, y) / ga
            loss.backward()
            loss_accum += loss.item()
        norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0))
        opt.step()
        dt = time.perf_counter() - t0
        step = i + first
        tps = tokens_per_step / dt
        rec = {"step": step, "loss": loss_accum, "lr": lr, "grad_norm": norm, "step_time_s": dt}
        if args.style == "pipe":
            rec["tokens_per_s"] = tps
            print(
                f"step {step:5d} | loss {loss_accum:.6f} | lr {lr:.4e} | norm {norm:.4f} | "
                f"dt {dt * 1000:.2f}ms | tok/sec {tps:.2f}"
            )
        elif args.style == "kv":
            sps = cfg["global_batch_size"] / dt
            mem_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e9  # Linux: KiB
            rec.update(samples_per_s=sps, memory_gb=mem_gb)
            print(
                f"Step {step}/{steps} loss={loss_accum:.4f} grad_norm={norm:.3f} lr={lr:.3e} "
                f"time={dt:.4f}s samples/s={sps:.1f} mem={mem_gb:.2f}GB"
            )
        elif args.style == "json":
            rec["tokens_per_s"] = tps
            print(
                json.dumps(
                    {
                        "step": step,
                        "loss": loss_accum,
                        "lr": lr,
                        "grad_norm": norm,
                        "step_time": dt,
                        "tokens_per_sec": tps,
                    }
                )
            )
        else:
            mfu = 6 * n_params * tps / PEAK_FLOPS
            rec.update(tokens_per_s=tps, mfu=mfu)
            print(
                f"[step {step}] loss: {loss_accum:.4f}, lr: {lr:.2e}, grad_norm: {norm:.2f}, "
                f"dt_ms: {dt * 1000:.2f}, tokens/sec: {tps:.0f}, mfu: {mfu * 100:.2f}%"
            )
        truth_steps.append(rec)
        if args.style == "bracket" and step % 20 == 0:
            model.eval()
            with torch.no_grad():
                vl = sum(model(*batch(val)).item() for _ in range(4)) / 4
            model.train()
            evals.append({"step": step, "eval_loss": vl})
            print(f"[step {step}] val_loss: {vl:.4f}")
    print("training done")
    truth = {
        "meta": {
            "python": platform.python_version(),
            "torch": torch.__version__,
            "style": args.style,
            "argv": sys.argv[1:],
            "params": n_params,
            "tokens_per_step": tokens_per_step,
            "peak_flops_for_mfu": PEAK_FLOPS,
        },
        "config": cfg,
        "steps": truth_steps,
        "evals": evals,
    }
    with open(args.truth, "w") as fh:
        json.dump(truth, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
