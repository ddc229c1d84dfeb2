# LightGBM native API as in its Python quick start (lgb.Dataset, lgb.train with valid_sets and the
# log_evaluation / record_evaluation callbacks), binary classification on scikit-learn's bundled breast-cancer
# data (no download). Record: the dict filled by lgb.record_evaluation (every iteration), dumped to JSON.
import json
import lightgbm as lgb
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split

X, y = load_breast_cancer(return_X_y=True)
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.25, random_state=0)
train_data = lgb.Dataset(X_tr, label=y_tr)
valid_data = lgb.Dataset(X_va, label=y_va, reference=train_data)
params = {"objective": "binary", "metric": ["binary_logloss", "auc"], "num_leaves": 15, "learning_rate": 0.05,
          "num_threads": 2, "seed": 0}
evals_result = {}
bst = lgb.train(params, train_data, num_boost_round=120, valid_sets=[train_data, valid_data],
                valid_names=["training", "valid_1"],
                callbacks=[lgb.log_evaluation(period=10), lgb.record_evaluation(evals_result)])
json.dump(evals_result, open("evals_result.json", "w"), indent=1)
