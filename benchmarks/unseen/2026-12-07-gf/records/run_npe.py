"""Single-round NPE, sbi quick start, default console output."""
import sys
import torch
from sbi.inference import NPE
from sbi_common import make_prior, simulator, dump_summary

torch.manual_seed(0)
prior = make_prior(3)
theta = prior.sample((2000,))
x = simulator(theta)

inference = NPE(prior=prior)
density_estimator = inference.append_simulations(theta, x).train(stop_after_epochs=5)
posterior = inference.build_posterior(density_estimator)
x_o = torch.zeros(3)
samples = posterior.sample((1000,), x=x_o)
print("posterior mean:", samples.mean(0))
dump_summary(inference, sys.argv[1] if len(sys.argv) > 1 else "npe_summary.json")
