"""pytorch-widedeep Trainer on a small synthetic tabular dataset (CPU).

usage: python -u run_widedeep.py MODE OUTDIR
  MODE = basic   : TabMlp, binary, no validation, 12 epochs
  MODE = val     : WideDeep(wide+TabMlp), val_split=0.25, StepLR(gamma=0.7) scheduler, ModelCheckpoint(save_best_only, verbose=1), 10 epochs
  MODE = early   : TabMlp regression, val_split=0.25, EarlyStopping(patience=2, verbose=1), up to 20 epochs
Writes OUTDIR/<MODE>_history.json (trainer.history), <MODE>_lr_history.json (trainer.lr_history)
and <MODE>_batches.jsonl (per-batch running loss read off the Trainer by a Callback).
"""
import json
import os
import sys

import numpy as np
import pandas as pd
import torch

from pytorch_widedeep import Trainer
from pytorch_widedeep.callbacks import Callback, EarlyStopping, LRHistory, ModelCheckpoint
from pytorch_widedeep.metrics import Accuracy
from pytorch_widedeep.models import TabMlp, Wide, WideDeep
from pytorch_widedeep.preprocessing import TabPreprocessor, WidePreprocessor


class BatchRecorder(Callback):
    """Writes, after every training batch, the running loss the Trainer holds
    (Trainer.train_running_loss / (batch + 1), the value _train_step returns
    and print_loss_and_metric shows)."""

    def __init__(self, path):
        super().__init__()
        self.path = path
        self.epoch = None
        self.f = open(path, "w")

    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch

    def on_batch_end(self, batch, logs=None):
        tr = self.trainer
        rec = {
            "epoch": self.epoch + 1,
            "batch_idx": batch,
            "running_loss": tr.train_running_loss / (batch + 1),
            "lr": [g["lr"] for g in tr.optimizer.param_groups]
            if hasattr(tr.optimizer, "param_groups")
            else None,
        }
        self.f.write(json.dumps(rec) + "\n")
        self.f.flush()

    def on_train_end(self, logs=None):
        self.f.close()


def make_data(n, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(
        {
            "color": rng.choice(["red", "green", "blue", "black"], n),
            "size": rng.choice(["s", "m", "l"], n),
            "x1": rng.normal(size=n),
            "x2": rng.normal(size=n),
            "x3": rng.uniform(0, 5, size=n),
        }
    )
    logit = 1.5 * df.x1 - df.x2 + (df.color == "red") * 1.0 - 0.3 * df.x3 + 0.5
    df["y_bin"] = (rng.uniform(size=n) < 1 / (1 + np.exp(-logit))).astype(int)
    df["y_reg"] = logit + rng.normal(scale=0.3, size=n)
    return df


def main():
    mode, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    torch.manual_seed(0)
    np.random.seed(0)
    cat_cols = ["color", "size"]
    cont_cols = ["x1", "x2", "x3"]

    if mode == "basic":
        df = make_data(320)
        tab_prep = TabPreprocessor(cat_embed_cols=cat_cols, continuous_cols=cont_cols)
        X_tab = tab_prep.fit_transform(df)
        tab_mlp = TabMlp(
            column_idx=tab_prep.column_idx,
            cat_embed_input=tab_prep.cat_embed_input,
            continuous_cols=cont_cols,
            mlp_hidden_dims=[32, 16],
        )
        model = WideDeep(deeptabular=tab_mlp)
        rec = BatchRecorder(os.path.join(outdir, f"{mode}_batches.jsonl"))
        trainer = Trainer(model, objective="binary", metrics=[Accuracy], callbacks=[rec], seed=1)
        trainer.fit(X_tab=X_tab, target=df["y_bin"].values, n_epochs=12, batch_size=64)

    elif mode == "val":
        df = make_data(512)
        wide_cols = ["color", "size"]
        wide_prep = WidePreprocessor(wide_cols=wide_cols)
        X_wide = wide_prep.fit_transform(df)
        tab_prep = TabPreprocessor(cat_embed_cols=cat_cols, continuous_cols=cont_cols)
        X_tab = tab_prep.fit_transform(df)
        wide = Wide(input_dim=np.unique(X_wide).shape[0], pred_dim=1)
        tab_mlp = TabMlp(
            column_idx=tab_prep.column_idx,
            cat_embed_input=tab_prep.cat_embed_input,
            continuous_cols=cont_cols,
            mlp_hidden_dims=[32, 16],
        )
        model = WideDeep(wide=wide, deeptabular=tab_mlp)
        optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
        rec = BatchRecorder(os.path.join(outdir, f"{mode}_batches.jsonl"))
        ckpt = ModelCheckpoint(
            filepath=os.path.join(outdir, "ckpt", "wd_model"),
            monitor="val_loss",
            save_best_only=True,
            verbose=1,
        )
        trainer = Trainer(
            model,
            objective="binary",
            metrics=[Accuracy],
            optimizers=optimizer,
            lr_schedulers=scheduler,
            callbacks=[rec, ckpt, LRHistory(n_epochs=10)],
            seed=1,
        )
        trainer.fit(
            X_wide=X_wide,
            X_tab=X_tab,
            target=df["y_bin"].values,
            n_epochs=10,
            batch_size=64,
            val_split=0.25,
        )

    elif mode == "early":
        df = make_data(320, seed=3)
        tab_prep = TabPreprocessor(cat_embed_cols=cat_cols, continuous_cols=cont_cols)
        X_tab = tab_prep.fit_transform(df)
        tab_mlp = TabMlp(
            column_idx=tab_prep.column_idx,
            cat_embed_input=tab_prep.cat_embed_input,
            continuous_cols=cont_cols,
            mlp_hidden_dims=[16, 8],
        )
        model = WideDeep(deeptabular=tab_mlp)
        optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
        rec = BatchRecorder(os.path.join(outdir, f"{mode}_batches.jsonl"))
        es = EarlyStopping(monitor="val_loss", patience=2, min_delta=0.0, verbose=1)
        trainer = Trainer(
            model, objective="regression", optimizers=optimizer, callbacks=[rec, es], seed=1
        )
        trainer.fit(
            X_tab=X_tab, target=df["y_reg"].values, n_epochs=20, batch_size=32, val_split=0.25
        )
    else:
        raise SystemExit("unknown mode " + mode)

    def conv(o):
        if isinstance(o, (np.floating, np.integer)):
            return o.item()
        if isinstance(o, np.ndarray):
            return o.tolist()
        return str(o)

    with open(os.path.join(outdir, f"{mode}_history.json"), "w") as f:
        json.dump(trainer.history, f, indent=1, default=conv)
    with open(os.path.join(outdir, f"{mode}_lr_history.json"), "w") as f:
        json.dump(getattr(trainer, "lr_history", {}), f, indent=1, default=conv)


if __name__ == "__main__":
    main()
