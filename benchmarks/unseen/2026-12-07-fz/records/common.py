"""Tiny synthetic regression task + tiny torch MLP shared by the three Optuna studies."""
import torch
import torch.nn as nn

torch.set_num_threads(1)


def make_data(seed=0, n_train=512, n_val=256, d=16):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(d, 1, generator=g)
    x = torch.randn(n_train + n_val, d, generator=g)
    y = (x @ w) / d ** 0.5 + 0.5 * torch.sin(2 * x[:, :1]) + 0.1 * torch.randn(n_train + n_val, 1, generator=g)
    return x[:n_train], y[:n_train], x[n_train:], y[n_train:]


X_TR, Y_TR, X_VA, Y_VA = make_data()


def build_model(hidden, n_layers, d=16):
    layers, inp = [], d
    for _ in range(n_layers):
        layers += [nn.Linear(inp, hidden), nn.ReLU()]
        inp = hidden
    layers.append(nn.Linear(inp, 1))
    return nn.Sequential(*layers)


def train_one_epoch(model, opt, batch_size, epoch_seed):
    model.train()
    g = torch.Generator().manual_seed(epoch_seed)
    perm = torch.randperm(X_TR.shape[0], generator=g)
    loss_fn = nn.MSELoss()
    total, n = 0.0, 0
    for i in range(0, X_TR.shape[0], batch_size):
        idx = perm[i:i + batch_size]
        opt.zero_grad()
        loss = loss_fn(model(X_TR[idx]), Y_TR[idx])
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
        n += len(idx)
    return total / n


@torch.no_grad()
def val_loss(model):
    model.eval()
    return nn.functional.mse_loss(model(X_VA), Y_VA).item()
