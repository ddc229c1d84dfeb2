"""Check the values each log prints against the run's records (TB scalars and hook JSONL) and print a table."""
import json
import re
import sys
from collections import defaultdict

import numpy as np

mode = sys.argv[1]
log = open(f"../pypots_{mode}.log", encoding="utf-8").read().splitlines()
pat = re.compile(r"Epoch (\d+) - training loss \(MAE\): ([0-9.]+)(?:, validation MSE: ([0-9.]+))?")
printed = {}
for i, line in enumerate(log, 1):
    m = pat.search(line)
    if m:
        printed[int(m.group(1))] = (i, float(m.group(2)), m.group(3) and float(m.group(3)))

hook = [json.loads(l) for l in open(f"{mode}_hook.jsonl")]
train = defaultdict(list)
for r in hook:
    if r["stage"] == "training":
        train[r["epoch"]].append(r["loss"])
val = [r["metric"] for r in hook if r["stage"] == "validating"]
n_val_batches = len(val) // len(train) if val else 0
tb = None
try:
    tb = json.load(open(f"{mode}_tensorboard_scalars.json"))
except FileNotFoundError:
    pass
nb = len(train[1])
ok = True
for ep, (line, tl, vl) in printed.items():
    hmean = float(np.mean(train[ep]))
    row = f"epoch {ep:3d} line {line:3d} printed {tl:.4f} hook-mean {hmean:.6f}"
    ok &= f"{hmean:.4f}" == f"{tl:.4f}"
    if tb:
        vals = [e["value"] for e in tb["training/loss"] if (ep - 1) * nb < e["step"] <= ep * nb]
        tmean = float(np.mean(vals))
        row += f" tb-mean {tmean:.6f} (steps {(ep-1)*nb+1}-{ep*nb})"
        ok &= f"{tmean:.4f}" == f"{tl:.4f}"
    if vl is not None:
        vm = float(np.mean(val[(ep - 1) * n_val_batches: ep * n_val_batches]))
        row += f" | val printed {vl:.4f} hook {vm:.6f}"
        ok &= f"{vm:.4f}" == f"{vl:.4f}"
    print(row)
print("batches/epoch", nb, "val batches/epoch", n_val_batches, "ALL MATCH" if ok else "MISMATCH")
