"""SpeechBrain on CPU: a Brain subclass trained with Brain.fit on synthetic tones (no audio files): Fbank
features of 0.5 s sine waves, four pitch classes, a small MLP over the mean features, nll loss, as the
minimal examples and recipe templates set it up (sb.create_experiment_directory, a FileTrainLogger that
log_stats writes to train_log.txt, the tqdm bars Brain.fit draws, an evaluate() on a test set).

SpeechBrain's own record: the FileTrainLogger's train_log.txt (copied to <name>.train_log.txt), and, since it
rounds, the unrounded stats each stage ends with, written by on_stage_end to <name>.truth.jsonl, with every
training batch's loss (kind "batch", as fit_batch returned it)."""

import argparse
import json
import shutil
import sys
from pathlib import Path

import speechbrain as sb
import torch
from speechbrain.lobes.features import Fbank
from speechbrain.utils.train_logger import FileTrainLogger

torch.set_num_threads(1)
SR = 8000


class ToneBrain(sb.Brain):
    def compute_forward(self, batch, stage):
        feats = self.modules.fbank(batch.sig.data)
        return self.modules.net(feats.mean(dim=1))

    def compute_objectives(self, predictions, batch, stage):
        logp = torch.log_softmax(predictions, dim=-1)
        loss = sb.nnet.losses.nll_loss(logp, batch.label)
        if stage != sb.Stage.TRAIN:
            self.errors += (logp.argmax(-1) != batch.label).sum().item()
            self.seen += len(batch.label)
        return loss

    def fit_batch(self, batch):
        loss = super().fit_batch(batch)
        self.record(kind="batch", epoch=self.hparams.epoch_counter.current, loss=float(loss))
        return loss

    def on_stage_start(self, stage, epoch=None):
        self.errors, self.seen = 0, 0

    def on_stage_end(self, stage, stage_loss, epoch=None):
        if stage == sb.Stage.TRAIN:
            self.train_loss = stage_loss
            return
        stats = {"loss": stage_loss, "error": self.errors / self.seen}
        name = "valid" if stage == sb.Stage.VALID else "test"
        self.record(kind=name, epoch=epoch, train_loss=getattr(self, "train_loss", None), **stats)
        if stage == sb.Stage.VALID:
            self.hparams.train_logger.log_stats(
                stats_meta={"epoch": epoch, "lr": self.optimizer.param_groups[0]["lr"]},
                train_stats={"loss": self.train_loss},
                valid_stats=stats,
            )
        else:
            self.hparams.train_logger.log_stats(
                stats_meta={"Epoch loaded": self.hparams.epoch_counter.current}, test_stats=stats
            )

    def record(self, **obj):
        with self.hparams.truth.open("a") as f:
            f.write(json.dumps(obj) + "\n")


def tones(n, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(int(0.5 * SR)) / SR
    data = {}
    for i in range(n):
        label = int(torch.randint(0, 4, (1,), generator=g))
        f0 = 200.0 * (label + 1) + float(torch.randn(1, generator=g)) * 60
        sig = torch.sin(2 * torch.pi * f0 * t) + 0.8 * torch.randn(len(t), generator=g)
        data[f"utt{i:04d}"] = {"sig": sig, "label": label}
    ds = sb.dataio.dataset.DynamicItemDataset(data)
    ds.set_output_keys(["id", "sig", "label"])
    return ds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="fit")
    ap.add_argument("--out", default="/tmp/c43/speechbrain")
    args = ap.parse_args()
    here = Path(__file__).resolve().parent
    shutil.rmtree(args.out, ignore_errors=True)
    sb.utils.seed.seed_everything(0)
    sb.create_experiment_directory(args.out)
    truth = here / f"{args.name}.truth.jsonl"
    truth.unlink(missing_ok=True)
    hparams = {
        "epoch_counter": sb.utils.epoch_loop.EpochCounter(limit=4),
        "train_logger": FileTrainLogger(save_file=f"{args.out}/train_log.txt"),
        "truth": truth,
    }
    modules = {
        "fbank": Fbank(sample_rate=SR, n_mels=40),
        "net": torch.nn.Sequential(torch.nn.Linear(40, 128), torch.nn.ReLU(), torch.nn.Linear(128, 4)),
    }
    brain = ToneBrain(
        modules=modules,
        opt_class=lambda params: torch.optim.Adam(params, lr=1e-3),
        hparams=hparams,
        run_opts={"device": "cpu"},
        checkpointer=None,
    )
    loader = {"batch_size": 16}
    brain.fit(
        hparams["epoch_counter"],
        tones(320, 0),
        tones(64, 1),
        train_loader_kwargs=loader,
        valid_loader_kwargs=loader,
    )
    brain.evaluate(tones(64, 2), test_loader_kwargs=loader)
    sys.stdout.flush()
    shutil.copy(f"{args.out}/train_log.txt", here / f"{args.name}.train_log.txt")


if __name__ == "__main__":
    main()
