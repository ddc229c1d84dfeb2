"""CatBoostRegressor with a user-defined Python objective (squared error, as in CatBoost's docs) and eval_metric RMSE, verbose=25."""
import numpy as np
from catboost import CatBoostRegressor

from common import regression_data, dump_record


class SquaredErrorObjective(object):
    """User-defined loss: 0.5 * (target - approx)^2; CatBoost asks for the first and second derivatives
    (of the quantity it MAXIMIZES, so the negative gradient)."""

    def calc_ders_range(self, approxes, targets, weights):
        assert len(approxes) == len(targets)
        result = []
        for index in range(len(targets)):
            der1 = targets[index] - approxes[index]
            der2 = -1.0
            if weights is not None:
                der1 *= weights[index]
                der2 *= weights[index]
            result.append((der1, der2))
        return result


X, y = regression_data()
X_train, y_train = X[:3200], y[:3200]
X_val, y_val = X[3200:], y[3200:]

model = CatBoostRegressor(
    iterations=500,
    learning_rate=0.05,
    depth=4,
    loss_function=SquaredErrorObjective(),
    eval_metric="RMSE",
    random_seed=7,
)
model.fit(X_train, y_train, eval_set=(X_val, y_val), verbose=25)
pred = model.predict(X_val)
print("validation RMSE:", float(np.sqrt(np.mean((pred - y_val) ** 2))))
dump_record(model, "catboost_regressor_custom")
