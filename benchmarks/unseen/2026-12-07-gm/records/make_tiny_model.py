"""Build a tiny, randomly initialised BERT sentence-transformer locally (the Hugging Face hub is unreachable here).

Vocabulary = BERT special tokens + every word of the synthetic data (records/tiny_data.py) + a-z/0-9 characters;
BertConfig(hidden 32, 2 layers, 2 heads, intermediate 64), torch.manual_seed(0); then a SentenceTransformer of
Transformer + mean Pooling saved to OUT_DIR.
"""
import sys, os, string
import torch
from transformers import BertConfig, BertModel, BertTokenizerFast
from sentence_transformers.sentence_transformer.modules import Transformer, Pooling
from sentence_transformers import SentenceTransformer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tiny_data import all_words

out = sys.argv[1]
raw = out + "_hf"
os.makedirs(raw, exist_ok=True)
vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + sorted(all_words()) + list(string.ascii_lowercase + string.digits + ".,!?'")
seen = []
for v in vocab:
    if v not in seen:
        seen.append(v)
with open(os.path.join(raw, "vocab.txt"), "w") as f:
    f.write("\n".join(seen) + "\n")
tok = BertTokenizerFast(vocab_file=os.path.join(raw, "vocab.txt"), do_lower_case=True, model_max_length=64)
tok.save_pretrained(raw)
torch.manual_seed(0)
cfg = BertConfig(vocab_size=len(seen), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                 intermediate_size=64, max_position_embeddings=64)
BertModel(cfg).save_pretrained(raw)
body = Transformer(raw, max_seq_length=64)
pool = Pooling(body.get_embedding_dimension(), "mean")
st = SentenceTransformer(modules=[body, pool])
st.save(out)
print("saved", out, "vocab", len(seen), "params", sum(p.numel() for p in st.parameters()))
