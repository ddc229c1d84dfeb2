"""A tiny synthetic two-class sentiment data set, built locally (seeded): 'the <subject> was <adjective> <tail>'."""
import random

SUBJECTS = ["movie", "film", "plot", "acting", "story", "ending", "soundtrack", "cast", "script", "director"]
POS = ["great", "wonderful", "brilliant", "delightful", "moving", "superb", "charming", "excellent"]
NEG = ["terrible", "boring", "awful", "dull", "clumsy", "tedious", "weak", "dreadful"]
TAILS = ["overall", "from start to finish", "in every scene", "to be honest", "i think", "for sure"]


def all_words():
    words = set()
    for group in (SUBJECTS, POS, NEG, TAILS, ["the", "was"]):
        for phrase in group:
            words.update(phrase.split())
    return words


def make(n_per_class, seed):
    rng = random.Random(seed)
    rows = []
    for label, adjs in ((1, POS), (0, NEG)):
        for _ in range(n_per_class):
            rows.append({"text": f"the {rng.choice(SUBJECTS)} was {rng.choice(adjs)} {rng.choice(TAILS)}", "label": label})
    rng.shuffle(rows)
    return rows
