"""Deterministic synthetic corpora for fastText: labelled sentences (supervised) and plain text (skipgram)."""
import random, sys

def topic_vocab(rng):
    topics = {
        "sports": "ball goal team match score coach player league season win stadium referee",
        "weather": "rain sun cloud storm wind snow forecast cold warm humid thunder breeze",
        "cooking": "oven salt pepper bake boil recipe flour sugar butter garlic onion sauce",
        "music": "guitar drum song melody chord rhythm band concert piano tempo lyric singer",
    }
    common = "the a of and to in is it that was for on with as at by this from or".split()
    return {k: v.split() for k, v in topics.items()}, common

def sentence(rng, words, common, n):
    return " ".join(rng.choice(words) if rng.random() < 0.35 else rng.choice(common) for _ in range(n))

if __name__ == "__main__":
    kind, n, seed, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    rng = random.Random(seed)
    topics, common = topic_vocab(rng)
    names = sorted(topics)
    with open(path, "w") as fh:
        for i in range(n):
            t = rng.choice(names)
            words = topics[t] + ([w + str(rng.randint(0, 40)) for w in topics[t][:3]])
            s = sentence(rng, words, common, rng.randint(6, 16))
            lab = rng.choice(names) if rng.random() < 0.1 else t  # 10% label noise
            fh.write((f"__label__{lab} {s}\n") if kind == "sup" else (s + "\n"))
