# GPyTorch "Simple GP Regression" tutorial (examples/01_Exact_GPs/Simple_GP_Regression.ipynb in
# github.com/cornellius-gp/gpytorch, the source of the docs page), code cells copied verbatim except:
# notebook magics and plotting cells dropped, torch.manual_seed(0) added, and ONE extra write per iteration
# to gp_simple_history.jsonl (the record) beside the tutorial's print.
import json
import math
import torch
import gpytorch

torch.manual_seed(0)  # added
record = open("gp_simple_history.jsonl", "w")  # added

# Training data is 100 points in [0,1] inclusive regularly spaced
train_x = torch.linspace(0, 1, 100)
# True function is sin(2*pi*x) with Gaussian noise
train_y = torch.sin(train_x * (2 * math.pi)) + torch.randn(train_x.size()) * math.sqrt(0.04)

# We will use the simplest form of GP model, exact inference
class ExactGPModel(gpytorch.models.ExactGP):
    def __init__(self, train_x, train_y, likelihood):
        super(ExactGPModel, self).__init__(train_x, train_y, likelihood)
        self.mean_module = gpytorch.means.ConstantMean()
        self.covar_module = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RBFKernel())

    def forward(self, x):
        mean_x = self.mean_module(x)
        covar_x = self.covar_module(x)
        return gpytorch.distributions.MultivariateNormal(mean_x, covar_x)

# initialize likelihood and model
likelihood = gpytorch.likelihoods.GaussianLikelihood()
model = ExactGPModel(train_x, train_y, likelihood)

# this is for running the notebook in our testing framework
import os
smoke_test = ('CI' in os.environ)
training_iter = 2 if smoke_test else 50


# Find optimal model hyperparameters
model.train()
likelihood.train()

# Use the adam optimizer
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)  # Includes GaussianLikelihood parameters

# "Loss" for GPs - the marginal log likelihood
mll = gpytorch.mlls.ExactMarginalLogLikelihood(likelihood, model)

for i in range(training_iter):
    # Zero gradients from previous iteration
    optimizer.zero_grad()
    # Output from model
    output = model(train_x)
    # Calc loss and backprop gradients
    loss = -mll(output, train_y)
    loss.backward()
    print('Iter %d/%d - Loss: %.3f   lengthscale: %.3f   noise: %.3f' % (
        i + 1, training_iter, loss.item(),
        model.covar_module.base_kernel.lengthscale.item(),
        model.likelihood.noise.item()
    ))
    record.write(json.dumps({  # added: the record, same values as the print, unrounded
        "iter": i + 1, "training_iter": training_iter, "loss": loss.item(),
        "lengthscale": model.covar_module.base_kernel.lengthscale.item(),
        "noise": model.likelihood.noise.item(),
        "outputscale": model.covar_module.outputscale.item(),
        "constant_mean": model.mean_module.constant.item(),
        "lr": optimizer.param_groups[0]["lr"],
    }) + "\n")
    optimizer.step()
record.close()  # added

# Get into evaluation (predictive posterior) mode
model.eval()
likelihood.eval()

# Test points are regularly spaced along [0,1]
# Make predictions by feeding model through likelihood
with torch.no_grad(), gpytorch.settings.fast_pred_var():
    test_x = torch.linspace(0, 1, 51)
    observed_pred = likelihood(model(test_x))
