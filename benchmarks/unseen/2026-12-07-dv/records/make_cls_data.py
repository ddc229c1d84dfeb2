"""Synthetic binary classification data in VW text format (labels -1/1), deterministic."""
import math, random, sys
n, seed, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
w = [1.5, -2.0, 0.8, 0.0, 1.2]
with open(path, "w") as fh:
    for i in range(n):
        x = [rng.gauss(0, 1) for _ in w]
        color = rng.choice(["red", "green", "blue"])
        z = sum(a * b for a, b in zip(w, x)) + {"red": 0.7, "green": -0.4, "blue": 0.0}[color] - 0.2
        y = 1 if rng.random() < 1 / (1 + math.exp(-z)) else -1
        fh.write(f"{y} |num " + " ".join(f"x{j}:{v:.4f}" for j, v in enumerate(x)) + f" |cat {color}\n")
