"""Tiny stand-in for the repository's fineweb.py: same tokenize() (eot + enc.encode_ordinary, uint16),
same write_datafile (np.save), same shard naming (edufineweb_{split}_{index:06d}, shard 0 = val, the rest train),
same shard-filling loop; only the source text (the repository's own input.txt, tiny Shakespeare, split into
documents at blank lines), shard_size (1e8 -> 100_000) and a plain loop instead of mp.Pool/tqdm differ."""
import os
import numpy as np
import tiktoken

local_dir = "edu_fineweb10B"
shard_size = 100_000
DATA_CACHE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), local_dir)
os.makedirs(DATA_CACHE_DIR, exist_ok=True)

docs = [{"text": d} for d in open("input.txt", encoding="utf-8").read().split("\n\n") if d.strip()]

enc = tiktoken.get_encoding("gpt2")
eot = enc._special_tokens['<|endoftext|>']
def tokenize(doc):
    tokens = [eot]
    tokens.extend(enc.encode_ordinary(doc["text"]))
    tokens_np = np.array(tokens)
    assert (0 <= tokens_np).all() and (tokens_np < 2**16).all(), "token dictionary too large for uint16"
    return tokens_np.astype(np.uint16)

def write_datafile(filename, tokens_np):
    np.save(filename, tokens_np)
    print(filename + ".npy", len(tokens_np))

shard_index = 0
all_tokens_np = np.empty((shard_size,), dtype=np.uint16)
token_count = 0
for tokens in map(tokenize, docs):
    if token_count + len(tokens) < shard_size:
        all_tokens_np[token_count:token_count+len(tokens)] = tokens
        token_count += len(tokens)
    else:
        split = "val" if shard_index == 0 else "train"
        filename = os.path.join(DATA_CACHE_DIR, f"edufineweb_{split}_{shard_index:06d}")
        remainder = shard_size - token_count
        all_tokens_np[token_count:token_count+remainder] = tokens[:remainder]
        write_datafile(filename, all_tokens_np)
        shard_index += 1
        all_tokens_np[0:len(tokens)-remainder] = tokens[remainder:]
        token_count = len(tokens)-remainder
if token_count != 0:
    split = "val" if shard_index == 0 else "train"
    filename = os.path.join(DATA_CACHE_DIR, f"edufineweb_{split}_{shard_index:06d}")
    write_datafile(filename, all_tokens_np[:token_count])
