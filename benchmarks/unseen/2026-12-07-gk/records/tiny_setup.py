"""Offline set-up: the Hugging Face hub is not reachable on this machine, so we build a tiny BERT from a
config (random init, seed 0) with a WordPiece vocab of synthetic words, save it as a plain transformers
model directory, and make a synthetic sentence-pair dataset (sentences = random words of one of N topics)."""
import os
import random

import torch
from transformers import BertConfig, BertModel, BertTokenizerFast

N_TOPICS = 10
WORDS_PER_TOPIC = 20
TOPIC_WORDS = [[f"t{t}w{w}" for w in range(WORDS_PER_TOPIC)] for t in range(N_TOPICS)]
COMMON = ["the", "a", "of", "and", "is", "to", "in", "on", "with", "for"]


def build_tiny_bert(path: str) -> str:
    if os.path.exists(os.path.join(path, "config.json")):
        return path
    os.makedirs(path, exist_ok=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + COMMON + [w for ws in TOPIC_WORDS for w in ws]
    with open(os.path.join(path, "vocab.txt"), "w") as f:
        f.write("\n".join(vocab) + "\n")
    # transformers 5: the vocab is passed as `vocab=` (a token->id dict here)
    tok = BertTokenizerFast(vocab={w: i for i, w in enumerate(vocab)}, do_lower_case=True)
    tok.model_max_length = 64
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=64)
    BertModel(cfg).save_pretrained(path)
    tok.save_pretrained(path)
    return path


def sentence(rng: random.Random, topic: int, n: int = 6) -> str:
    words = [rng.choice(TOPIC_WORDS[topic]) for _ in range(n)]
    for _ in range(2):
        words.insert(rng.randrange(len(words) + 1), rng.choice(COMMON))
    return " ".join(words)


def sts_pairs(n: int, seed: int):
    """(sentence1, sentence2, score in [0,1]): same topic -> 0.8..1.0, other topic -> 0.0..0.2."""
    rng = random.Random(seed)
    s1, s2, sc = [], [], []
    for i in range(n):
        t = rng.randrange(N_TOPICS)
        if i % 2 == 0:
            u, score = t, rng.uniform(0.8, 1.0)
        else:
            u, score = (t + rng.randrange(1, N_TOPICS)) % N_TOPICS, rng.uniform(0.0, 0.2)
        s1.append(sentence(rng, t)); s2.append(sentence(rng, u)); sc.append(round(score, 4))
    return s1, s2, sc


def anchor_positive(n: int, seed: int):
    rng = random.Random(seed)
    a, p = [], []
    for _ in range(n):
        t = rng.randrange(N_TOPICS)
        a.append(sentence(rng, t, 4)); p.append(sentence(rng, t))
    return a, p


def ir_data(seed: int, n_queries: int = 20, docs_per_topic: int = 5):
    rng = random.Random(seed)
    corpus, relevant, queries = {}, {}, {}
    for t in range(N_TOPICS):
        for d in range(docs_per_topic):
            corpus[f"d{t}_{d}"] = sentence(rng, t)
    for q in range(n_queries):
        t = q % N_TOPICS
        queries[f"q{q}"] = sentence(rng, t, 4)
        relevant[f"q{q}"] = {f"d{t}_{d}" for d in range(docs_per_topic)}
    return queries, corpus, relevant
