"""Small synthetic 'neural recording': 30 noisy neurons driven by a 1-d position (random walk on a track)."""
import json
import numpy as np


def make_data(seed=0, T=2000, N=30):
    rng = np.random.default_rng(seed)
    pos = np.clip(np.cumsum(rng.normal(scale=0.02, size=T)), -1, 1)      # 1-d behaviour
    centers = np.linspace(-1, 1, N)                                      # place-cell-like tuning
    rate = np.exp(-((pos[:, None] - centers[None, :]) ** 2) / (2 * 0.15 ** 2))
    neural = rate + 0.2 * rng.normal(size=(T, N))
    return neural.astype(np.float32), pos[:, None].astype(np.float32)


def dump_record(cebra_model, path, **extra):
    """Write the fitted model's own training record (CEBRA.state_dict_) to JSON."""
    sd = cebra_model.state_dict_
    record = {
        "cebra_version": sd["version"],
        "log": {k: [float(v) for v in vals] for k, vals in sd["log"].items()},
        "loss": [float(v) for v in sd["loss"].tolist()],
        "num_parameters": int(cebra_model.solver_.num_parameters),
    }
    record.update(extra)
    with open(path, "w") as f:
        json.dump(record, f, indent=1)
