# Tiny synthetic knowledge graph as a pandas DataFrame (columns 'from', 'rel', 'to'), no downloads.
import numpy as np
import pandas as pd
from torchkge.data_structures import KnowledgeGraph


def make_df(n_ent=60, n_rel=4, n_facts=1500, seed=0):
    rng = np.random.default_rng(seed)
    # structured relations: tail = (head * a_r + b_r) mod n_ent, plus a little noise, so models can learn something
    a = rng.integers(1, 7, size=n_rel)
    b = rng.integers(0, n_ent, size=n_rel)
    heads = rng.integers(0, n_ent, size=n_facts)
    rels = rng.integers(0, n_rel, size=n_facts)
    tails = (heads * a[rels] + b[rels] + rng.integers(0, 3, size=n_facts)) % n_ent
    df = pd.DataFrame({'from': ['e%d' % h for h in heads],
                       'rel': ['r%d' % r for r in rels],
                       'to': ['e%d' % t for t in tails]})
    return df.drop_duplicates().reset_index(drop=True)


def make_kg(**kw):
    return KnowledgeGraph(df=make_df(**kw))
