"""Synthetic corpus: sentences drawn from 8 topics of 25 words each, plus 20 shared function words."""
import random


def make_sentences(n=3000, seed=42):
    rng = random.Random(seed)
    topics = [[f"t{t}w{i}" for i in range(25)] for t in range(8)]
    common = [f"c{i}" for i in range(20)]
    out = []
    for _ in range(n):
        topic = rng.choice(topics)
        length = rng.randint(6, 14)
        out.append([rng.choice(topic) if rng.random() < 0.75 else rng.choice(common) for _ in range(length)])
    return out
