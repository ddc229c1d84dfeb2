"""A real mlx-lm fine-tuning run on CPU (tiny random Llama, synthetic token data), as mlx_lm.lora runs it:
mlx_lm.tuner.trainer.train prints its reports to stdout; its TrainingCallback receives the same values
unrounded, which this script writes to <out>.truth.jsonl (the ground truth beside the console log).

    python capture.py classic > classic.log 2>&1      # mlx-lm 0.28.0: "Iter N: Train loss ..." lines
    python capture.py table > table.log 2>&1          # mlx-lm 0.32.2: the table of v0.32
"""

import json
import sys
import tempfile
from pathlib import Path

import mlx.core as mx
import mlx.optimizers as optim
import numpy as np
from mlx_lm.models import llama
from mlx_lm.tuner.callbacks import TrainingCallback
from mlx_lm.tuner.trainer import TrainingArgs, train

name = sys.argv[1] if len(sys.argv) > 1 else "classic"
here = Path(__file__).resolve().parent
mx.random.seed(0)
np.random.seed(0)
args = llama.ModelArgs(model_type="llama", hidden_size=64, num_hidden_layers=2, intermediate_size=128,
                       num_attention_heads=4, rms_norm_eps=1e-5, vocab_size=256, num_key_value_heads=4)
model = llama.Model(args)
rng = np.random.default_rng(0)
# (tokens, prompt offset) pairs of varied length, what mlx-lm 0.28 datasets give
train_set = [(rng.integers(1, 256, size=int(n)).tolist(), 0) for n in rng.integers(16, 48, size=64)]
val_set = [(rng.integers(1, 256, size=int(n)).tolist(), 0) for n in rng.integers(16, 48, size=16)]


class Truth(TrainingCallback):
    def __init__(self, path):
        self.f = open(path, "w")

    def on_train_loss_report(self, info):
        self.f.write(json.dumps({"kind": "train", **info}) + "\n")
        self.f.flush()

    def on_val_loss_report(self, info):
        self.f.write(json.dumps({"kind": "val", **info}) + "\n")
        self.f.flush()


targs = TrainingArgs(batch_size=4, iters=60, val_batches=2, steps_per_report=5, steps_per_eval=20,
                     steps_per_save=30, max_seq_length=64, adapter_file=str(Path(tempfile.mkdtemp()) / "adapters.safetensors"))
train(model, optim.Adam(learning_rate=1e-3), train_set, val_set, args=targs,
      training_callback=Truth(here / f"{name}.truth.jsonl"))
