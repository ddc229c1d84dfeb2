"""DeepChem TorchModel (plain torch.nn.Sequential, L2Loss) regression on a synthetic NumpyDataset,
with a ValidationCallback every 25 steps printing to stdout (tee'd to a record file), checkpoints every 50.
Record: all_losses dumped to JSON; the callback's output lines + a JSONL of its scores.
"""
import json, logging, sys
import numpy as np
import torch
import deepchem as dc

logging.basicConfig(level=logging.INFO)
out_json, out_val = sys.argv[1], sys.argv[2]

torch.manual_seed(0)
rng = np.random.RandomState(1)
def make(n):
    X = rng.randn(n, 16).astype(np.float32)
    y = (np.sin(X[:, :1]) + 0.3 * X[:, 1:2] ** 2 + 0.1 * rng.randn(n, 1)).astype(np.float32)
    return dc.data.NumpyDataset(X, y)
train, valid = make(400), make(100)

class Tee:
    def __init__(self, *files): self.files = files
    def write(self, s):
        for f in self.files: f.write(s); f.flush()
    def flush(self):
        for f in self.files: f.flush()

val_txt = open(out_val, 'w')
net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
LOG_FREQ = 5
model = dc.models.TorchModel(net, loss=dc.models.losses.L2Loss(), batch_size=40,
                             learning_rate=0.005, log_frequency=LOG_FREQ, model_dir='tm_ckpt')
metric = dc.metrics.Metric(dc.metrics.mean_squared_error)
cb = dc.models.ValidationCallback(valid, 25, [metric], output_file=Tee(sys.stdout, val_txt),
                                  save_dir='tm_best')
losses = []
final = model.fit(train, nb_epoch=15, checkpoint_interval=50, callbacks=[cb], all_losses=losses)
end_step = model.get_global_step()
steps = [s for s in range(1, end_step + 1) if s % LOG_FREQ == 0]
if end_step % LOG_FREQ != 0:
    steps.append(end_step)
assert len(steps) == len(losses)
json.dump({'nb_epoch': 15, 'log_frequency': LOG_FREQ, 'end_global_step': end_step,
           'fit_return': final, 'all_losses': losses, 'steps_derived': steps,
           'records': [{'step': s, 'loss': l} for s, l in zip(steps, losses)],
           'best_validation_score': cb.get_best_score()},
          open(out_json, 'w'), indent=1)
