"""PyTorch-Ignite on CPU: a small MLP on synthetic data, logged in one of three ways Ignite users do.

print       the examples' handlers (examples/mnist/mnist_with_tensorboard.py): `Epoch[1] Iteration[10/50] Loss: 1.38`
            every 10 iterations, `Training Results - ...` and `Validation Results - ...` after each epoch
fbresearch  ignite.handlers.fbresearch_logger.FBResearchLogger on a logger from ignite.utils.setup_logger
pbar        ignite.handlers.ProgressBar(persist=True) with the loss as its postfix, results via pbar.log_message

Truth (<style>.truth.jsonl): one object per training iteration, written by a handler registered before the
logging ones (so it sees the state they print): the iteration, epoch, the unrounded loss, the lr, and for
fbresearch the logger's own iteration timer; then one object per evaluation with its unrounded metrics.
"""

import argparse
import json
import logging
from pathlib import Path

import torch
from ignite.engine import Events, create_supervised_evaluator, create_supervised_trainer
from ignite.handlers import ProgressBar
from ignite.handlers.fbresearch_logger import FBResearchLogger
from ignite.metrics import Accuracy, Loss
from ignite.utils import manual_seed, setup_logger
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)


def blobs(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    centres = torch.randn(4, 128, generator=torch.Generator().manual_seed(1)) * 0.12
    return TensorDataset(centres[y] + torch.randn(n, 128, generator=g), y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("style", choices=["print", "fbresearch", "pbar"])
    args = ap.parse_args()
    truth = Path(__file__).resolve().parent / f"{args.style}.truth.jsonl"
    truth.unlink(missing_ok=True)
    manual_seed(0)
    train_loader = DataLoader(blobs(800, 0), batch_size=16, shuffle=True)
    val_loader = DataLoader(blobs(256, 7), batch_size=64)
    model = nn.Sequential(nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
    criterion = nn.CrossEntropyLoss()
    if args.style == "fbresearch":
        # as FBResearchLogger's docstring sets it up: the output a dict, so the logger names the loss
        trainer = create_supervised_trainer(
            model, opt, criterion, output_transform=lambda x, y, y_pred, loss: {"total_loss": loss.item()}
        )
    else:
        trainer = create_supervised_trainer(model, opt, criterion)
    metrics = {"accuracy": Accuracy(), "nll": Loss(criterion)}
    evaluator = create_supervised_evaluator(model, metrics=metrics)
    fb = None

    def record(obj):
        with truth.open("a") as f:
            f.write(json.dumps(obj) + "\n")

    @trainer.on(Events.ITERATION_COMPLETED)
    def write_truth(engine):
        obj = dict(
            kind="train",
            iteration=engine.state.iteration,
            epoch=engine.state.epoch,
            loss=out["total_loss"] if isinstance(out := engine.state.output, dict) else out,
            lr=opt.param_groups[0]["lr"],
        )
        if fb is not None:
            obj["iter_time_avg"] = fb.iter_timer.value()
            obj["data_time_avg"] = fb.data_timer.value()
        record(obj)

    if args.style == "print":

        @trainer.on(Events.ITERATION_COMPLETED(every=10))
        def log_training_loss(engine):
            print(
                f"Epoch[{engine.state.epoch}] Iteration[{engine.state.iteration}/{len(train_loader)}] Loss: {engine.state.output:.2f}"
            )

        def say(msg):
            print(msg)

    elif args.style == "fbresearch":
        logger = setup_logger("trainer", level=logging.INFO)
        fb = FBResearchLogger(logger=logger, show_output=True)
        fb.attach(trainer, name="Train", every=10, optimizer=opt)
        say = logger.info
    else:
        pbar = ProgressBar(persist=True)
        pbar.attach(trainer, output_transform=lambda x: {"loss": x})
        say = pbar.log_message

    @trainer.on(Events.EPOCH_COMPLETED)
    def log_validation_results(engine):
        evaluator.run(val_loader)
        m = evaluator.state.metrics
        record(
            dict(
                kind="eval",
                epoch=engine.state.epoch,
                iteration=engine.state.iteration,
                accuracy=m["accuracy"],
                nll=m["nll"],
            )
        )
        say(
            f"Validation Results - Epoch: {engine.state.epoch}  Avg accuracy: {m['accuracy']:.2f} Avg loss: {m['nll']:.2f}"
        )
        sched.step()

    trainer.run(train_loader, max_epochs=3)


if __name__ == "__main__":
    main()
