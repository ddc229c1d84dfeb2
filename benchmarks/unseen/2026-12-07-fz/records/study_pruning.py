"""(2) Optuna study with MedianPruner: trial.report(val_loss, epoch) each epoch, prune when told."""
import json
import sys

import optuna
import torch

from common import build_model, train_one_epoch, val_loss

EPOCHS = 8


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
        v = val_loss(model)
        trial.report(v, epoch)
        if trial.should_prune():
            raise optuna.TrialPruned()
    return v


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "pruning"
    study = optuna.create_study(study_name="mlp-pruning", direction="minimize",
                                sampler=optuna.samplers.TPESampler(seed=7),
                                pruner=optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=2))
    study.optimize(objective, n_trials=20)
    pruned = study.get_trials(deepcopy=False, states=[optuna.trial.TrialState.PRUNED])
    complete = study.get_trials(deepcopy=False, states=[optuna.trial.TrialState.COMPLETE])
    print(f"Finished trials: {len(study.trials)}  pruned: {len(pruned)}  complete: {len(complete)}")
    print("Best trial:", study.best_trial.number, "value:", study.best_value)
    study.trials_dataframe().to_csv(f"{out}_trials.csv", index=False)
    with open(f"{out}_intermediate_values.json", "w") as f:
        json.dump({t.number: {"state": t.state.name, "value": t.value,
                              "intermediate_values": {str(k): v for k, v in sorted(t.intermediate_values.items())}}
                   for t in study.trials}, f, indent=1)
