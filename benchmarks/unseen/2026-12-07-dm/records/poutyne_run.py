"""Tiny synthetic classification run with Poutyne, as in its README quick start.

usage: python poutyne_run.py MODE
  fit_default        Model.fit on tensors, default progress output, validation, CSVLogger, then evaluate
  fitgen_checkpoint  Model.fit_generator on DataLoaders, progress_options (no colour, no bar),
                     ModelCheckpoint(verbose=True), CSVLogger(batch_granularity=True)
  fit_epochs_only    Model.fit without validation, progress_options show_every_n_train_steps='none',
                     StepLR scheduler, ModelCheckpoint(period=5, verbose=True), CSVLogger
"""
import json
import sys

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from poutyne import CSVLogger, Model, ModelCheckpoint, StepLR

mode = sys.argv[1]
torch.manual_seed(0)
num_features, num_classes, hidden = 20, 5, 32
n_train, n_valid = 256, 64
w = torch.randn(num_features, num_classes)
x_train = torch.randn(n_train, num_features)
y_train = (x_train @ w + 0.5 * torch.randn(n_train, num_classes)).argmax(1)
x_valid = torch.randn(n_valid, num_features)
y_valid = (x_valid @ w + 0.5 * torch.randn(n_valid, num_classes)).argmax(1)

network = nn.Sequential(nn.Linear(num_features, hidden), nn.ReLU(), nn.Linear(hidden, num_classes))
model = Model(network, 'sgd', 'cross_entropy', batch_metrics=['accuracy'], epoch_metrics=['f1'], device=torch.device('cpu'))

if mode == 'fit_default':
    history = model.fit(
        x_train, y_train,
        validation_data=(x_valid, y_valid),
        epochs=12, batch_size=32,
        callbacks=[CSVLogger('poutyne_fit_default.csv')],
    )
    test = model.evaluate(x_valid, y_valid, batch_size=32, return_dict_format=True)
    extra = {'evaluate': test}
elif mode == 'fitgen_checkpoint':
    train_loader = DataLoader(TensorDataset(x_train, y_train), batch_size=32, shuffle=True)
    valid_loader = DataLoader(TensorDataset(x_valid, y_valid), batch_size=32)
    history = model.fit_generator(
        train_loader, valid_loader, epochs=15,
        progress_options=dict(coloring=False, progress_bar=False),
        callbacks=[
            CSVLogger('poutyne_fitgen_checkpoint.csv', batch_granularity=True),
            ModelCheckpoint('ckpt/poutyne_best_epoch_{epoch}.ckpt', monitor='val_loss', mode='min',
                            save_best_only=True, keep_only_last_best=True, verbose=True),
        ],
    )
    extra = {}
elif mode == 'fit_epochs_only':
    history = model.fit(
        x_train, y_train,
        epochs=20, batch_size=64,
        progress_options=dict(show_every_n_train_steps='none'),
        callbacks=[
            StepLR(step_size=5, gamma=0.5),
            CSVLogger('poutyne_fit_epochs_only.csv'),
            ModelCheckpoint('ckpt/poutyne_epoch_{epoch}.ckpt', period=5, verbose=True),
        ],
    )
    extra = {}
else:
    raise SystemExit(f'unknown mode {mode}')

with open(f'poutyne_{mode}_history.json', 'w') as f:
    json.dump({'history': history, **extra}, f, indent=1, default=float)
