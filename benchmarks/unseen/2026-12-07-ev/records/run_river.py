"""Real CPU run of river's progressive validation, as river's docs show it, plus a replay record.

usage: python run_river.py {logloss,mae,accuracy} RECORD_DIR

stdout: exactly what river.evaluate.progressive_val_score prints (the log).
RECORD_DIR/<name>.metric_per_example.jsonl: a second pass of our own on a fresh clone of the same
model over the same (deterministic) stream, via river.evaluate.iter_progressive_val_score(step=1),
with the metric's unrounded value after every example.
"""
import json
import sys

from river import datasets, evaluate, linear_model, metrics, preprocessing, tree


def setup(which):
    if which == "logloss":
        # river docs (progressive_val_score docstring / getting started): Phishing + scaled LogisticRegression
        dataset = datasets.Phishing()  # 1,250 samples, shipped in the package (phishing.csv.gz)
        model = preprocessing.StandardScaler() | linear_model.LogisticRegression()
        metric = metrics.LogLoss()
        print_every = 50
    elif which == "mae":
        # river docs: TrumpApproval + scaled LinearRegression, MAE
        dataset = datasets.TrumpApproval()  # 1,001 samples, shipped (trump_approval.csv.gz)
        model = preprocessing.StandardScaler() | linear_model.LinearRegression()
        metric = metrics.MAE()
        print_every = 50
    elif which == "accuracy":
        # synthetic stream generated locally, 2,000 samples
        dataset = datasets.synth.Agrawal(classification_function=0, seed=42).take(2000)
        model = tree.HoeffdingTreeClassifier(grace_period=100)
        metric = metrics.Accuracy()
        print_every = 100
    else:
        raise SystemExit(f"unknown: {which}")
    return dataset, model, metric, print_every


def main():
    which, record_dir = sys.argv[1], sys.argv[2]

    # 1) the user's run: this is what goes into the log
    dataset, model, metric, print_every = setup(which)
    final = evaluate.progressive_val_score(
        dataset, model, metric, print_every=print_every, show_time=True, show_memory=True
    )

    # 2) the record: replay the same stream on a fresh, identical model; metric after every example
    dataset2, model2, metric2, _ = setup(which)
    name = type(metric2).__name__
    path = f"{record_dir}/{which}.metric_per_example.jsonl"
    with open(path, "w") as f:
        for state in evaluate.iter_progressive_val_score(dataset2, model2, metric2, step=1):
            f.write(json.dumps({"step": state["Step"], name: state[name].get(),
                                "printed_every": print_every}) + "\n")
    # consistency check between the printed run and the replay (goes to stderr -> also in the log
    # only if it fails)
    if final.get() != metric2.get():
        print(f"REPLAY MISMATCH {final.get()!r} != {metric2.get()!r}", file=sys.stderr)


if __name__ == "__main__":
    main()
