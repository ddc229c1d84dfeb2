# -*- coding: utf-8 -*-
"""PyOD AutoEncoder on synthetic data, in the style of pyod's examples/auto_encoder_example.py."""
import sys
from pyod.models.auto_encoder import AutoEncoder
from pyod.utils.data import generate_data, evaluate_print

from record_hooks import attach_base_dl_recorder

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

    # train AutoEncoder detector
    clf_name = 'AutoEncoder'
    clf = AutoEncoder(epoch_num=20, contamination=contamination, verbose=2)
    fh = attach_base_dl_recorder(clf, sys.argv[1])
    clf.fit(X_train)
    fh.close()

    # get the prediction labels and outlier scores of the training data
    y_train_pred = clf.labels_  # binary labels (0: inliers, 1: outliers)
    y_train_scores = clf.decision_scores_  # raw outlier scores

    # get the prediction on the test data
    y_test_pred = clf.predict(X_test)  # outlier labels (0 or 1)
    y_test_scores = clf.decision_function(X_test)  # outlier scores

    # evaluate and print the results
    print("\nOn Training Data:")
    evaluate_print(clf_name, y_train, y_train_scores)
    print("\nOn Test Data:")
    evaluate_print(clf_name, y_test, y_test_scores)
