"""Tiny CPU Chainer Trainer runs on a synthetic 3-class TupleDataset, set up as chainer's examples/mnist/train_mnist.py.

python chainer_run.py epoch      -> LogReport() per epoch + Evaluator + PrintReport
python chainer_run.py iter       -> LogReport(trigger=(10, 'iteration')) + Evaluator + PrintReport + ProgressBar(update_interval=10)
python chainer_run.py resume_a   -> as epoch, 6 of 12 epochs, snapshot every epoch (first half of a resumed run)
python chainer_run.py resume_b   -> as epoch, resumes from resume_a's last snapshot (serializers.load_npz) to 12 epochs

The framework's own record: the LogReport 'log' JSON file in the result dir records/result_<mode>/log.
"""
import sys

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

MODE = sys.argv[1]


class MLP(chainer.Chain):
    def __init__(self, n_units, n_out):
        super(MLP, self).__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


def make_data(n, rs):
    centers = rs.randn(3, 20).astype(np.float32) * 0.6
    y = rs.randint(0, 3, size=n).astype(np.int32)
    x = centers[y] + rs.randn(n, 20).astype(np.float32)
    return chainer.datasets.TupleDataset(x, y)


rs = np.random.RandomState(0)
np.random.seed(0)
full = make_data(800, rs)
train, test = chainer.datasets.split_dataset(full, 600)

model = L.Classifier(MLP(64, 3))
optimizer = chainer.optimizers.Adam()
optimizer.setup(model)

train_iter = chainer.iterators.SerialIterator(train, 30)
test_iter = chainer.iterators.SerialIterator(test, 100, repeat=False, shuffle=False)

updater = training.updaters.StandardUpdater(train_iter, optimizer, device=-1)
epochs = {"epoch": 12, "iter": 10, "resume_a": 6, "resume_b": 12}[MODE]
out = "result_" + MODE
trainer = training.Trainer(updater, (epochs, "epoch"), out=out)

trainer.extend(extensions.Evaluator(test_iter, model, device=-1))
if MODE == "iter":
    trainer.extend(extensions.LogReport(trigger=(10, "iteration")))
    trainer.extend(extensions.PrintReport(
        ["epoch", "iteration", "main/loss", "validation/main/loss", "main/accuracy", "elapsed_time"]))
    trainer.extend(extensions.ProgressBar(update_interval=10))
else:
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ["epoch", "main/loss", "validation/main/loss", "main/accuracy", "elapsed_time"]))
if MODE.startswith("resume"):
    trainer.extend(extensions.snapshot(filename="snapshot_epoch_{.updater.epoch}"), trigger=(1, "epoch"))
if MODE == "resume_b":
    chainer.serializers.load_npz("result_resume_a/snapshot_epoch_6", trainer)
    print("resumed from result_resume_a/snapshot_epoch_6")

trainer.run()
