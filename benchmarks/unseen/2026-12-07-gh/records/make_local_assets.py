"""Build the local stand-ins for what picotron would fetch from the Hugging Face hub (no network here).

Run from the picotron checkout:  python make_local_assets.py
  assets/tiny-text/train.jsonl        a tiny text dataset ("text" column): docstrings of Python stdlib modules/objects
  assets/tiny-llama/                  a tiny Llama model config (2 layers, hidden 64, 4 heads, 2 kv heads, vocab 512)
                                      + a byte-level BPE tokenizer (vocab 512) trained on that text
  hf_model_safetensors/model.safetensors  random weights of that config (what download_model() would have fetched;
                                      picotron reads the tensor shapes from it, then re-initialises them)
  hf_model/assets/tiny-llama/config.json  marks the model as "already downloaded" for picotron.utils.download_model
"""
import importlib, inspect, json, os, pkgutil, shutil, sys, warnings

warnings.filterwarnings("ignore")
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, decoders, trainers
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

# 1. text: docstrings of stdlib modules and their public members, one paragraph per row
texts, seen = [], set()
names = sorted(m for m in sys.stdlib_module_names if not m.startswith("_"))
for name in names:
    if name in ("antigravity", "this", "idlelib", "tkinter", "turtle", "turtledemo"):
        continue
    try:
        mod = importlib.import_module(name)
    except Exception:
        continue
    objs = [mod] + [getattr(mod, a, None) for a in sorted(dir(mod)) if not a.startswith("_")]
    for o in objs:
        d = inspect.getdoc(o) if o is not None else None
        if not d or len(d) < 200 or d in seen:
            continue
        seen.add(d)
        for para in d.split("\n\n"):
            para = " ".join(para.split())
            if len(para) >= 80:
                texts.append(para)
    if sum(map(len, texts)) > 600_000:
        break
os.makedirs("assets/tiny-text", exist_ok=True)
with open("assets/tiny-text/train.jsonl", "w") as f:
    for t in texts:
        f.write(json.dumps({"text": t}) + "\n")
print(f"dataset: {len(texts)} rows, {sum(map(len, texts))} characters")

# 2. tokenizer: byte-level BPE, vocab 512
tok = Tokenizer(models.BPE())
tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
tok.decoder = decoders.ByteLevel()
tok.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=512, special_tokens=["<|endoftext|>"],
                                                   initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
hf_tok = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|endoftext|>", bos_token="<|endoftext|>",
                                 unk_token="<|endoftext|>")
os.makedirs("assets/tiny-llama", exist_ok=True)
hf_tok.save_pretrained("assets/tiny-llama")

# 3. model config + random safetensors weights
cfg = LlamaConfig(vocab_size=len(hf_tok), hidden_size=64, intermediate_size=256, num_hidden_layers=2,
                  num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
                  rms_norm_eps=1e-5, rope_theta=10000.0, tie_word_embeddings=True,
                  bos_token_id=hf_tok.bos_token_id, eos_token_id=hf_tok.eos_token_id)
cfg.save_pretrained("assets/tiny-llama")
torch.manual_seed(0)
LlamaForCausalLM(cfg).save_pretrained("hf_model_safetensors", safe_serialization=True)
os.makedirs("hf_model/assets/tiny-llama", exist_ok=True)
shutil.copy("assets/tiny-llama/config.json", "hf_model/assets/tiny-llama/config.json")
print("vocab", len(hf_tok), "-> assets/tiny-llama, hf_model_safetensors/, hf_model/assets/tiny-llama/config.json")
