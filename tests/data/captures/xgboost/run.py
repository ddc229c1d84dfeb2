# XGBoost native training API as in its docs' "Python Package Introduction" (xgb.train with evals and
# evals_result), binary classification on scikit-learn's bundled breast-cancer data (no download).
# Record: the evals_result dict that xgb.train fills (every round, every eval set, every metric), dumped to JSON.
import json
import xgboost as xgb
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split

X, y = load_breast_cancer(return_X_y=True)
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.25, random_state=0)
dtrain = xgb.DMatrix(X_tr, label=y_tr)
dvalid = xgb.DMatrix(X_va, label=y_va)
params = {"objective": "binary:logistic", "eval_metric": ["logloss", "error"], "max_depth": 3, "eta": 0.1,
          "nthread": 2, "seed": 0}
evals_result = {}
bst = xgb.train(params, dtrain, num_boost_round=100, evals=[(dtrain, "train"), (dvalid, "eval")],
                evals_result=evals_result, verbose_eval=10)
json.dump(evals_result, open("evals_result.json", "w"), indent=1)
