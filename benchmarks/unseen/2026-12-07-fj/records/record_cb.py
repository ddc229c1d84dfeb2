"""Lightning callback: writes the framework's own record of the run to JSONL.
kind=step : every training batch, the loss tensor training_step returned (outputs["loss"]),
            with trainer.global_step (after the optimizer step), epoch and batch_idx.
kind=epoch: at the end of every training epoch (after validation, if any), all of trainer.callback_metrics
            and trainer.progress_bar_metrics (what the progress bar prints)."""
import json, time
import pytorch_lightning as pl


class JsonlRecord(pl.Callback):
    def __init__(self, path):
        self.path = path
        open(path, "w").close()

    def _w(self, d):
        with open(self.path, "a") as f:
            f.write(json.dumps(d) + "\n")

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        loss = outputs["loss"] if isinstance(outputs, dict) else outputs
        self._w({"kind": "step", "epoch": trainer.current_epoch, "batch_idx": batch_idx,
                 "global_step": trainer.global_step, "loss": float(loss), "t": time.time()})

    def on_train_epoch_end(self, trainer, pl_module):
        self._w({"kind": "epoch", "epoch": trainer.current_epoch, "global_step": trainer.global_step,
                 "callback_metrics": {k: float(v) for k, v in trainer.callback_metrics.items()},
                 "progress_bar_metrics": {k: float(v) for k, v in trainer.progress_bar_metrics.items()},
                 "t": time.time()})
