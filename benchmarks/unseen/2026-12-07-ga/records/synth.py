"""Synthetic explicit-feedback triples (user, item, rating 1-5) with a low-rank structure, seeded."""
import numpy as np


def make_triples(n_users=300, n_items=200, n_ratings=8000, k=4, seed=7):
    rng = np.random.default_rng(seed)
    U = rng.normal(size=(n_users, k))
    V = rng.normal(size=(n_items, k))
    pairs = set()
    # popularity-skewed item choice so it looks like real feedback
    pop = rng.zipf(1.3, size=n_items).astype(float)
    pop = pop / pop.sum()
    while len(pairs) < n_ratings:
        u = int(rng.integers(n_users))
        i = int(rng.choice(n_items, p=pop)) if rng.random() < 0.5 else int(rng.integers(n_items))
        pairs.add((u, i))
    triples = []
    for u, i in sorted(pairs):
        s = U[u] @ V[i] / np.sqrt(k) + rng.normal(scale=0.3)
        r = float(np.clip(np.round(3.0 + 1.2 * s), 1, 5))
        triples.append((f"u{u}", f"i{i}", r))
    return triples
