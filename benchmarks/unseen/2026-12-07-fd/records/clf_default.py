# skorch quick start: NeuralNetClassifier on synthetic make_classification data, default callbacks, verbose=1.
import numpy as np
import torch
from torch import nn
from sklearn.datasets import make_classification
from skorch import NeuralNetClassifier

torch.manual_seed(0)
X, y = make_classification(1000, 20, n_informative=10, random_state=0)
X = X.astype(np.float32)
y = y.astype(np.int64)


class MyModule(nn.Module):
    def __init__(self, num_units=10, nonlin=nn.ReLU()):
        super().__init__()
        self.dense0 = nn.Linear(20, num_units)
        self.nonlin = nonlin
        self.dropout = nn.Dropout(0.5)
        self.dense1 = nn.Linear(num_units, num_units)
        self.output = nn.Linear(num_units, 2)

    def forward(self, X, **kwargs):
        X = self.nonlin(self.dense0(X))
        X = self.dropout(X)
        X = self.nonlin(self.dense1(X))
        X = self.output(X)
        return X


net = NeuralNetClassifier(
    MyModule,
    criterion=nn.CrossEntropyLoss,
    max_epochs=20,
    lr=0.1,
    iterator_train__shuffle=True,
    verbose=1,
)
net.fit(X, y)
net.history.to_file('history_clf_default.json')
y_proba = net.predict_proba(X[:5])
print(y_proba)
