# NeuralNetClassifier with an explicit validation split, Checkpoint, EarlyStopping and load-best at the end.
import numpy as np
import torch
from torch import nn
from sklearn.datasets import make_classification
from skorch import NeuralNetClassifier
from skorch.dataset import ValidSplit
from skorch.callbacks import Callback, Checkpoint, EarlyStopping

torch.manual_seed(1)
# few samples, many features, label noise: the net overfits and early stopping ends the run
X, y = make_classification(600, 40, n_informative=8, flip_y=0.1, random_state=1)
X = X.astype(np.float32)
y = y.astype(np.int64)


class MLP(nn.Module):
    def __init__(self, num_units=128):
        super().__init__()
        self.seq = nn.Sequential(
            nn.Linear(40, num_units), nn.ReLU(),
            nn.Linear(num_units, num_units), nn.ReLU(),
            nn.Linear(num_units, 2),
        )

    def forward(self, X):
        return self.seq(X)


class DumpHistory(Callback):
    # Checkpoint(load_best=True) reloads the history saved with the best checkpoint at train end,
    # so the full history is written here first (this callback runs before Checkpoint's on_train_end).
    def on_train_end(self, net, **kwargs):
        net.history.to_file('history_clf_checkpoint.json')


net = NeuralNetClassifier(
    MLP,
    criterion=nn.CrossEntropyLoss,
    optimizer=torch.optim.Adam,
    lr=0.0003,
    batch_size=32,
    max_epochs=60,
    train_split=ValidSplit(0.25, stratified=True, random_state=0),
    iterator_train__shuffle=True,
    callbacks=[
        ('dump_history', DumpHistory()),
        Checkpoint(dirname='ckpt_clf', monitor='valid_loss_best', load_best=True, sink=print),
        EarlyStopping(monitor='valid_loss', patience=6),
    ],
    verbose=1,
)
net.fit(X, y)
net.history.to_file('history_clf_checkpoint_after_load_best.json')
print('accuracy on all data:', (net.predict(X) == y).mean())
