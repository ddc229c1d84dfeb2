"""Avalanche Naive strategy on a tiny synthetic class-incremental benchmark (2 experiences, 2 classes each),
small MLP, CPU. Console logging by avalanche's own InteractiveLogger / TextLogger (stdout). The evaluation
plugin's record (EvaluationPlugin.get_all_metrics(), collect_all=True by default) is dumped to JSON.

usage: python run_avalanche.py {interactive,text,text_peval} OUT_JSON
  interactive : Naive(..., evaluator=default_evaluator) -> EvaluationPlugin(accuracy+loss epoch/exp/stream,
                loggers=[InteractiveLogger()]), 5 epochs per experience
  text        : EvaluationPlugin(accuracy+loss epoch/exp/stream, loggers=[TextLogger(sys.stdout)]),
                8 epochs per experience
  text_peval  : as text, 6 epochs per experience, with periodic evaluation on the test stream after
                every epoch (Naive(..., eval_every=1), strategy.train(exp, eval_streams=[test_stream]))
"""
import json
import sys

import torch
from torch import nn

from avalanche.benchmarks import tensors_benchmark
from avalanche.evaluation.metrics import accuracy_metrics, loss_metrics
from avalanche.logging import TextLogger
from avalanche.training import Naive
from avalanche.training.plugins import EvaluationPlugin
from avalanche.training.plugins.evaluation import default_evaluator

mode, out = sys.argv[1], sys.argv[2]
torch.manual_seed(0)
torch.set_num_threads(1)

N_FEAT, N_CLASSES = 20, 4
centers = torch.randn(N_CLASSES, N_FEAT) * 0.25


def make_split(classes, n_per_class, gen):
    xs, ys = [], []
    for c in classes:
        xs.append(centers[c] + torch.randn(n_per_class, N_FEAT, generator=gen))
        ys.append(torch.full((n_per_class,), c, dtype=torch.long))
    return torch.cat(xs), torch.cat(ys)


g = torch.Generator().manual_seed(1)
train_tensors = [make_split([0, 1], 100, g), make_split([2, 3], 100, g)]   # 200 samples per experience
test_tensors = [make_split([0, 1], 50, g), make_split([2, 3], 50, g)]
benchmark = tensors_benchmark(train_tensors=train_tensors, test_tensors=test_tensors, task_labels=[0, 0])

model = nn.Sequential(nn.Linear(N_FEAT, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
criterion = nn.CrossEntropyLoss()

if mode == "interactive":
    evaluator = default_evaluator()
    epochs, eval_every = 5, -1
elif mode in ("text", "text_peval"):
    evaluator = EvaluationPlugin(
        accuracy_metrics(epoch=True, experience=True, stream=True),
        loss_metrics(epoch=True, experience=True, stream=True),
        loggers=[TextLogger(sys.stdout)],
    )
    epochs, eval_every = (8, -1) if mode == "text" else (6, 1)
else:
    raise SystemExit("unknown mode " + mode)

strategy = Naive(model, optimizer, criterion, train_mb_size=32, train_epochs=epochs, eval_mb_size=64,
                 device="cpu", evaluator=evaluator, eval_every=eval_every)

results = []
for experience in benchmark.train_stream:
    print("Start of experience:", experience.current_experience)
    print("Current Classes:", experience.classes_in_this_experience)
    if eval_every > 0:
        strategy.train(experience, eval_streams=[benchmark.test_stream])
    else:
        strategy.train(experience)
    print("Training completed")
    print("Computing accuracy on the whole test set")
    results.append(strategy.eval(benchmark.test_stream))
sys.stdout.flush()


def plain(v):
    if isinstance(v, torch.Tensor):
        return v.tolist()
    if isinstance(v, float):
        return v
    if isinstance(v, (int, str)) or v is None:
        return v
    return repr(v)


all_metrics = evaluator.get_all_metrics()
record = {
    "mode": mode,
    "train_epochs": epochs,
    "train_mb_size": 32,
    "train_samples_per_experience": 200,
    "eval_every": eval_every,
    "clock": {k: v for k, v in vars(strategy.clock).items() if isinstance(v, int)},
    # name -> {"x": [x_plot ...], "y": [value ...]}; x_plot is the strategy clock's global training
    # iteration count (clock.train_iterations) when the value was emitted
    "get_all_metrics": {name: {"x": [int(x) for x in xs], "y": [plain(y) for y in ys]}
                        for name, (xs, ys) in all_metrics.items()},
    "eval_results": [{k: plain(v) for k, v in r.items()} for r in results],
}
with open(out, "w") as fh:
    json.dump(record, fh, indent=2)
