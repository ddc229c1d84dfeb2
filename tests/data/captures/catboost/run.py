# CatBoost CatBoostClassifier.fit with an eval set and verbose output, as in CatBoost's Python quickstart /
# "Training with an evaluation dataset" docs. Bundled scikit-learn breast-cancer data (no download).
# Record: model.get_evals_result() (every iteration, learn and validation metrics) dumped to JSON; CatBoost's own
# train_dir files (catboost_info/learn_error.tsv, test_error.tsv, time_left.tsv) are kept as well.
import json
from catboost import CatBoostClassifier
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split

X, y = load_breast_cancer(return_X_y=True)
X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.25, random_state=0)
model = CatBoostClassifier(iterations=200, learning_rate=0.1, depth=4, loss_function="Logloss",
                           custom_metric=["Accuracy"], random_seed=0, thread_count=2, train_dir="catboost_info")
model.fit(X_tr, y_tr, eval_set=(X_va, y_va), verbose=20)
json.dump(model.get_evals_result(), open("evals_result.json", "w"), indent=1)
print("best iteration:", model.get_best_iteration(), "best score:", model.get_best_score())
