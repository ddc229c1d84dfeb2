"""pytorch-accelerated Trainer on a tiny synthetic 3-class classification set, default callbacks.

Modes:
  train_eval   : default callbacks (progress bars + per-epoch metric printing), train + eval, 8 epochs
  metrics_ckpt : a docs-style accuracy callback in front of DEFAULT_CALLBACKS, a StepLR scheduler,
                 SaveTrainingStateCallback saving every 2 epochs, 6 epochs
  resume       : same callbacks, resume_from=<metrics_ckpt's epoch_4 state>, 3 epochs
The record: trainer.run_history.get_metric_values(name) for every name, dumped to JSON (--record).
"""
import argparse, json, time

import torch
from torch import nn, optim
from torch.utils.data import TensorDataset

from pytorch_accelerated import Trainer
from pytorch_accelerated.callbacks import (
    TrainerCallback,
    SaveTrainingStateCallback,
)
from pytorch_accelerated.trainer import DEFAULT_CALLBACKS


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.tensor([[2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0]])
    y = torch.randint(0, 3, (n,), generator=g)
    x = centers[y] + 1.5 * torch.randn(n, 4, generator=g)
    x = torch.cat([x, torch.randn(n, 12, generator=g)], dim=1)
    return TensorDataset(x, y)


class AccuracyCallback(TrainerCallback):
    """Like the library's ClassificationMetricsCallback example: computes eval accuracy and puts it in
    the run history, so LogMetricsCallback prints it."""

    def on_eval_epoch_start(self, trainer, **kwargs):
        self.correct = 0
        self.total = 0

    def on_eval_step_end(self, trainer, batch, batch_output, **kwargs):
        preds = batch_output["model_outputs"].argmax(dim=-1)
        self.correct += (preds == batch[1]).sum().item()
        self.total += batch[1].numel()

    def on_eval_epoch_end(self, trainer, **kwargs):
        trainer.run_history.update_metric("accuracy", self.correct / self.total)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["train_eval", "metrics_ckpt", "resume"], required=True)
    ap.add_argument("--record", required=True)
    ap.add_argument("--ckpt-dir", default="training_states")
    ap.add_argument("--resume-from", default=None)
    args = ap.parse_args()

    torch.manual_seed(0)
    train_ds = make_data(1600, 1)
    eval_ds = make_data(400, 2)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))
    optimizer = optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_func = nn.CrossEntropyLoss()

    if args.mode == "train_eval":
        trainer = Trainer(model=model, loss_func=loss_func, optimizer=optimizer)
        trainer.train(train_dataset=train_ds, eval_dataset=eval_ds, num_epochs=8,
                      per_device_batch_size=32)
    else:
        callbacks = (
            AccuracyCallback(),
            *DEFAULT_CALLBACKS,
            SaveTrainingStateCallback(save_dir=args.ckpt_dir, save_every_n_epochs=2, save_at_end=False),
        )
        trainer = Trainer(model=model, loss_func=loss_func, optimizer=optimizer, callbacks=callbacks)
        sched = lambda opt: optim.lr_scheduler.StepLR(opt, step_size=50, gamma=0.8)
        trainer.train(train_dataset=train_ds, eval_dataset=eval_ds,
                      num_epochs=6 if args.mode == "metrics_ckpt" else 3,
                      per_device_batch_size=32, create_scheduler_fn=sched,
                      resume_from=args.resume_from)

    rh = trainer.run_history
    record = {
        "source": "trainer.run_history (InMemoryRunHistory), get_metric_values(name) for each name",
        "current_epoch_after_run": rh.current_epoch,
        "metrics": {name: list(rh.get_metric_values(name)) for name in sorted(rh.get_metric_names())},
    }
    with open(args.record, "w") as f:
        json.dump(record, f, indent=1)


if __name__ == "__main__":
    main()
