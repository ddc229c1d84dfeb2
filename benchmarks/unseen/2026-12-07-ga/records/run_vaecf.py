"""Cornac VAECF (PyTorch) on synthetic implicit feedback, ranking metrics, verbose Experiment."""
import cornac
from cornac.eval_methods import RatioSplit
from cornac.models import VAECF
from cornac.metrics import Recall, NDCG, AUC
import cornac.models.vaecf.vaecf as vaecf_impl

from capture_hooks import hook_trange
from synth import make_triples

hook_trange(vaecf_impl, "VAECF", "vaecf_postfix.jsonl")

data = make_triples(n_users=1000, n_items=400, n_ratings=20000, seed=7)
rs = RatioSplit(data=data, test_size=0.2, rating_threshold=1.0, exclude_unknowns=True, seed=123, verbose=True)
vae = VAECF(k=10, autoencoder_structure=[40], act_fn="tanh", likelihood="mult", n_epochs=20,
            batch_size=50, learning_rate=0.001, beta=1.0, seed=123, verbose=True)
cornac.Experiment(eval_method=rs, models=[vae], metrics=[AUC(), Recall(k=10), NDCG(k=10)]).run()
