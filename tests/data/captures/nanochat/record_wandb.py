"""Runs a nanochat script unchanged (`python record_wandb.py scripts.base_train --run NAME ...` from a nanochat
checkout) and keeps its own record as JSONL in $TRUTH:

- wandb.init is replaced by a run that writes every wandb_run.log(...) payload, unrounded (`{"data": ...}`):
  exactly what the script would send to Weights & Biases (base_train.py logs its train metrics every 100 steps,
  its val bpb at every evaluation);
- torch.compile is wrapped so that each training forward of the compiled model (model.training, `model(x, y)`)
  writes the loss it returned (`{"micro_loss": ...}`), in order: grad_accum_steps of them per optimizer step.
The console is the script's."""

import json
import os
import runpy
import sys

import torch
import wandb


def write(obj):
    with open(os.environ["TRUTH"], "a") as f:
        f.write(json.dumps(obj) + "\n")


class RecordingRun:
    def __init__(self, **kwargs):
        write({"init": {k: v for k, v in kwargs.items() if k != "config"}, "config": kwargs.get("config")})

    def log(self, data, step=None, **kwargs):
        write({"data": data, "step": step})

    def finish(self):
        pass


class RecordingModel:
    def __init__(self, compiled):
        self.compiled = compiled

    def __call__(self, *args, **kwargs):
        out = self.compiled(*args, **kwargs)
        if self.compiled.training and len(args) == 2 and kwargs.get("loss_reduction", "mean") == "mean":
            write({"micro_loss": out.item()})
        return out

    def __getattr__(self, name):
        return getattr(self.compiled, name)


real_compile = torch.compile


def compile_recording(model=None, *args, **kwargs):
    compiled = real_compile(model, *args, **kwargs)
    return RecordingModel(compiled) if isinstance(model, torch.nn.Module) else compiled


torch.compile = compile_recording
wandb.init = lambda **kwargs: RecordingRun(**kwargs)
open(os.environ["TRUTH"], "w").close()
module = sys.argv[1]
sys.argv = [module] + sys.argv[2:]
runpy.run_module(module, run_name="__main__", alter_sys=True)
