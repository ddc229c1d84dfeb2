# GPyTorch "Multitask GP Regression" tutorial (examples/03_Multitask_Exact_GPs/Multitask_GP_Regression.ipynb in
# github.com/cornellius-gp/gpytorch, the source of the docs page), code cells copied verbatim except:
# notebook magics and plotting dropped, torch.manual_seed(0) added, and ONE extra write per iteration
# to gp_multitask_history.jsonl (the record) beside the tutorial's print.
import json
import math
import torch
import gpytorch

torch.manual_seed(0)  # added
record = open("gp_multitask_history.jsonl", "w")  # added

train_x = torch.linspace(0, 1, 100)

train_y = torch.stack([
    torch.sin(train_x * (2 * math.pi)) + torch.randn(train_x.size()) * 0.2,
    torch.cos(train_x * (2 * math.pi)) + torch.randn(train_x.size()) * 0.2,
], -1)

class MultitaskGPModel(gpytorch.models.ExactGP):
    def __init__(self, train_x, train_y, likelihood):
        super(MultitaskGPModel, self).__init__(train_x, train_y, likelihood)
        self.mean_module = gpytorch.means.MultitaskMean(
            gpytorch.means.ConstantMean(), num_tasks=2
        )
        self.covar_module = gpytorch.kernels.MultitaskKernel(
            gpytorch.kernels.RBFKernel(), num_tasks=2, rank=1
        )

    def forward(self, x):
        mean_x = self.mean_module(x)
        covar_x = self.covar_module(x)
        return gpytorch.distributions.MultitaskMultivariateNormal(mean_x, covar_x)


likelihood = gpytorch.likelihoods.MultitaskGaussianLikelihood(num_tasks=2)
model = MultitaskGPModel(train_x, train_y, likelihood)

# this is for running the notebook in our testing framework
import os
smoke_test = ('CI' in os.environ)
training_iterations = 2 if smoke_test else 50


# Find optimal model hyperparameters
model.train()
likelihood.train()

# Use the adam optimizer
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)  # Includes GaussianLikelihood parameters

# "Loss" for GPs - the marginal log likelihood
mll = gpytorch.mlls.ExactMarginalLogLikelihood(likelihood, model)

for i in range(training_iterations):
    optimizer.zero_grad()
    output = model(train_x)
    loss = -mll(output, train_y)
    loss.backward()
    print('Iter %d/%d - Loss: %.3f' % (i + 1, training_iterations, loss.item()))
    record.write(json.dumps({  # added: the record, unrounded
        "iter": i + 1, "training_iterations": training_iterations, "loss": loss.item(),
        "lengthscale": model.covar_module.data_covar_module.lengthscale.item(),
        "noise": likelihood.noise.item(),
        "task_noises": likelihood.task_noises.tolist(),
        "lr": optimizer.param_groups[0]["lr"],
    }) + "\n")
    optimizer.step()
record.close()  # added

# Set into eval mode
model.eval()
likelihood.eval()

# Make predictions
with torch.no_grad(), gpytorch.settings.fast_pred_var():
    test_x = torch.linspace(0, 1, 51)
    predictions = likelihood(model(test_x))
    mean = predictions.mean
    lower, upper = predictions.confidence_region()
