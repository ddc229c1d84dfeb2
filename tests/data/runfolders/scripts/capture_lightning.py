"""Capture a real Lightning 2.x run folder on CPU.

Usage:
    python capture_lightning.py csv ROOT   > ROOT/train.log 2>&1   # CSVLogger(save_dir=ROOT, name="lightning_logs")
    python capture_lightning.py tb  ROOT   > ROOT/train.log 2>&1   # default logger (TensorBoardLogger), default_root_dir=ROOT
    # gradient accumulation 2 over 3 epochs of 20 micro-batches (30 optimizer steps), every step logged
    python capture_lightning.py csv ROOT --accumulate 2 --epochs 3 --samples 160 --log-every 1 > ROOT/train.log 2>&1
PYTHONUNBUFFERED unset, progress bar left on. Tiny random-init causal transformer, synthetic bytes.
"""
import argparse

import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from lightning.pytorch.loggers import CSVLogger
from torch.utils.data import DataLoader, Dataset


class ByteDataset(Dataset):
    def __init__(self, n=128, seq_len=64, seed=0):
        text = ("the quick brown fox jumps over the lazy dog. "
                "pack my box with five dozen liquor jugs. ") * 200
        data = torch.tensor(list(text.encode("utf-8")), dtype=torch.long)
        g = torch.Generator().manual_seed(seed)
        starts = torch.randint(0, len(data) - seq_len - 1, (n,), generator=g)
        self.items = [data[s:s + seq_len + 1] for s in starts.tolist()]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        x = self.items[i]
        return x[:-1], x[1:]


class TinyLM(L.LightningModule):
    def __init__(self, seq_len=64, batch_size=8, hidden_size=64, num_layers=2,
                 num_heads=4, vocab_size=256, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.emb = nn.Embedding(vocab_size, hidden_size)
        self.pos = nn.Embedding(seq_len, hidden_size)
        layer = nn.TransformerEncoderLayer(hidden_size, num_heads, 2 * hidden_size,
                                           dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, num_layers)
        self.head = nn.Linear(hidden_size, vocab_size)

    def forward(self, x):
        t = x.shape[1]
        h = self.emb(x) + self.pos(torch.arange(t, device=x.device))
        mask = nn.Transformer.generate_square_subsequent_mask(t)
        return self.head(self.enc(h, mask=mask, is_causal=True))

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        self.log("train_loss", loss, on_step=True, on_epoch=False, prog_bar=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["csv", "tb"])
    p.add_argument("root")
    p.add_argument("--accumulate", type=int, default=1, help="accumulate_grad_batches")
    p.add_argument("--epochs", type=int, default=None, help="max_epochs (then no max_steps)")
    p.add_argument("--samples", type=int, default=128, help="samples in the dataset (8 per micro-batch)")
    p.add_argument("--log-every", type=int, default=5, help="log_every_n_steps")
    args = p.parse_args()
    mode, root = args.mode, args.root
    L.seed_everything(0)
    model = TinyLM()
    dl = DataLoader(ByteDataset(n=args.samples), batch_size=model.hparams.batch_size, shuffle=True)
    stop = dict(max_steps=40) if args.epochs is None else dict(max_epochs=args.epochs)
    kw = dict(log_every_n_steps=args.log_every, accelerator="cpu", devices=1, **stop)
    if args.accumulate != 1:
        kw["accumulate_grad_batches"] = args.accumulate
    if mode == "csv":
        trainer = L.Trainer(logger=CSVLogger(save_dir=root, name="lightning_logs"), **kw)
    else:
        trainer = L.Trainer(default_root_dir=root, **kw)
    trainer.fit(model, dl)


if __name__ == "__main__":
    main()
