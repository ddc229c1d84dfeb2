"""Cornac quick start style: PMF on synthetic explicit feedback, rating + ranking metrics, verbose Experiment."""
import cornac
from cornac.eval_methods import RatioSplit
from cornac.models import PMF
from cornac.metrics import MAE, RMSE, Recall, NDCG

from capture_hooks import hook_pmf
from synth import make_triples

hook_pmf("pmf_loss.jsonl")

data = make_triples(n_users=300, n_items=200, n_ratings=8000, seed=7)
rs = RatioSplit(data=data, test_size=0.2, rating_threshold=4.0, exclude_unknowns=True, seed=123, verbose=True)
pmf = PMF(k=10, max_iter=30, learning_rate=0.001, lambda_reg=0.001, seed=123, verbose=True)
cornac.Experiment(eval_method=rs, models=[pmf], metrics=[MAE(), RMSE(), Recall(k=10), NDCG(k=10)]).run()
