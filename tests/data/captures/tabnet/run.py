# pytorch-tabnet TabNetClassifier.fit on a synthetic sklearn dataset, CPU, verbose=1 (its epoch lines).
import json
import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import train_test_split
from pytorch_tabnet.tab_model import TabNetClassifier

X, y = make_classification(n_samples=2000, n_features=12, n_informative=6, random_state=0)
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.25, random_state=0)
clf = TabNetClassifier(seed=0, verbose=1, device_name="cpu")
clf.fit(X_tr, y_tr, eval_set=[(X_tr, y_tr), (X_va, y_va)], eval_name=["train", "valid"],
        eval_metric=["auc", "accuracy"], max_epochs=15, patience=0, batch_size=256, virtual_batch_size=128)
# pytorch-tabnet's own History callback (clf.history), dumped unchanged to JSON
json.dump(clf.history.history, open("history.json", "w"), indent=1)
print("history keys:", list(clf.history.history))
