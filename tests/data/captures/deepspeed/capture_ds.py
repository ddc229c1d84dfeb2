"""A tiny DeepSpeed training loop on CPU, printing its own loss every step beside DeepSpeed's lines.

Run (see README.md): DS_ACCELERATOR=cpu torchrun --nproc_per_node N capture_ds.py OUT_PREFIX [--default-print]
(or DS_ACCELERATOR=cpu deepspeed --num_gpus N capture_ds.py OUT_PREFIX)
Each rank prints `step {n} loss {loss:.4f}` after engine.step() (n = engine.global_steps, 1-based) and
appends {"rank", "step", "loss"} to OUT_PREFIX.rank<r>.jsonl: the script's own record, the truth.
DeepSpeed prints its `step=N, skipped=...` and throughput-timer lines every steps_per_print = 5 steps; with
--default-print steps_per_print is left unset (DeepSpeed's default, None: no step lines at all).
"""

import json
import os
import sys

import torch

torch.set_num_threads(1)
import deepspeed  # noqa: E402

STEPS = 30
VOCAB, DIM, SEQ, MBS = 64, 32, 16, 4


class TinyLM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(VOCAB, DIM)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(DIM, DIM), torch.nn.GELU(), torch.nn.Linear(DIM, VOCAB))

    def forward(self, x):
        return self.mlp(self.emb(x))


def main():
    out = next(a for a in sys.argv[1:] if not a.startswith("--"))  # the deepspeed launcher adds --local_rank=N
    deepspeed.init_distributed(dist_backend="gloo")
    rank = torch.distributed.get_rank()
    torch.manual_seed(0)
    model = TinyLM()
    config = {
        "train_micro_batch_size_per_gpu": MBS,
        "gradient_accumulation_steps": 1,
        "steps_per_print": 5,
        "log_level": "info",  # DeepSpeed 0.19 logs at WARNING by default: no step lines without it
        "optimizer": {"type": "AdamW", "params": {"lr": 3e-3, "torch_adam": True}},
    }
    if "--default-print" in sys.argv:
        del config["steps_per_print"]
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=config)
    gen = torch.Generator().manual_seed(1234 + rank)  # each rank its own data: its own loss
    with open(f"{out}.rank{rank}.jsonl", "w") as truth:
        for _ in range(STEPS):
            x = torch.randint(0, VOCAB, (MBS, SEQ + 1), generator=gen)
            logits = engine(x[:, :-1])
            loss = torch.nn.functional.cross_entropy(logits.reshape(-1, VOCAB), x[:, 1:].reshape(-1))
            engine.backward(loss)
            engine.step()
            step = engine.global_steps
            print(f"step {step} loss {loss.item():.4f}")
            truth.write(json.dumps({"rank": rank, "step": step, "loss": loss.item()}) + "\n")
    torch.distributed.barrier()
    torch.distributed.destroy_process_group()  # a clean exit (without it a rank may abort at teardown)


if __name__ == "__main__":
    main()
