# Pyro SVI training loop from Pyro's tutorial "Bayesian Regression - Introduction (Part 1)"
# (tutorial/source/bayesian_regression.ipynb): PyroModule BayesianRegression + AutoDiagonalNormal guide, Adam(lr=0.03),
# Trace_ELBO, 1500 iterations, printing "[iteration %04d] loss: %.4f" every 100. The tutorial's rugged-terrain CSV is
# a download, so a synthetic data set of the same shape (170 rows, 3 features) is made here.
# Record: the value svi.step() returns at every iteration (Pyro's ELBO loss), kept as the loop's history and dumped
# to losses.json (the tutorial keeps nothing; the list is the only record Pyro's SVI offers).
import json
import torch
import pyro
import pyro.distributions as dist
from pyro.nn import PyroModule, PyroSample
from pyro.infer.autoguide import AutoDiagonalNormal
from pyro.infer import SVI, Trace_ELBO

pyro.set_rng_seed(1)
N = 170
g = torch.Generator().manual_seed(0)
cont_africa = (torch.rand(N, generator=g) < 0.3).float()
ruggedness = torch.rand(N, generator=g) * 6
log_gdp = 9.2 - 1.9 * cont_africa - 0.2 * ruggedness + 0.4 * cont_africa * ruggedness + 0.9 * torch.randn(N, generator=g)
x_data = torch.stack([cont_africa, ruggedness, cont_africa * ruggedness], 1)
y_data = log_gdp
data = torch.cat([x_data, y_data[:, None]], 1)


class BayesianRegression(PyroModule):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = PyroModule[torch.nn.Linear](in_features, out_features)
        self.linear.weight = PyroSample(dist.Normal(0., 1.).expand([out_features, in_features]).to_event(2))
        self.linear.bias = PyroSample(dist.Normal(0., 10.).expand([out_features]).to_event(1))

    def forward(self, x, y=None):
        sigma = pyro.sample("sigma", dist.Uniform(0., 10.))
        mean = self.linear(x).squeeze(-1)
        with pyro.plate("data", x.shape[0]):
            obs = pyro.sample("obs", dist.Normal(mean, sigma), obs=y)
        return mean


model = BayesianRegression(3, 1)
guide = AutoDiagonalNormal(model)
adam = pyro.optim.Adam({"lr": 0.03})
svi = SVI(model, guide, adam, loss=Trace_ELBO())

num_iterations = 1500
pyro.clear_param_store()
history = []
for j in range(num_iterations):
    # calculate the loss and take a gradient step
    loss = svi.step(x_data, y_data)
    history.append({"iteration_index": j, "elbo_loss": loss})
    if j % 100 == 0:
        print("[iteration %04d] loss: %.4f" % (j + 1, loss / len(data)))

guide.requires_grad_(False)
for name, value in pyro.get_param_store().items():
    print(name, pyro.param(name))
json.dump({"n_data": len(data), "losses": history,
           "params": {k: v.tolist() for k, v in pyro.get_param_store().items()}}, open("losses.json", "w"), indent=0)
