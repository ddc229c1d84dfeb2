"""A toy MMEngine run on CPU: Runner with a small MLP on synthetic data, by epoch or by iteration.

MMEngine writes its own record of every logged iteration beside the console: <work_dir>/<timestamp>/vis_data/
scalars.json (LocalVisBackend), one JSON object per logged train iteration and per validation. This script
copies it to <name>.scalars.json next to the log; it also appends each iteration's raw loss to
<name>.iters.jsonl (a hook), since the console's loss is MMEngine's window mean.
"""

import argparse
import json
import shutil
import sys
from pathlib import Path

import torch
from mmengine.evaluator import BaseMetric
from mmengine.hooks import Hook
from mmengine.model import BaseModel
from mmengine.runner import Runner
from torch import nn
from torch.utils.data import Dataset

torch.set_num_threads(1)


class Blobs(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.y = torch.randint(0, 4, (n,), generator=g)
        centres = torch.randn(4, 128, generator=torch.Generator().manual_seed(1)) * 0.12
        self.x = centres[self.y] + torch.randn(n, 128, generator=g)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return dict(inputs=self.x[i], labels=self.y[i])


class MLP(BaseModel):
    def __init__(self, two_losses=False):
        super().__init__()
        self.two_losses = two_losses
        self.net = nn.Sequential(
            nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 4)
        )

    def forward(self, inputs, labels, mode="tensor"):
        logits = self.net(inputs)
        if mode == "loss" and self.two_losses:
            # an OpenMMLab-style head: named losses, which MMEngine sums into `loss` (BaseModel.parse_losses)
            reg = nn.functional.mse_loss(logits.softmax(1), nn.functional.one_hot(labels, 4).float())
            return dict(loss_cls=nn.functional.cross_entropy(logits, labels), loss_reg=0.5 * reg)
        if mode == "loss":
            return dict(loss=nn.functional.cross_entropy(logits, labels))
        if mode == "predict":
            return list(zip(logits.argmax(1), labels, strict=True))
        return logits


class Accuracy(BaseMetric):
    def process(self, data_batch, data_samples):
        for pred, label in data_samples:
            self.results.append(int(pred == label))

    def compute_metrics(self, results):
        return dict(accuracy=100.0 * sum(results) / len(results))


class RawLoss(Hook):
    """Every iteration's loss as the model returned it (the console prints a window mean)."""

    def __init__(self, path):
        self.path = path

    def after_train_iter(self, runner, batch_idx, data_batch=None, outputs=None):
        with open(self.path, "a") as f:
            f.write(
                json.dumps(dict(iter=runner.iter + 1, epoch=runner.epoch + 1, loss=outputs["loss"].item()))
                + "\n"
            )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["epoch", "iter", "multiloss"])
    ap.add_argument("--work-dir", default="/tmp/c43/mmengine")
    args = ap.parse_args()
    here = Path(__file__).resolve().parent
    name = f"mmengine_{args.mode}"
    work = Path(args.work_dir) / name
    shutil.rmtree(work, ignore_errors=True)
    raw = here / f"{name}.iters.jsonl"
    raw.unlink(missing_ok=True)
    loader = dict(
        batch_size=16,
        dataset=Blobs(800, 0),
        sampler=dict(type="DefaultSampler", shuffle=True),
        collate_fn=dict(type="default_collate"),
    )
    val_loader = dict(
        batch_size=64,
        dataset=Blobs(256, 7),
        sampler=dict(type="DefaultSampler", shuffle=False),
        collate_fn=dict(type="default_collate"),
    )
    by_epoch = args.mode in ("epoch", "multiloss")
    if by_epoch:
        train_cfg = dict(by_epoch=True, max_epochs=3, val_interval=1)
        log_processor = dict(by_epoch=True)
        checkpoint = dict(type="CheckpointHook", interval=1, max_keep_ckpts=1)
    else:
        train_cfg = dict(by_epoch=False, max_iters=120, val_interval=40)
        log_processor = dict(by_epoch=False)
        checkpoint = dict(type="CheckpointHook", interval=60, by_epoch=False, max_keep_ckpts=1)
    runner = Runner(
        model=MLP(two_losses=args.mode == "multiloss"),
        work_dir=str(work),
        train_dataloader=loader,
        train_cfg=train_cfg,
        val_dataloader=val_loader,
        val_cfg=dict(),
        val_evaluator=dict(type=Accuracy),
        optim_wrapper=dict(
            optimizer=dict(type="SGD", lr=0.01, momentum=0.9),
            **(dict(clip_grad=dict(max_norm=1.0)) if args.mode == "multiloss" else {}),
        ),
        param_scheduler=dict(
            type="MultiStepLR",
            by_epoch=by_epoch,
            milestones=[2] if by_epoch else [80],
            gamma=0.1,
        ),
        default_hooks=dict(logger=dict(type="LoggerHook", interval=10), checkpoint=checkpoint),
        custom_hooks=[dict(type=RawLoss, path=str(raw))],
        log_processor=log_processor,
        randomness=dict(seed=0),
        default_scope=None,
    )
    runner.train()
    sys.stdout.flush()
    (scalars,) = work.glob("*/vis_data/scalars.json")
    shutil.copy(scalars, here / f"{name}.scalars.json")


if __name__ == "__main__":
    main()
