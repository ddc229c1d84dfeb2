"""Shared by the run scripts: synthetic survival data from pycox.simulations (no network here), record dump."""
import json
import numpy as np
import pandas as pd
from pycox import simulations


def sim_data(n=6000, seed=1234):
    np.random.seed(seed)
    sim = simulations.SimStudyNonLinearPH()
    df = sim.dict2df(sim.simulate(n), add_true=False)
    df_test = df.sample(frac=0.2, random_state=seed)
    df_train = df.drop(df_test.index)
    df_val = df_train.sample(frac=0.2, random_state=seed)
    df_train = df_train.drop(df_val.index)
    cols = [c for c in df.columns if c.startswith('x')]
    get_x = lambda d: d[cols].values.astype('float32')
    return df_train, df_val, df_test, get_x


def dump_record(log, stem):
    """The framework's own record: the TrainingLogger returned by fit -> to_pandas()."""
    rec = log.to_pandas()
    rec.index.name = 'epoch'
    rec.to_csv(f'{stem}_history.csv', float_format='%.17g')
    with open(f'{stem}_history.json', 'w') as f:
        json.dump({'epochs': [int(e) for e in log.epochs],
                   'columns': list(rec.columns),
                   'rows': [{'epoch': int(i), **{c: (None if pd.isna(v) else float(v)) for c, v in r.items()}}
                            for i, r in rec.iterrows()]}, f, indent=1)
