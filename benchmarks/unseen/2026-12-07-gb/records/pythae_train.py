"""pythae quick-start training on tiny synthetic MNIST-like data (random 1x28x28 in [0, 1]), CPU.

Run as a user's job would:  python records/pythae_train.py --mode MODE > pythae_MODE.log 2>&1
The framework's own record of the run is written by JsonlMetricsCallback (a pythae TrainingCallback passed
through `callbacks=[...]`): every dict the trainer hands to on_log, with its global_step (= epoch).
"""
import argparse
import json
import os
import time

import torch

from pythae.models import VAE, VAEConfig, BetaVAE, BetaVAEConfig, Adversarial_AE, Adversarial_AE_Config
from pythae.pipelines import TrainingPipeline
from pythae.trainers import BaseTrainerConfig, AdversarialTrainerConfig
from pythae.trainers.training_callbacks import TrainingCallback


class JsonlMetricsCallback(TrainingCallback):
    """Writes every logged metric with its epoch (global_step) to a JSONL file, unrounded."""

    def __init__(self, path):
        self.path = path
        self.fh = open(path, "w")
        self.t0 = None

    def _write(self, rec):
        self.fh.write(json.dumps(rec) + "\n")
        self.fh.flush()

    def on_train_begin(self, training_config, **kwargs):
        self.t0 = time.time()
        self._write({"event": "train_begin", "training_config": training_config.to_dict(),
                     "model_config": kwargs["model_config"].to_dict() if kwargs.get("model_config") else None})

    def on_log(self, training_config, logs, **kwargs):
        rec = {"event": "log", "global_step": kwargs.get("global_step"),
               "wall_s_since_train_begin": time.time() - self.t0}
        rec.update({k: float(v) for k, v in logs.items()})
        self._write(rec)

    def on_save(self, training_config, **kwargs):
        self._write({"event": "save_final_model", "wall_s_since_train_begin": time.time() - self.t0})

    def on_train_end(self, training_config, **kwargs):
        self._write({"event": "train_end", "wall_s_since_train_begin": time.time() - self.t0})
        self.fh.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True, choices=["vae_eval", "betavae_noeval", "aae_adversarial_ckpt"])
    ap.add_argument("--outdir", default="records")
    args = ap.parse_args()

    torch.manual_seed(0)
    train = torch.rand(320, 1, 28, 28)
    evald = torch.rand(96, 1, 28, 28)
    out = os.path.join(args.outdir, f"{args.mode}_output")
    cb = JsonlMetricsCallback(os.path.join(args.outdir, f"{args.mode}_metrics.jsonl"))

    if args.mode == "vae_eval":
        config = BaseTrainerConfig(output_dir=out, learning_rate=1e-3, per_device_train_batch_size=32,
                                   per_device_eval_batch_size=32, num_epochs=12, no_cuda=True)
        model = VAE(model_config=VAEConfig(input_dim=(1, 28, 28), latent_dim=8))
        pipeline = TrainingPipeline(training_config=config, model=model)
        pipeline(train_data=train, eval_data=evald, callbacks=[cb])
    elif args.mode == "betavae_noeval":
        config = BaseTrainerConfig(output_dir=out, learning_rate=1e-3, per_device_train_batch_size=32,
                                   num_epochs=15, no_cuda=True,
                                   scheduler_cls="StepLR", scheduler_params={"step_size": 5, "gamma": 0.5})
        model = BetaVAE(model_config=BetaVAEConfig(input_dim=(1, 28, 28), latent_dim=8, beta=4.0))
        pipeline = TrainingPipeline(training_config=config, model=model)
        pipeline(train_data=train, callbacks=[cb])
    else:
        config = AdversarialTrainerConfig(output_dir=out, per_device_train_batch_size=32,
                                          per_device_eval_batch_size=32, num_epochs=12, no_cuda=True,
                                          autoencoder_learning_rate=1e-3, discriminator_learning_rate=1e-3,
                                          steps_saving=4)
        model = Adversarial_AE(model_config=Adversarial_AE_Config(input_dim=(1, 28, 28), latent_dim=8,
                                                                  adversarial_loss_scale=0.5))
        pipeline = TrainingPipeline(training_config=config, model=model)
        pipeline(train_data=train, eval_data=evald, callbacks=[cb])


if __name__ == "__main__":
    main()
