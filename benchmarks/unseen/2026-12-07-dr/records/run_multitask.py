"""DeepChem MultitaskClassifier on a tiny synthetic NumpyDataset (CPU).

mode 'fresh'  : 25 epochs, saves checkpoints to ./mtc_ckpt (log: deepchem_multitask_classifier.log)
mode 'resume' : new model on the same model_dir, model.restore() (latest checkpoint, global_step 200) then fit for 12 more epochs
                (log: deepchem_multitask_resume.log)
Record: all_losses (the list fit() appends each averaged loss to) dumped to JSON.
"""
import json, logging, sys
import numpy as np
import deepchem as dc

logging.basicConfig(level=logging.INFO)

mode = sys.argv[1]
out = sys.argv[2]
rng = np.random.RandomState(0)
n, n_features, n_tasks = 512, 32, 3
X = rng.randn(n, n_features).astype(np.float32)
W = rng.randn(n_features, n_tasks)
y = (X @ W + 0.5 * rng.randn(n, n_tasks) > 0).astype(np.float32)
dataset = dc.data.NumpyDataset(X, y)

LOG_FREQ = 10
model = dc.models.MultitaskClassifier(n_tasks, n_features, layer_sizes=[64],
                                      dropouts=0.1, batch_size=64,
                                      learning_rate=0.001, log_frequency=LOG_FREQ,
                                      model_dir='mtc_ckpt')
start_step = 0
losses = []
if mode == 'fresh':
    nb_epoch = 25
    final = model.fit(dataset, nb_epoch=nb_epoch, all_losses=losses)
else:
    nb_epoch = 12
    model.restore()
    start_step = model.get_global_step()
    final = model.fit(dataset, nb_epoch=nb_epoch, all_losses=losses)
end_step = model.get_global_step()
# steps of all_losses: every LOG_FREQ-th global step, plus a last entry at end_step
# when end_step is not a multiple of LOG_FREQ (torch_model.py fit_generator)
steps = [s for s in range(start_step + 1, end_step + 1) if s % LOG_FREQ == 0]
if end_step % LOG_FREQ != 0:
    steps.append(end_step)
assert len(steps) == len(losses), (steps, losses)
json.dump({'mode': mode, 'nb_epoch': nb_epoch, 'log_frequency': LOG_FREQ,
           'start_global_step': start_step, 'end_global_step': end_step,
           'fit_return': final, 'all_losses': losses,
           'steps_derived': steps,
           'records': [{'step': s, 'loss': l} for s, l in zip(steps, losses)]},
          open(out, 'w'), indent=1)
