"""Flax on JAX (CPU): a small MLP on synthetic data, printed as the two Flax examples a user starts from.

absl_epochs  flax/examples/mnist/train.py (linen): absl logging, one line per epoch,
             `epoch:% 3d, train_loss: %.4f, train_accuracy: %.2f, test_loss: %.4f, test_accuracy: %.2f`
nnx_steps    the Flax NNX MNIST tutorial's loop: every eval_every steps `[train] step: N, loss: ..., accuracy: ...`
             then `[test] step: N, loss: ..., accuracy: ...`, the values printed unrounded (f-strings of floats)

Truth (<style>.truth.jsonl): every optimizer step's loss as the train step returned it (kind "step"), and each
printed report's values unrounded (kind "train" / "test" / "epoch").
"""

import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import optax
from absl import app, flags, logging
from flax import linen as nn
from flax import nnx

FLAGS = flags.FLAGS
flags.DEFINE_enum("style", "absl_epochs", ["absl_epochs", "nnx_steps"], "which example's printing")


def blobs(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, n)
    centres = np.random.default_rng(1).standard_normal((4, 128)) * 0.12
    return (centres[y] + rng.standard_normal((n, 128))).astype(np.float32), y.astype(np.int32)


class Record:
    def __init__(self, path):
        self.path = path
        path.unlink(missing_ok=True)

    def __call__(self, **obj):
        with self.path.open("a") as f:
            f.write(json.dumps({k: float(v) if hasattr(v, "dtype") else v for k, v in obj.items()}) + "\n")


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(512)(x))
        x = nn.relu(nn.Dense(512)(x))
        return nn.Dense(4)(x)


def absl_epochs(record, x, y, tx_, ty_):
    model = MLP()
    params = model.init(jax.random.key(0), x[:1])["params"]
    tx = optax.sgd(0.01, momentum=0.9)
    opt_state = tx.init(params)

    @jax.jit
    def apply_model(params, xb, yb):
        def loss_fn(p):
            logits = model.apply({"params": p}, xb)
            return optax.softmax_cross_entropy_with_integer_labels(logits, yb).mean(), logits

        (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        return grads, loss, jnp.mean(jnp.argmax(logits, -1) == yb)

    @jax.jit
    def update(params, opt_state, grads):
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state

    rng = jax.random.key(1)
    step = 0
    for epoch in range(1, 6):
        rng, perm_rng = jax.random.split(rng)
        perms = np.asarray(jax.random.permutation(perm_rng, len(x)))[: len(x) // 32 * 32].reshape(-1, 32)
        losses, accs = [], []
        for perm in perms:
            grads, loss, acc = apply_model(params, x[perm], y[perm])
            params, opt_state = update(params, opt_state, grads)
            step += 1
            record(kind="step", step=step, epoch=epoch, loss=loss)
            losses.append(loss)
            accs.append(acc)
        train_loss, train_accuracy = np.mean(losses), np.mean(accs)
        _, test_loss, test_accuracy = apply_model(params, tx_, ty_)
        record(
            kind="epoch",
            epoch=epoch,
            step=step,
            train_loss=train_loss,
            train_accuracy=train_accuracy * 100,
            test_loss=test_loss,
            test_accuracy=test_accuracy * 100,
        )
        logging.info(
            "epoch:% 3d, train_loss: %.4f, train_accuracy: %.2f, test_loss: %.4f, test_accuracy: %.2f"  # noqa: UP031 (the example's format)
            % (epoch, train_loss, train_accuracy * 100, test_loss, test_accuracy * 100)
        )


class NNXMLP(nnx.Module):
    def __init__(self, rngs):
        self.l1 = nnx.Linear(128, 512, rngs=rngs)
        self.l2 = nnx.Linear(512, 512, rngs=rngs)
        self.l3 = nnx.Linear(512, 4, rngs=rngs)

    def __call__(self, x):
        return self.l3(nnx.relu(self.l2(nnx.relu(self.l1(x)))))


def nnx_steps(record, x, y, tx_, ty_):
    model = NNXMLP(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adamw(1e-3, 0.9), wrt=nnx.Param)
    metrics = nnx.MultiMetric(accuracy=nnx.metrics.Accuracy(), loss=nnx.metrics.Average("loss"))

    def loss_fn(model, xb, yb):
        logits = model(xb)
        return optax.softmax_cross_entropy_with_integer_labels(logits, yb).mean(), logits

    @nnx.jit
    def train_step(model, optimizer, metrics, xb, yb):
        (loss, logits), grads = nnx.value_and_grad(loss_fn, has_aux=True)(model, xb, yb)
        metrics.update(loss=loss, logits=logits, labels=yb)
        optimizer.update(model, grads)
        return loss

    @nnx.jit
    def eval_step(model, metrics, xb, yb):
        loss, logits = loss_fn(model, xb, yb)
        metrics.update(loss=loss, logits=logits, labels=yb)

    history = {"train_loss": [], "train_accuracy": [], "test_loss": [], "test_accuracy": []}
    eval_every, train_steps = 25, 150
    rng = np.random.default_rng(2)
    for step in range(train_steps):
        idx = rng.integers(0, len(x), 32)
        loss = train_step(model, optimizer, metrics, x[idx], y[idx])
        record(kind="step", step=step, loss=loss)
        if step > 0 and (step % eval_every == 0 or step == train_steps - 1):
            for metric, value in metrics.compute().items():
                history[f"train_{metric}"].append(value)
            metrics.reset()
            for i in range(0, len(tx_), 64):
                eval_step(model, metrics, tx_[i : i + 64], ty_[i : i + 64])
            for metric, value in metrics.compute().items():
                history[f"test_{metric}"].append(value)
            metrics.reset()
            record(
                kind="train",
                step=step,
                loss=history["train_loss"][-1],
                accuracy=history["train_accuracy"][-1] * 100,
            )
            record(
                kind="test",
                step=step,
                loss=history["test_loss"][-1],
                accuracy=history["test_accuracy"][-1] * 100,
            )
            print(
                f"[train] step: {step}, loss: {history['train_loss'][-1]}, accuracy: {history['train_accuracy'][-1] * 100}"
            )
            print(
                f"[test] step: {step}, loss: {history['test_loss'][-1]}, accuracy: {history['test_accuracy'][-1] * 100}"
            )


def main(argv):
    record = Record(Path(__file__).resolve().parent / f"{FLAGS.style}.truth.jsonl")
    x, y = blobs(1600, 0)
    tx_, ty_ = blobs(256, 7)
    (absl_epochs if FLAGS.style == "absl_epochs" else nnx_steps)(record, x, y, tx_, ty_)


if __name__ == "__main__":
    app.run(main)
