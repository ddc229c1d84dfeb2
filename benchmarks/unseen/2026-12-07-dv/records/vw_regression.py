"""Squared-loss online regression with vowpalwabbit.Workspace, one example at a time (pyvw quick-start style).

VW prints its own progressive-validation table to stderr. This script writes, after EVERY example, VW's own
accumulators (Workspace.get_sum_loss(), get_weighted_examples()) plus an independent per-example loss computed
here from the example's label and its progressive prediction (made before the update), to records/vw_squared_regression_record.jsonl.
"""
import json, random, sys, os
from vowpalwabbit import Workspace

HERE = os.path.dirname(os.path.abspath(__file__))
N = 3000
rng = random.Random(7)
lines = []
for i in range(N):
    x1, x2, x3 = rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0, 2)
    y = 3.0 * x1 - 2.0 * x2 + 0.5 * x3 + 1.0 + rng.gauss(0, 0.3)
    lines.append(f"{y:.4f} |f x1:{x1:.4f} x2:{x2:.4f} x3:{x3:.4f}")
with open(os.path.join(HERE, "vw_squared_regression_data.vw"), "w") as fh:
    fh.write("\n".join(lines) + "\n")

vw = Workspace("--loss_function squared -b 18")
out = open(os.path.join(HERE, "vw_squared_regression_record.jsonl"), "w")
own_sum = 0.0
for i, line in enumerate(lines, 1):
    ex = vw.example(line)
    vw.learn(ex)
    label = ex.get_simplelabel_label()
    pred = ex.get_simplelabel_prediction()
    vw.finish_example(ex)  # this is where VW accounts the loss and prints a table row
    own = (pred - label) ** 2
    own_sum += own
    out.write(json.dumps({"example": i, "label": label, "pred": pred, "own_loss": own, "own_sum_loss": own_sum,
                          "vw_sum_loss": vw.get_sum_loss(), "vw_weighted_examples": vw.get_weighted_examples()}) + "\n")
out.close()
vw.finish()
