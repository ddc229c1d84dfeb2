#!/usr/bin/env python3
"""Capture a real Keras 3 `model.fit` console log (backend torch, CPU) and Keras's own record of it.

A tiny classifier (Dense 32 -> Dense 8, softmax) on deterministic random data; `fit(..., verbose=V)`
prints Keras's ProgbarLogger output and nothing else of ours except one `# capture:` line with the
versions. The truth is a Keras Callback (`Record` below) that writes every `logs` dict Keras hands to
`on_train_batch_end` (batch index from 0, within the epoch) and `on_epoch_end` to a JSON file: the same
dicts the ProgbarLogger formats (keras/src/callbacks/progbar_logger.py: `_update_progbar` passes
`logs.items()` unchanged, `stateless_metrics=set()`, so the bar prints them as they are).

`--sleep S` sleeps S seconds in on_train_batch_begin. Keras redraws the bar at most every 0.05 s
(keras/src/utils/progbar.py line 141: `if now - self._last_update < self.interval and not finalize:
return`), so with a step shorter than that only some batches are printed; a real LLM step is much
longer than 0.05 s, and `--sleep 0.06` gives every batch its redraw.

Usage (see README.md beside this file):
    KERAS_BACKEND=torch python capture_keras.py --verbose 1 --sleep 0.06 --truth X.truth.json > X.log 2>&1
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

os.environ.setdefault("KERAS_BACKEND", "torch")

import numpy as np  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)

import keras  # noqa: E402


class Record(keras.callbacks.Callback):
    """Keras's own logs, per batch and per epoch, as floats."""

    def __init__(self, path: str, sleep: float) -> None:
        super().__init__()
        self.path, self.sleep = path, sleep
        self.epoch = 0
        self.data: dict = {"batches": [], "epochs": []}

    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch

    def on_train_batch_begin(self, batch, logs=None):
        if self.sleep:
            time.sleep(self.sleep)

    def on_train_batch_end(self, batch, logs=None):
        row = {k: float(v) for k, v in (logs or {}).items()}
        self.data["batches"].append({"epoch": self.epoch, "batch": batch, **row})

    def on_epoch_end(self, epoch, logs=None):
        row = {k: float(v) for k, v in (logs or {}).items()}
        self.data["epochs"].append({"epoch": epoch, **row})

    def on_train_end(self, logs=None):
        with open(self.path, "w") as fh:
            json.dump(self.data, fh, indent=1)
            fh.write("\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--verbose", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batches", type=int, default=20, help="batches per epoch")
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--sleep", type=float, default=0.0)
    ap.add_argument("--validation", action="store_true")
    ap.add_argument("--evaluate", action="store_true", help="after fit: model.evaluate and model.predict, verbose=1")
    ap.add_argument("--checkpoint", help="ModelCheckpoint(path, save_best_only=True, verbose=1) + EarlyStopping(verbose=1)")
    ap.add_argument("--generator", action="store_true", help="feed fit a Python generator: no length, so the first epoch's bar shows k/Unknown")
    ap.add_argument("--truth", required=True)
    args = ap.parse_args()

    print(
        f"# capture: python {platform.python_version()} keras {keras.__version__} "
        f"backend {keras.backend.backend()} torch {torch.__version__} numpy {np.__version__}",
        flush=True,
    )
    keras.utils.set_random_seed(1234)
    rng = np.random.default_rng(1234)
    n = args.batches * args.batch_size
    x = rng.normal(size=(n, 16)).astype("float32")
    y = (x[:, :3].sum(axis=1) > 0).astype("int64") + 2 * (x[:, 3] > 0.5).astype("int64")
    model = keras.Sequential(
        [keras.Input(shape=(16,)), keras.layers.Dense(32, activation="relu"), keras.layers.Dense(8, activation="softmax")]
    )
    model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    val = None
    if args.validation:
        xv = rng.normal(size=(64, 16)).astype("float32")
        yv = (xv[:, :3].sum(axis=1) > 0).astype("int64") + 2 * (xv[:, 3] > 0.5).astype("int64")
        val = (xv, yv)
    if args.generator:
        # a finite generator has no length: Keras draws "k/Unknown" (progbar.py line 165) until it runs out
        batches = ((x[i * args.batch_size : (i + 1) * args.batch_size], y[i * args.batch_size : (i + 1) * args.batch_size]) for i in range(args.batches))
        model.fit(batches, epochs=1, verbose=args.verbose, callbacks=[Record(args.truth, args.sleep)])
        return
    model.fit(
        x,
        y,
        batch_size=args.batch_size,
        epochs=args.epochs,
        verbose=args.verbose,
        shuffle=False,
        validation_data=val,
        callbacks=[Record(args.truth, args.sleep)]
        + (
            [
                keras.callbacks.ModelCheckpoint(args.checkpoint, monitor="val_loss", save_best_only=True, verbose=1),
                keras.callbacks.EarlyStopping(monitor="val_loss", patience=1, min_delta=0.05, verbose=1),
            ]
            if args.checkpoint
            else []
        ),
    )
    if args.evaluate:  # their bars look like training's: k/N, time per step, metrics
        xe = rng.normal(size=(48, 16)).astype("float32")
        ye = (xe[:, :3].sum(axis=1) > 0).astype("int64") + 2 * (xe[:, 3] > 0.5).astype("int64")
        model.evaluate(xe, ye, batch_size=args.batch_size, verbose=1)
        model.predict(xe, batch_size=args.batch_size, verbose=1)


if __name__ == "__main__":
    main()
