# -*- coding: utf-8 -*-
"""PyOD DeepSVDD on synthetic data, in the style of pyod's examples/deepsvdd_example.py."""
import sys
from pyod.models.deep_svdd import DeepSVDD
from pyod.utils.data import generate_data, evaluate_print

from record_hooks import DeepSVDDRecorder

if __name__ == "__main__":
    contamination = 0.1  # percentage of outliers
    n_train = 5000  # number of training points
    n_test = 1000  # number of testing points
    n_features = 50  # number of features

    # Generate sample data
    X_train, X_test, y_train, y_test = \
        generate_data(n_train=n_train,
                      n_test=n_test,
                      n_features=n_features,
                      contamination=contamination,
                      random_state=42)

    # train DeepSVDD detector
    clf_name = 'DeepSVDD'
    epochs = 15
    clf = DeepSVDD(n_features=n_features, use_ae=False, epochs=epochs,
                   contamination=contamination, random_state=10)
    rec = DeepSVDDRecorder(sys.argv[1], epochs)
    clf.fit(X_train)
    rec.close()

    y_train_pred = clf.labels_
    y_train_scores = clf.decision_scores_
    y_test_pred = clf.predict(X_test)
    y_test_scores = clf.decision_function(X_test)

    print("\nOn Training Data:")
    evaluate_print(clf_name, y_train, y_train_scores)
    print("\nOn Test Data:")
    evaluate_print(clf_name, y_test, y_test_scores)
