"""PyPOTS quick-start style runs on synthetic random-walk data (CPU).

usage: python run_pypots.py {saits_val|brits_noval|transformer_patience}

Besides the framework's own TensorBoard record (written when saving_path is set), a forward hook on the
wrapped nn.Module records every value the training loop collects: results["loss"] of each training batch
(the loop appends loss.item() to epoch_train_loss_collector) and results["metric"] of each validation
batch (appended to val_metric_collector). The hook prints nothing; it writes records/<mode>_hook.jsonl.
"""
import json
import sys

import numpy as np
from benchpots.datasets import preprocess_random_walk
from pygrinder import calc_missing_rate
from pypots.imputation import BRITS, SAITS, Transformer
from pypots.nn.functional import calc_mae
from pypots.optim import Adam

mode = sys.argv[1]
np.random.seed(0)
import torch

torch.manual_seed(0)

# a smaller data set for the (slower, recurrent) BRITS run
n_samples_each_class = 60 if mode == "brits_noval" else 100
data = preprocess_random_walk(
    n_steps=24, n_features=6, n_classes=2, n_samples_each_class=n_samples_each_class, missing_rate=0.1, random_state=0
)
train_set = {"X": data["train_X"]}
val_set = {"X": data["val_X"], "X_ori": data["val_X_ori"]}
test_set = {"X": data["test_X"]}
print(f"train_X missing rate: {calc_missing_rate(data['train_X']):.3f}")

if mode == "saits_val":
    model = SAITS(
        n_steps=24, n_features=6, n_layers=2, d_model=32, n_heads=2, d_k=16, d_v=16, d_ffn=32,
        dropout=0.1, batch_size=32, epochs=12,
        saving_path="runs/saits_val",  # default model_saving_strategy="best"
    )
    fit_kwargs = dict(train_set=train_set, val_set=val_set)
elif mode == "brits_noval":
    model = BRITS(n_steps=24, n_features=6, rnn_hidden_size=16, batch_size=32, epochs=12)
    fit_kwargs = dict(train_set=train_set)
elif mode == "transformer_patience":
    model = Transformer(
        n_steps=24, n_features=6, n_layers=1, d_model=32, n_heads=2, d_k=16, d_v=16, d_ffn=32,
        dropout=0.1, batch_size=32, epochs=40, patience=3,
        optimizer=Adam(lr=1e-2),
        saving_path="runs/transformer_patience", model_saving_strategy="better",
    )
    fit_kwargs = dict(train_set=train_set, val_set=val_set)
else:
    raise SystemExit(f"unknown mode {mode}")

# ---- record hook (prints nothing) ----
records = []
counters = {"train_step": 0, "val_batch": 0}


def hook(module, args, output):
    if not isinstance(output, dict):
        return
    if module.training and "loss" in output:
        counters["train_step"] += 1
        rec = {"stage": "training", "training_step": counters["train_step"], "loss": float(output["loss"].sum().item())}
        for k in ("ORT_loss", "MIT_loss"):
            if k in output:
                rec[k] = float(torch.as_tensor(output[k]).sum().item())
        records.append(rec)
    elif (not module.training) and "metric" in output:
        counters["val_batch"] += 1
        records.append({"stage": "validating", "val_batch": counters["val_batch"], "metric": float(output["metric"].sum().item())})


model.model.register_forward_hook(hook)

model.fit(**fit_kwargs)

n_train = len(train_set["X"])
n_batches = -(-n_train // model.batch_size)
with open(f"{mode}_hook.jsonl", "w") as f:
    for r in records:
        if r["stage"] == "training":
            r["epoch"] = (r["training_step"] - 1) // n_batches + 1
        f.write(json.dumps(r) + "\n")

results = model.predict(test_set)
imputation = results["imputation"]
indicating_mask = np.isnan(test_set["X"]) ^ np.isnan(data["test_X_ori"])
mae = calc_mae(imputation, np.nan_to_num(data["test_X_ori"]), indicating_mask)
print(f"Testing mean absolute error: {mae:.4f}")
