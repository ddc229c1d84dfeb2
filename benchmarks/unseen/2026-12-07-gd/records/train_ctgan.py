"""Fit CTGAN / TVAE (PyPI ctgan) on a tiny synthetic table, as the README quick start does, and dump
the model's own loss_values DataFrame to CSV.

usage: python train_ctgan.py {ctgan,tvae} EPOCHS BATCH_SIZE PAC OUT_CSV [ROWS]
"""
import sys

import numpy as np
import pandas as pd
import torch

from ctgan import CTGAN, TVAE

model_name, epochs, batch_size, pac, out_csv = sys.argv[1:6]
rows = int(sys.argv[6]) if len(sys.argv) > 6 else 1000
epochs, batch_size, pac = int(epochs), int(batch_size), int(pac)

np.random.seed(0)
torch.manual_seed(0)
rng = np.random.default_rng(0)
df = pd.DataFrame({
    'age': rng.normal(40, 12, rows).round().clip(18, 90),
    'hours_per_week': rng.normal(40, 8, rows).round(1),
    'income': rng.lognormal(10, 0.5, rows).round(2),
    'workclass': rng.choice(['Private', 'Self-emp', 'Gov', 'Unemployed'], rows, p=[0.6, 0.15, 0.15, 0.1]),
    'sex': rng.choice(['Male', 'Female'], rows),
    'label': rng.choice(['<=50K', '>50K'], rows, p=[0.75, 0.25]),
})
discrete_columns = ['workclass', 'sex', 'label']

if model_name == 'ctgan':
    model = CTGAN(epochs=epochs, batch_size=batch_size, pac=pac, verbose=True)
else:
    model = TVAE(epochs=epochs, batch_size=batch_size, verbose=True)
model.fit(df, discrete_columns)

model.loss_values.to_csv(out_csv, index=False, float_format='%.17g')
synthetic = model.sample(5)
