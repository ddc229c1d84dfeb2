# Toy parallel corpus (stand-in for OpenNMT-py's quickstart toy-ende, which is a download): the target is the
# source sequence reversed, over a 20-word vocabulary.
import random, os
random.seed(0)
vocab = [f"w{i}" for i in range(20)]
os.makedirs("toy", exist_ok=True)
for split, n in (("train", 2000), ("val", 100)):
    with open(f"toy/src-{split}.txt", "w") as s, open(f"toy/tgt-{split}.txt", "w") as t:
        for _ in range(n):
            seq = random.choices(vocab, k=random.randint(3, 8))
            s.write(" ".join(seq) + "\n"); t.write(" ".join(reversed(seq)) + "\n")
