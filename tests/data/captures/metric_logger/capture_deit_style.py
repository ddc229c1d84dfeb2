"""A DeiT-style training loop on the CPU, printed by DeiT's own MetricLogger (utils.py of a DeiT checkout).

    python capture_deit_style.py --deit /path/to/deit --out . > deit_style_cpu.log 2>&1

The loop follows facebookresearch/deit engine.py train_one_epoch: a MetricLogger(delimiter="  ") with an lr
meter (SmoothedValue(window_size=1, fmt='{value:.6f}')), header 'Epoch: [{}]'.format(epoch), print_freq 10,
metric_logger.update(loss=...) and update(lr=...) after each step, then print("Averaged stats:", metric_logger).
The model is a tiny classifier on random data (3 epochs of 25 batches), so it runs in seconds.

Beside the log it writes the truth the test reads:
  log.txt           one JSON line per epoch in the shape DeiT's main.py writes (train_lr, train_loss, epoch):
                    the MetricLogger's own global averages (train_one_epoch returns meter.global_avg)
  iterations.jsonl  this script's record of every iteration: epoch, i (position in the epoch), loss, lr
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--deit", required=True, help="a checkout of facebookresearch/deit (its utils.py is used)")
parser.add_argument("--out", default=".", help="folder for log.txt and iterations.jsonl")
args = parser.parse_args()
sys.path.insert(0, args.deit)
import utils  # noqa: E402  (DeiT's utils.py: MetricLogger, SmoothedValue)

torch.manual_seed(0)
torch.set_num_threads(1)
x = torch.randn(200, 32)
y = torch.randint(0, 10, (200,))
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=8, shuffle=True)
model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)  # stepped once per epoch
criterion = torch.nn.CrossEntropyLoss()
print(f"torch {torch.__version__}, CUDA available: {torch.cuda.is_available()}")

with open(os.path.join(args.out, "iterations.jsonl"), "w") as its, open(os.path.join(args.out, "log.txt"), "w") as log:
    for epoch in range(3):
        metric_logger = utils.MetricLogger(delimiter="  ")
        metric_logger.add_meter("lr", utils.SmoothedValue(window_size=1, fmt="{value:.6f}"))
        header = "Epoch: [{}]".format(epoch)
        i = 0
        for samples, targets in metric_logger.log_every(loader, 10, header):
            loss = criterion(model(samples), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            loss_value = loss.item()
            lr = optimizer.param_groups[0]["lr"]
            metric_logger.update(loss=loss_value)
            metric_logger.update(lr=lr)
            its.write(json.dumps({"epoch": epoch, "i": i, "loss": loss_value, "lr": lr}) + "\n")
            i += 1
        print("Averaged stats:", metric_logger)
        stats = {k: meter.global_avg for k, meter in metric_logger.meters.items()}
        log.write(json.dumps({**{f"train_{k}": v for k, v in stats.items()}, "epoch": epoch}) + "\n")
        scheduler.step()
