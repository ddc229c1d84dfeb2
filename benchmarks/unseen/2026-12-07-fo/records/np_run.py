"""NeuralProphet quick-start style run on a synthetic daily series.

usage: python np_run.py MODE RECORD_PREFIX
  MODE = val   : NeuralProphet(epochs=15), m.split_df(valid_p=0.2), m.fit(train, freq="D", validation_df=val)
  MODE = lr    : NeuralProphet(epochs=15, learning_rate=0.05, batch_size=64), m.fit(df, freq="D")
The DataFrame `metrics` that fit() returns is dumped to RECORD_PREFIX.csv and RECORD_PREFIX.json.
"""
import sys
import numpy as np
import pandas as pd
from neuralprophet import NeuralProphet, set_random_seed

mode, prefix = sys.argv[1], sys.argv[2]
set_random_seed(0)
rng = np.random.default_rng(0)
n = 730
ds = pd.date_range("2022-01-01", periods=n, freq="D")
t = np.arange(n)
y = 10 + 0.01 * t + 2.0 * np.sin(2 * np.pi * t / 7) + 3.0 * np.sin(2 * np.pi * t / 365.25) + rng.normal(0, 0.5, n)
df = pd.DataFrame({"ds": ds, "y": y})

if mode == "val":
    m = NeuralProphet(epochs=15)
    df_train, df_val = m.split_df(df, freq="D", valid_p=0.2)
    metrics = m.fit(df_train, freq="D", validation_df=df_val)
elif mode == "lr":
    m = NeuralProphet(epochs=15, learning_rate=0.05, batch_size=64)
    metrics = m.fit(df, freq="D")
else:
    raise SystemExit("unknown mode " + mode)

metrics.to_csv(prefix + ".csv", index=True, float_format="%.10g")
metrics.to_json(prefix + ".json", orient="records", double_precision=15, indent=1)
