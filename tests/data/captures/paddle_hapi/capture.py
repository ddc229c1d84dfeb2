"""PaddlePaddle's high-level API on CPU: paddle.Model(...).fit on synthetic data, a small MLP, as its docs set it
up (verbose=2: a line every log_freq steps; evaluation after each epoch). Truth: a paddle.callbacks.Callback
appends the `logs` dict the framework passes to every callback (its own record of each train batch and each
evaluation) to <name>.truth.jsonl, unrounded, with the step and epoch it was given."""

import argparse
import json
from pathlib import Path

import numpy as np
import paddle
from paddle import nn


class Blobs(paddle.io.Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.y = rng.integers(0, 4, n).astype("int64")
        centres = np.random.default_rng(1).standard_normal((4, 128)) * 0.12
        self.x = (centres[self.y] + rng.standard_normal((n, 128))).astype("float32")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i : i + 1]


class Record(paddle.callbacks.Callback):
    def __init__(self, path):
        super().__init__()
        self.path = path
        self.epoch = None
        path.unlink(missing_ok=True)

    def write(self, **obj):
        with self.path.open("a") as f:
            f.write(json.dumps(obj, default=lambda v: np.asarray(v).tolist()) + "\n")

    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch

    def on_train_batch_end(self, step, logs=None):
        self.write(kind="train", epoch=self.epoch, step=step, logs=logs)

    def on_eval_end(self, logs=None):
        self.write(kind="eval", epoch=self.epoch, logs=logs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="fit")
    args = ap.parse_args()
    paddle.seed(0)
    np.random.seed(0)
    net = nn.Sequential(nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 4))
    model = paddle.Model(net)
    opt = paddle.optimizer.Momentum(learning_rate=0.01, momentum=0.9, parameters=model.parameters())
    model.prepare(opt, nn.CrossEntropyLoss(), paddle.metric.Accuracy())
    record = Record(Path(__file__).resolve().parent / f"{args.name}.truth.jsonl")
    model.fit(
        Blobs(1600, 0),
        Blobs(256, 7),
        epochs=3,
        batch_size=32,
        shuffle=True,
        verbose=2,
        log_freq=10,
        callbacks=[record],
    )


if __name__ == "__main__":
    main()
