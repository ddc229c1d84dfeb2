"""CatBoostClassifier with early stopping on the eval set (early_stopping_rounds), extra metrics, verbose=5."""
from catboost import CatBoostClassifier, Pool

from common import classification_data, dump_record

X, y = classification_data(n=3000, d=20, seed=3, noise=2.5)
train = Pool(X[:2400], y[:2400])
val = Pool(X[2400:], y[2400:])

model = CatBoostClassifier(
    iterations=2000,
    learning_rate=0.3,
    depth=6,
    custom_metric=["AUC", "Accuracy"],
    random_seed=0,
)
model.fit(train, eval_set=val, early_stopping_rounds=20, verbose=5)
print("best iteration:", model.get_best_iteration(), "trees kept:", model.tree_count_)
dump_record(model, "catboost_classifier_early_stopping")
