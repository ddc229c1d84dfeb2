"""Capture a real offline W&B run folder on CPU.

Run inside the target folder (wandb writes ./wandb/):
    WANDB_MODE=offline python capture_wandb.py > console.log 2>&1
PYTHONUNBUFFERED unset. Writes truth.jsonl (exactly what was passed to wandb.log) beside wandb/.
"""
import json
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import wandb

CONFIG = {"seq_len": 128, "batch_size": 8, "hidden_size": 64, "num_layers": 2, "lr": 1e-3}
STEPS = 50


class TinyLM(nn.Module):
    def __init__(self, hidden, layers, seq_len, vocab=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden)
        self.pos = nn.Embedding(seq_len, hidden)
        layer = nn.TransformerEncoderLayer(hidden, 4, 2 * hidden, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x):
        t = x.shape[1]
        h = self.emb(x) + self.pos(torch.arange(t))
        mask = nn.Transformer.generate_square_subsequent_mask(t)
        return self.head(self.enc(h, mask=mask, is_causal=True))


def main():
    torch.manual_seed(0)
    text = ("the quick brown fox jumps over the lazy dog. "
            "pack my box with five dozen liquor jugs. ") * 200
    data = torch.tensor(list(text.encode("utf-8")), dtype=torch.long)
    run = wandb.init(project="lp", config=CONFIG)
    c = CONFIG
    model = TinyLM(c["hidden_size"], c["num_layers"], c["seq_len"])
    opt = torch.optim.AdamW(model.parameters(), lr=c["lr"])
    g = torch.Generator().manual_seed(0)
    truth = open("truth.jsonl", "w")
    for step in range(1, STEPS + 1):
        t0 = time.perf_counter()
        starts = torch.randint(0, len(data) - c["seq_len"] - 1, (c["batch_size"],), generator=g)
        batch = torch.stack([data[s:s + c["seq_len"] + 1] for s in starts.tolist()])
        x, y = batch[:, :-1], batch[:, 1:]
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, 256), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        dt = time.perf_counter() - t0
        tokens_per_s = c["batch_size"] * c["seq_len"] / dt
        rec = {"loss": loss.item(), "tokens_per_s": tokens_per_s}
        wandb.log(rec, step=step)
        truth.write(json.dumps({"step": step, **rec}) + "\n")
        print(f"step {step} | loss {rec['loss']:.3f} | {tokens_per_s:.0f} tokens/s")
    truth.close()
    run.finish()


if __name__ == "__main__":
    main()
