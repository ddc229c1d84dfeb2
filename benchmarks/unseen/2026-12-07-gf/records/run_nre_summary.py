"""Single-round NRE (the `NRE` alias, which is NRE_B in sbi 0.27.0) with show_train_summary=True."""
import sys
import torch
from sbi.inference import NRE
from sbi_common import make_prior, simulator, dump_summary

torch.manual_seed(1)
prior = make_prior(2)
theta = prior.sample((2000,))
x = simulator(theta)

inference = NRE(prior=prior)
ratio_estimator = inference.append_simulations(theta, x).train(
    stop_after_epochs=5, show_train_summary=True)
dump_summary(inference, sys.argv[1] if len(sys.argv) > 1 else "nre_summary.json")
