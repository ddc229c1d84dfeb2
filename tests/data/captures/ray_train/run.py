# Ray Train TorchTrainer, 1 CPU worker, tiny torch regression loop reporting with ray.train.report.
import os, tempfile
import torch
import ray
import ray.train
from ray.train import ScalingConfig, RunConfig
from ray.train.torch import TorchTrainer, prepare_model

def train_loop(config):
    torch.manual_seed(0)
    X = torch.randn(512, 8)
    w = torch.randn(8, 1)
    y = X @ w + 0.1 * torch.randn(512, 1)
    model = prepare_model(torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=config["lr"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=4, gamma=0.5)
    loss_fn = torch.nn.MSELoss()
    import time
    for epoch in range(config["epochs"]):
        t0 = time.time()
        total = 0.0
        for i in range(0, 512, 64):
            xb, yb = X[i:i+64], y[i:i+64]
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
        lr = sched.get_last_lr()[0]
        sched.step()
        with torch.no_grad():
            val_loss = loss_fn(model(X[:128]), y[:128]).item()
        metrics = {"epoch": epoch, "loss": total / 512, "val_loss": val_loss,
                   "lr": lr, "epoch_time_s": time.time() - t0}
        # Ray Train V2 persists reported metrics together with a checkpoint, so save one each epoch.
        with tempfile.TemporaryDirectory() as d:
            torch.save(model.state_dict(), os.path.join(d, "model.pt"))
            ray.train.report(metrics, checkpoint=ray.train.Checkpoint.from_directory(d))

if __name__ == "__main__":
    trainer = TorchTrainer(
        train_loop,
        train_loop_config={"lr": 0.05, "epochs": 10},
        scaling_config=ScalingConfig(num_workers=1, use_gpu=False),
        run_config=RunConfig(name="tiny_regression", storage_path=os.path.abspath("ray_results")),
    )
    result = trainer.fit()
    print("Final metrics:", result.metrics)
    print("Result path:", result.path)
    import json
    # Ray's own record of every report: Result.best_checkpoints = [(Checkpoint, metrics), ...] in report order.
    with open("reported_metrics.jsonl", "w") as f:
        for ckpt, m in result.best_checkpoints:
            f.write(json.dumps(dict(m, _checkpoint=ckpt.path)) + "\n")
