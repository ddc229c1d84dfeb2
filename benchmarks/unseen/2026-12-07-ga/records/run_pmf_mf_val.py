"""Two models (PMF, MF) in one verbose Experiment, RatioSplit with a validation set, models saved (save_dir)."""
import cornac
from cornac.eval_methods import RatioSplit
from cornac.models import MF, PMF
from cornac.metrics import MAE, RMSE
import cornac.models.mf.backend_cpu as mf_backend

from capture_hooks import hook_pmf, hook_trange
from synth import make_triples

hook_pmf("pmf_loss.jsonl")
hook_trange(mf_backend, "MF", "mf_postfix.jsonl")

data = make_triples(n_users=300, n_items=200, n_ratings=8000, seed=7)
rs = RatioSplit(data=data, test_size=0.1, val_size=0.1, exclude_unknowns=True, seed=123, verbose=True)
pmf = PMF(k=10, max_iter=15, learning_rate=0.001, lambda_reg=0.001, seed=123, verbose=True)
mf = MF(k=10, max_iter=15, learning_rate=0.01, lambda_reg=0.02, use_bias=True, early_stop=False, seed=123, verbose=True)
cornac.Experiment(eval_method=rs, models=[pmf, mf], metrics=[MAE(), RMSE()], save_dir="saved_models").run()
