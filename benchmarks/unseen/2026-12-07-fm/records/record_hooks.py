"""Recording hooks for PyOD deep detectors (PyOD keeps no loss history).

BaseDeepLearningDetector.train (pyod/models/base_dl.py) collects the float returned by
self.training_forward(batch) for every batch of an epoch, prints np.mean(...) of them, then calls
self.epoch_update(). We wrap those two instance methods: the wrapper of training_forward keeps every
batch loss (the same float the framework appends), the wrapper of epoch_update computes np.mean over
them exactly as base_dl.py does and writes one JSON line per epoch.

DeepSVDD.fit (pyod/models/deep_svdd.py) does its loop inline: epoch_loss += loss.item() per batch,
printed unrounded. We patch torch.Tensor.backward to keep loss.item() of every backward call during fit,
and InnerDeepSVDD.train (nn.Module.train, called with mode=True at the start of each epoch) to close
the previous epoch: the sum is accumulated in the same order from 0, as deep_svdd.py does.
"""
import json
import time

import numpy as np
import torch


def attach_base_dl_recorder(clf, path):
    fh = open(path, "w")
    state = {"batch_losses": [], "epoch": 0, "t0": time.time()}
    orig_forward = clf.training_forward
    orig_update = clf.epoch_update

    def training_forward(batch_data):
        loss = orig_forward(batch_data)
        state["batch_losses"].append(loss)
        return loss

    def epoch_update():
        state["epoch"] += 1
        losses = state["batch_losses"]
        rec = {
            "epoch": state["epoch"],
            "epoch_num": clf.epoch_num,
            "loss": float(np.mean(losses)),   # == overall_loss printed as loss={overall_loss:.4f}
            "num_batches": len(losses),
            "batch_losses": [float(l) for l in losses],
            "wall_s_since_attach": time.time() - state["t0"],
        }
        fh.write(json.dumps(rec) + "\n")
        fh.flush()
        state["batch_losses"] = []
        return orig_update()

    clf.training_forward = training_forward
    clf.epoch_update = epoch_update
    return fh


class DeepSVDDRecorder:
    def __init__(self, path, epochs):
        from pyod.models import deep_svdd
        self.fh = open(path, "w")
        self.epochs = epochs
        self.batch_losses = []
        self.epoch = 0
        self.active = False
        self._orig_backward = torch.Tensor.backward
        self._orig_train = deep_svdd.InnerDeepSVDD.train
        rec = self

        def backward(tensor, *a, **k):
            if rec.active and tensor.dim() == 0:
                rec.batch_losses.append(tensor.item())
            return rec._orig_backward(tensor, *a, **k)

        def train(module, mode=True):
            if mode:
                rec.flush()
                rec.active = True
            return rec._orig_train(module, mode)

        torch.Tensor.backward = backward
        deep_svdd.InnerDeepSVDD.train = train

    def flush(self):
        if not self.batch_losses:
            return
        self.epoch += 1
        epoch_loss = 0
        for l in self.batch_losses:
            epoch_loss += l                     # same accumulation as deep_svdd.py
        self.fh.write(json.dumps({
            "epoch": self.epoch, "epochs": self.epochs,
            "loss": epoch_loss,                  # printed as f"Loss: {epoch_loss}" (unrounded repr)
            "num_batches": len(self.batch_losses),
            "batch_losses": self.batch_losses,
        }) + "\n")
        self.fh.flush()
        self.batch_losses = []

    def close(self):
        self.flush()
        self.active = False
        self.fh.close()
