"""Sequential NPE (SNPE-C / APT): 3 rounds, each round proposes from the last posterior
conditioned on x_o, as in sbi's multi-round tutorial; show_train_summary=True."""
import sys
import torch
from sbi.inference import NPE
from sbi_common import make_prior, simulator, dump_summary

torch.manual_seed(2)
prior = make_prior(3)
x_o = torch.zeros(3)
num_rounds = 3

inference = NPE(prior=prior)
proposal = prior
for _ in range(num_rounds):
    theta = proposal.sample((1000,))
    x = simulator(theta)
    density_estimator = inference.append_simulations(theta, x, proposal=proposal).train(
        training_batch_size=100, stop_after_epochs=3, show_train_summary=True)
    posterior = inference.build_posterior(density_estimator)
    proposal = posterior.set_default_x(x_o)
dump_summary(inference, sys.argv[1] if len(sys.argv) > 1 else "npe_multiround_summary.json")
