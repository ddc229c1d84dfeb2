# scikit-learn MLPClassifier with verbose=True (the documented way to see training progress), on the bundled
# digits data set (load_digits ships with scikit-learn, no download). early_stopping=True holds out 10% as a
# validation set, so each iteration also prints a validation score. Record: the fitted estimator's own
# loss_curve_ and validation_scores_ (and best_loss_/n_iter_), dumped to record.json.
import json
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler

X, y = load_digits(return_X_y=True)
X = StandardScaler().fit_transform(X)
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=0)
clf = MLPClassifier(hidden_layer_sizes=(64,), max_iter=60, early_stopping=True, n_iter_no_change=100,
                    learning_rate_init=1e-3, batch_size=64, random_state=0, verbose=True)
clf.fit(X_tr, y_tr)
print("test accuracy:", clf.score(X_te, y_te))
json.dump({"loss_curve_": clf.loss_curve_, "validation_scores_": clf.validation_scores_,
           "best_validation_score_": clf.best_validation_score_, "n_iter_": clf.n_iter_, "t_": clf.t_,
           "learning_rate_init": clf.learning_rate_init}, open("record.json", "w"), indent=1)
