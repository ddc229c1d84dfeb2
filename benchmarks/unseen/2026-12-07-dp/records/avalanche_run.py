"""Tiny Avalanche continual-learning run on synthetic data (CPU).

Usage:
  python avalanche_run.py --mode text         # Naive, TextLogger(stdout) + CSVLogger + JSONL record plugin
  python avalanche_run.py --mode interactive  # EWC, InteractiveLogger (tqdm) + CSVLogger + JSONL record plugin,
                                              # eval_every=1 on the matching test experience
"""
import argparse
import json
import os
import sys

import torch
from torch.nn import CrossEntropyLoss
from torch.optim import SGD
from torch.utils.data import TensorDataset

from avalanche.benchmarks import nc_benchmark
from avalanche.evaluation.metrics import (
    accuracy_metrics,
    loss_metrics,
    timing_metrics,
    forgetting_metrics,
)
from avalanche.logging import BaseLogger, CSVLogger, InteractiveLogger, TextLogger
from avalanche.models import SimpleMLP
from avalanche.training import EWC, Naive
from avalanche.training.plugins import EvaluationPlugin


class JSONLRecordLogger(BaseLogger):
    """The framework's own record: every MetricValue the EvaluationPlugin emits, with its x_plot
    and the strategy clock at that moment, one JSON object per line."""

    def __init__(self, path):
        super().__init__()
        self.f = open(path, "w")
        self._strategy = None

    def before_training(self, strategy, metric_values, **kwargs):
        self._strategy = strategy

    def before_eval(self, strategy, metric_values, **kwargs):
        self._strategy = strategy

    def log_single_metric(self, name, value, x_plot):
        s = self._strategy
        clock = {}
        if s is not None:
            c = s.clock
            clock = dict(
                train_exp_counter=c.train_exp_counter,
                train_exp_epochs=c.train_exp_epochs,
                train_epoch_iterations=c.train_epoch_iterations,
                train_exp_iterations=c.train_exp_iterations,
                train_iterations=c.train_iterations,
                total_iterations=c.total_iterations,
                is_training=bool(s.is_training),
            )
        if isinstance(value, torch.Tensor):
            value = value.tolist()
        self.f.write(json.dumps(dict(name=name, value=value, x_plot=x_plot, clock=clock)) + "\n")
        self.f.flush()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", choices=["text", "interactive"], required=True)
    p.add_argument("--out", default="out")
    args = p.parse_args()
    torch.manual_seed(0)
    os.makedirs(args.out, exist_ok=True)

    # synthetic 6-class problem, 20 features: 600 train / 180 test samples
    n_cls, d = 6, 20
    centers = torch.randn(n_cls, d) * 0.6
    def make(n):
        y = torch.randint(0, n_cls, (n,))
        x = centers[y] + torch.randn(n, d)
        return TensorDataset(x, y)
    train_ds, test_ds = make(600), make(180)
    benchmark = nc_benchmark(train_ds, test_ds, n_experiences=3, task_labels=False, seed=1234)

    model = SimpleMLP(num_classes=n_cls, input_size=d, hidden_size=64, hidden_layers=1)
    optimizer = SGD(model.parameters(), lr=0.01, momentum=0.9)
    criterion = CrossEntropyLoss()

    record = JSONLRecordLogger(os.path.join(args.out, "metrics.jsonl"))
    csv = CSVLogger(log_folder=os.path.join(args.out, "csvlogs"))
    if args.mode == "text":
        console = TextLogger(sys.stdout)
        evaluator = EvaluationPlugin(
            accuracy_metrics(epoch=True, experience=True, stream=True),
            loss_metrics(epoch=True, experience=True, stream=True),
            timing_metrics(epoch=True),
            forgetting_metrics(experience=True, stream=True),
            loggers=[console, csv, record],
        )
        strategy = Naive(model=model, optimizer=optimizer, criterion=criterion, train_mb_size=32, train_epochs=4,
                         eval_mb_size=64, evaluator=evaluator, eval_every=-1)
    else:
        console = InteractiveLogger()
        evaluator = EvaluationPlugin(
            accuracy_metrics(minibatch=True, epoch=True, experience=True, stream=True),
            loss_metrics(minibatch=True, epoch=True, experience=True, stream=True),
            timing_metrics(epoch=True),
            forgetting_metrics(experience=True, stream=True),
            loggers=[console, csv, record],
        )
        strategy = EWC(model=model, optimizer=optimizer, criterion=criterion, ewc_lambda=0.4, train_mb_size=32,
                       train_epochs=4, eval_mb_size=64, evaluator=evaluator, eval_every=1)

    print("Starting experiment...")
    results = []
    for i, experience in enumerate(benchmark.train_stream):
        print("Start of experience: ", experience.current_experience)
        print("Current Classes: ", experience.classes_in_this_experience)
        if args.mode == "interactive":
            res = strategy.train(experience, eval_streams=[benchmark.test_stream[i]])
        else:
            res = strategy.train(experience)
        print("Training completed")
        print("Computing accuracy on the whole test set")
        results.append(strategy.eval(benchmark.test_stream))
    csv.close()
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump([{k: (v.tolist() if isinstance(v, torch.Tensor) else v) for k, v in r.items()}
                   for r in results], f, indent=1)


if __name__ == "__main__":
    main()
