"""(3) Optuna study whose objective also prints a per-epoch training-loss line (as users often do).
The per-epoch train losses are also kept in the framework's record via trial.set_user_attr."""
import sys

import optuna
import torch

from common import build_model, train_one_epoch, val_loss

EPOCHS = 3


def objective(trial):
    hidden = trial.suggest_int("hidden", 8, 64, log=True)
    lr = trial.suggest_float("lr", 1e-4, 1e-1, log=True)
    torch.manual_seed(trial.number)
    model = build_model(hidden, 2)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    train_losses = []
    for epoch in range(EPOCHS):
        tl = train_one_epoch(model, opt, 64, epoch_seed=1000 * trial.number + epoch)
        train_losses.append(tl)
        print(f"Epoch {epoch + 1}/{EPOCHS} - train loss: {tl:.4f}", flush=True)
    trial.set_user_attr("train_losses", train_losses)
    return val_loss(model)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "printing"
    study = optuna.create_study(study_name="mlp-printing", direction="minimize",
                                sampler=optuna.samplers.TPESampler(seed=3))
    study.optimize(objective, n_trials=12)
    print("Best trial:", study.best_trial.number, study.best_params, study.best_value)
    study.trials_dataframe().to_csv(f"{out}_trials.csv", index=False)
