"""PyTorch Tabular documented quick start on a small synthetic DataFrame (CPU).

usage: python run_pttabular.py MODE OUTDIR
  MODE = rich | simple | none   (TrainerConfig.progress_bar)
       | tqdm  (progress_bar="simple" plus Lightning's TQDMProgressBar(refresh_rate=5) passed to fit():
                under Lightning 2.6 "simple" alone still gets the RichProgressBar, since Lightning picks
                RichProgressBar as its default whenever rich is installed)
The framework's own record: a Lightning callback that dumps trainer.callback_metrics
(what self.log() holds, the same dict the progress bar reads from) after every training
batch and after every validation epoch to OUTDIR/metrics_MODE.jsonl, plus Lightning's
CSVLogger (set as the TabularModel's experiment logger) in OUTDIR/csv_MODE/.
"""
import json
import sys

import numpy as np
import pandas as pd
import pytorch_lightning as pl
import torch
from pytorch_lightning.loggers import CSVLogger

from pytorch_tabular import TabularModel
from pytorch_tabular.config import DataConfig, OptimizerConfig, TrainerConfig
from pytorch_tabular.models import CategoryEmbeddingModelConfig

mode = sys.argv[1]
outdir = sys.argv[2]
torch.set_num_threads(1)


class MetricsDump(pl.Callback):
    def __init__(self, path):
        self.f = open(path, "w")

    def _dump(self, kind, trainer, **extra):
        rec = {"kind": kind, "epoch": trainer.current_epoch, "global_step": trainer.global_step, **extra}
        rec["callback_metrics"] = {k: float(v) for k, v in trainer.callback_metrics.items()}
        rec["progress_bar_metrics"] = {k: float(v) for k, v in trainer.progress_bar_metrics.items()}
        self.f.write(json.dumps(rec) + "\n")
        self.f.flush()

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        loss = outputs["loss"] if isinstance(outputs, dict) else outputs
        self._dump("train_batch", trainer, batch_idx=batch_idx, step_loss=float(loss))

    def on_validation_epoch_end(self, trainer, pl_module):
        if not trainer.sanity_checking:
            self._dump("validation_epoch", trainer)

    def on_train_epoch_end(self, trainer, pl_module):
        self._dump("train_epoch_end", trainer)


rng = np.random.default_rng(0)
n = 2000
df = pd.DataFrame(
    {
        "num_a": rng.normal(size=n),
        "num_b": rng.normal(size=n),
        "num_c": rng.uniform(-1, 1, size=n),
        "cat_a": rng.choice(["x", "y", "z"], size=n),
        "cat_b": rng.choice(["p", "q"], size=n),
    }
)
logit = 1.5 * df.num_a - df.num_b + 0.8 * (df.cat_a == "x") + 0.5 * rng.normal(size=n)
df["target"] = (logit > 0).astype(int)
df_train, df_val = df.iloc[:1600].reset_index(drop=True), df.iloc[1600:].reset_index(drop=True)

data_config = DataConfig(
    target=["target"],
    continuous_cols=["num_a", "num_b", "num_c"],
    categorical_cols=["cat_a", "cat_b"],
)
trainer_config = TrainerConfig(
    max_epochs=5,
    batch_size=64,
    accelerator="cpu",
    progress_bar="simple" if mode == "tqdm" else mode,
    trainer_kwargs={"log_every_n_steps": 1},
)
optimizer_config = OptimizerConfig()
model_config = CategoryEmbeddingModelConfig(task="classification", layers="32-16", learning_rate=1e-3)

tabular_model = TabularModel(
    data_config=data_config,
    model_config=model_config,
    optimizer_config=optimizer_config,
    trainer_config=trainer_config,
)
# experiment tracking is off in the quick start; give Lightning a CSVLogger as the run's own record
tabular_model.logger = CSVLogger(save_dir=outdir, name=f"csv_{mode}", version=0)
callbacks = [MetricsDump(f"{outdir}/metrics_{mode}.jsonl")]
if mode == "tqdm":
    callbacks.append(pl.callbacks.TQDMProgressBar(refresh_rate=5))
tabular_model.fit(train=df_train, validation=df_val, callbacks=callbacks)
result = tabular_model.evaluate(df_val)
json.dump(result, open(f"{outdir}/evaluate_{mode}.json", "w"), indent=1)
