"""NeuralForecast quick start (NeuralForecast(models=[...], freq=...).fit(df, val_size=...)) on a
synthetic monthly panel (no download), CPU, default verbosity (Lightning's progress bar).

usage: python run_neuralforecast.py MODEL OUTDIR      MODEL = nhits | mlp | lstm
The framework's own record: model.train_trajectories / model.valid_trajectories (lists of
(global_step, loss) appended in training_step / on_validation_epoch_end) dumped to
OUTDIR/trajectories_MODEL.json, plus Lightning's CSVLogger passed through the model's trainer
kwargs (logger=CSVLogger(...), log_every_n_steps=1) in OUTDIR/csv_MODEL/.

nhits: 20 series, batch_size=2 -> 10 training batches per Lightning epoch, max_steps=100,
       val_check_steps=20; Lightning's TQDMProgressBar(refresh_rate=5) passed through the trainer
       kwargs so the bar is redrawn every 5 batches (20 training updates instead of 100).
mlp / lstm: 8 series, default batch_size=32 -> 1 batch per epoch, max_steps=30, val_check_steps=10,
       Lightning's default progress bar (refresh every batch).
"""
import json
import sys

import numpy as np
import pandas as pd
import torch
from pytorch_lightning.callbacks import TQDMProgressBar
from pytorch_lightning.loggers import CSVLogger

from neuralforecast import NeuralForecast
from neuralforecast.models import LSTM, MLP, NHITS

which = sys.argv[1]
outdir = sys.argv[2]
torch.set_num_threads(1)

# synthetic monthly panel: N_SERIES series of 120 months, trend + yearly seasonality + noise
N_SERIES = 20 if which == "nhits" else 8
rng = np.random.default_rng(0)
ds = pd.date_range("2010-01-31", periods=120, freq="ME")
frames = []
for i in range(N_SERIES):
    t = np.arange(len(ds))
    y = 100 + 5 * i + 0.3 * t + 10 * np.sin(2 * np.pi * t / 12 + i) + rng.normal(0, 2, len(t))
    frames.append(pd.DataFrame({"unique_id": f"s{i}", "ds": ds, "y": y}))
Y_df = pd.concat(frames, ignore_index=True)

common = dict(
    h=12,
    input_size=24,
    random_seed=1,
    accelerator="cpu",
    logger=CSVLogger(save_dir=outdir, name=f"csv_{which}", version=0),
    log_every_n_steps=1,
)
if which == "nhits":
    model = NHITS(max_steps=100, val_check_steps=20, batch_size=2,
                  callbacks=[TQDMProgressBar(refresh_rate=5)], **common)
elif which == "mlp":
    model = MLP(num_layers=2, hidden_size=64, max_steps=30, val_check_steps=10, **common)
elif which == "lstm":
    model = LSTM(encoder_hidden_size=32, decoder_hidden_size=32, max_steps=30, val_check_steps=10, **common)
else:
    raise SystemExit(f"unknown model {which}")

nf = NeuralForecast(models=[model], freq="ME")
nf.fit(df=Y_df, val_size=24)

m = nf.models[0]
json.dump(
    {
        "model": type(m).__name__,
        "train_trajectories": [[int(s), float(v)] for s, v in m.train_trajectories],
        "valid_trajectories": [[int(s), float(v)] for s, v in m.valid_trajectories],
        "metrics": {k: float(v) for k, v in m.metrics.items()},
    },
    open(f"{outdir}/trajectories_{which}.json", "w"),
    indent=1,
)
