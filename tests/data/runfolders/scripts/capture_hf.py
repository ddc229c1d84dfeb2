"""Capture a real Hugging Face Trainer output_dir on CPU.

Run (from the capture work dir; the output dir is created there):
    python capture_hf.py > hf_output/train.log 2>&1
with PYTHONUNBUFFERED unset and progress bars left on.
Tiny random-init Llama, synthetic byte-level data, no downloads.
"""
import os
import sys

import torch
from torch.utils.data import Dataset
from transformers import (LlamaConfig, LlamaForCausalLM, Trainer,
                          TrainingArguments, set_seed)

OUT = sys.argv[1] if len(sys.argv) > 1 else "hf_output"
# hf_eval/: `python capture_hf.py out2 eval` (evaluation every 8 steps, logging every 3, saves every 12, 24 steps)
EVAL = len(sys.argv) > 2 and sys.argv[2] == "eval"
SEQ_LEN = 64


class ByteDataset(Dataset):
    """Synthetic byte-level LM data: repeated English-ish text as bytes."""

    def __init__(self, n=512, seq_len=SEQ_LEN, seed=0):
        text = ("the quick brown fox jumps over the lazy dog. "
                "pack my box with five dozen liquor jugs. ") * 200
        data = torch.tensor(list(text.encode("utf-8")), dtype=torch.long)
        g = torch.Generator().manual_seed(seed)
        starts = torch.randint(0, len(data) - seq_len - 1, (n,), generator=g)
        self.items = [data[s:s + seq_len] for s in starts.tolist()]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        x = self.items[i]
        return {"input_ids": x, "labels": x.clone(),
                "attention_mask": torch.ones_like(x)}


def main():
    set_seed(0)
    cfg = LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, vocab_size=256,
                      max_position_embeddings=128)
    model = LlamaForCausalLM(cfg)
    args = TrainingArguments(
        output_dir=OUT,
        max_steps=24 if EVAL else 30,
        **({"eval_strategy": "steps", "eval_steps": 8} if EVAL else {}),
        per_device_train_batch_size=4,
        gradient_accumulation_steps=2,
        logging_steps=3 if EVAL else 5,
        save_steps=12 if EVAL else 10,
        report_to=["tensorboard"],
        seed=0,
        use_cpu=True,
    )
    evals = ByteDataset(n=32, seed=1) if EVAL else None
    trainer = Trainer(model=model, args=args, train_dataset=ByteDataset(), eval_dataset=evals)
    trainer.train()
    trainer.save_model()
    trainer.save_state()


if __name__ == "__main__":
    main()
