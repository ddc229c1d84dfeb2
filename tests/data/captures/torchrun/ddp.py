"""A plain DistributedDataParallel loop on the CPU (gloo) under `torchrun --nproc-per-node 2`: each rank trains
on its half of synthetic data and prints its own line every 5 steps, `rank {r}: step {s}/{N} | loss {:.4f} |
{ms:.1f} ms/step`, the loss its own (not reduced), the time its own step's. Each rank appends every step's
values, unrounded, to <name>.rank<r>.jsonl (kind "train"), and its evaluation's after each epoch (kind "eval",
printed by rank 0 only as `eval after step {s}: loss {:.4f} accuracy {:.4f}`)."""

import argparse
import json
import time
from pathlib import Path

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

torch.set_num_threads(1)


def blobs(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    centres = torch.randn(4, 128, generator=torch.Generator().manual_seed(1)) * 0.12
    return TensorDataset(centres[y] + torch.randn(n, 128, generator=g), y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="ddp_2proc")
    args = ap.parse_args()
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    truth = Path(__file__).resolve().parent / f"{args.name}.rank{rank}.jsonl"
    truth.unlink(missing_ok=True)

    def record(**obj):
        with truth.open("a") as f:
            f.write(json.dumps(obj) + "\n")

    torch.manual_seed(0)
    model = DistributedDataParallel(
        nn.Sequential(nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 4))
    )
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    data = blobs(1280, 0)
    sampler = DistributedSampler(data, num_replicas=world, rank=rank, shuffle=True, seed=0)
    loader = DataLoader(data, batch_size=16, sampler=sampler)
    val = blobs(256, 7)
    epochs, step = 2, 0
    total = epochs * len(loader)
    if rank == 0:
        print(f"world size {world}, {len(loader)} steps an epoch on each rank, {total} steps", flush=True)
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        model.train()
        for x, y in loader:
            t0 = time.perf_counter()
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            dt = time.perf_counter() - t0
            step += 1
            record(kind="train", step=step, epoch=epoch, loss=loss.item(), step_time_s=dt)
            if step % 5 == 0:
                print(
                    f"rank {rank}: step {step}/{total} | loss {loss.item():.4f} | {dt * 1000:.1f} ms/step",
                    flush=True,
                )
        model.eval()
        with torch.no_grad():
            logits = model(val.tensors[0])
            vloss = nn.functional.cross_entropy(logits, val.tensors[1]).item()
            acc = (logits.argmax(1) == val.tensors[1]).float().mean().item()
        if rank == 0:
            record(kind="eval", step=step, epoch=epoch, loss=vloss, accuracy=acc)
            print(f"eval after step {step}: loss {vloss:.4f} accuracy {acc:.4f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
