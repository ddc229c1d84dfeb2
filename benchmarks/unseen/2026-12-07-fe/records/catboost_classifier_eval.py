"""CatBoostClassifier quick start: fit with an eval_set, default learning rate (auto), verbose=10."""
from catboost import CatBoostClassifier

from common import classification_data, dump_record

X, y = classification_data()
X_train, y_train = X[:5000], y[:5000]
X_val, y_val = X[5000:], y[5000:]

model = CatBoostClassifier(iterations=300, depth=6, random_seed=42)
model.fit(X_train, y_train, eval_set=(X_val, y_val), verbose=10)
print("validation accuracy:", (model.predict(X_val) == y_val).mean())
dump_record(model, "catboost_classifier_eval")
