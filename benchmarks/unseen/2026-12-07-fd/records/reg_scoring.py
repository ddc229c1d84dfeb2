# NeuralNetRegressor with extra scoring callbacks (r2 on valid, MAE on train) and a StepLR scheduler.
import numpy as np
import torch
from torch import nn
from sklearn.datasets import make_regression
from skorch import NeuralNetRegressor
from skorch.callbacks import EpochScoring, LRScheduler
from torch.optim.lr_scheduler import StepLR

torch.manual_seed(2)
X, y = make_regression(1000, 20, n_informative=10, noise=5.0, random_state=2)
X = X.astype(np.float32)
y = (y / 100).astype(np.float32).reshape(-1, 1)


class RegressorModule(nn.Module):
    def __init__(self, num_units=32):
        super().__init__()
        self.dense0 = nn.Linear(20, num_units)
        self.nonlin = nn.ReLU()
        self.dense1 = nn.Linear(num_units, 16)
        self.output = nn.Linear(16, 1)

    def forward(self, X, **kwargs):
        X = self.nonlin(self.dense0(X))
        X = self.nonlin(self.dense1(X))
        return self.output(X)


net = NeuralNetRegressor(
    RegressorModule,
    max_epochs=25,
    lr=0.05,
    optimizer__momentum=0.9,
    batch_size=64,
    iterator_train__shuffle=True,
    callbacks=[
        ('r2', EpochScoring('r2', lower_is_better=False)),
        ('train_mae', EpochScoring('neg_mean_absolute_error', on_train=True, name='train_mae')),
        ('lr_scheduler', LRScheduler(policy=StepLR, step_size=8, gamma=0.3)),
    ],
    verbose=1,
)
net.fit(X, y)
net.history.to_file('history_reg_scoring.json')
print('r2 on all data:', net.score(X, y) if hasattr(net, 'score') else None)
