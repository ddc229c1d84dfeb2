"""(1) Plain Optuna study: minimize the validation MSE of a tiny torch MLP trained per trial."""
import json
import sys

import optuna
import torch

from common import build_model, train_one_epoch, val_loss

EPOCHS = 5


def objective(trial):
    hidden = trial.suggest_int("hidden", 8, 64, log=True)
    n_layers = trial.suggest_int("n_layers", 1, 3)
    lr = trial.suggest_float("lr", 1e-4, 1e-1, log=True)
    batch_size = trial.suggest_categorical("batch_size", [32, 64, 128])
    torch.manual_seed(trial.number)
    model = build_model(hidden, n_layers)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(EPOCHS):
        train_one_epoch(model, opt, batch_size, epoch_seed=1000 * trial.number + epoch)
    return val_loss(model)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "plain"
    study = optuna.create_study(study_name="mlp-plain", direction="minimize",
                                sampler=optuna.samplers.TPESampler(seed=42))
    study.optimize(objective, n_trials=15)
    print("Best value:", study.best_value)
    print("Best params:", study.best_params)
    study.trials_dataframe().to_csv(f"{out}_trials.csv", index=False)
