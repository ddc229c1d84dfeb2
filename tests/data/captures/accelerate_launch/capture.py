"""A loop run by `accelerate launch --cpu`, printing through accelerator.print (the main process only): a small
MLP on synthetic data, the loss reduced over the processes (accelerator.reduce, a no-op with one), an evaluation
after each epoch. Truth: the main process appends each optimizer step's
values, unrounded, to <name>.truth.jsonl (kind "train"), and each evaluation's (kind "eval")."""

import argparse
import json
import time
from pathlib import Path

import torch
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def blobs(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    centres = torch.randn(4, 128, generator=torch.Generator().manual_seed(1)) * 0.12
    return TensorDataset(centres[y] + torch.randn(n, 128, generator=g), y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="launch_cpu")
    args = ap.parse_args()
    accelerator = Accelerator()
    set_seed(0)
    truth = Path(__file__).resolve().parent / f"{args.name}.truth.jsonl"
    if accelerator.is_main_process:
        truth.unlink(missing_ok=True)

    def record(**obj):
        if accelerator.is_main_process:
            with truth.open("a") as f:
                f.write(json.dumps(obj) + "\n")

    model = nn.Sequential(nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 4))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    train = DataLoader(blobs(1280, 0), batch_size=16, shuffle=True)
    val = DataLoader(blobs(256, 7), batch_size=64)
    epochs = 3
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=1e-3, total_steps=epochs * (len(train) // accelerator.num_processes)
    )
    model, opt, train, val, sched = accelerator.prepare(model, opt, train, val, sched)
    total = epochs * len(train)
    accelerator.print(
        f"Training on {accelerator.num_processes} processes: {len(train)} steps an epoch, {total} steps"
    )
    step = 0
    for epoch in range(epochs):
        model.train()
        for x, y in train:
            t0 = time.perf_counter()
            loss = nn.functional.cross_entropy(model(x), y)
            accelerator.backward(loss)
            opt.step()
            sched.step()
            opt.zero_grad()
            mean_loss = accelerator.reduce(loss.detach(), "mean").item()
            dt = time.perf_counter() - t0
            step += 1
            lr = sched.get_last_lr()[0]
            record(kind="train", step=step, epoch=epoch, loss=mean_loss, lr=lr, step_time_s=dt)
            if step % 5 == 0:
                accelerator.print(
                    f"epoch {epoch} | step {step}/{total} | loss {mean_loss:.4f} | lr {lr:.2e} | {dt * 1000:.1f} ms/step"
                )
        model.eval()
        losses, correct, seen = [], 0, 0
        with torch.no_grad():
            for x, y in val:
                logits = model(x)
                logits, y = accelerator.gather_for_metrics((logits, y))
                losses.append(nn.functional.cross_entropy(logits, y, reduction="sum").item())
                correct += (logits.argmax(1) == y).sum().item()
                seen += len(y)
        record(kind="eval", step=step, epoch=epoch, loss=sum(losses) / seen, accuracy=correct / seen)
        accelerator.print(
            f"epoch {epoch}: eval_loss {sum(losses) / seen:.4f} eval_accuracy {correct / seen:.4f}"
        )


if __name__ == "__main__":
    main()
