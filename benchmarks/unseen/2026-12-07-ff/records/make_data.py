"""Synthetic training data for the spaCy captures (written with spaCy's DocBin)."""
import random
import sys
from pathlib import Path

import spacy
from spacy.tokens import DocBin

out = Path(sys.argv[1] if len(sys.argv) > 1 else "data")
out.mkdir(parents=True, exist_ok=True)
nlp = spacy.blank("en")
rng = random.Random(7)

# ---- textcat: POSITIVE / NEGATIVE (exclusive) short sentences
subj = ["the movie", "this phone", "the food", "our hotel", "the service", "my new laptop", "the concert", "that book",
        "the coffee", "this game"]
pos = ["was great", "is wonderful", "felt amazing", "was excellent", "is really good", "made me happy", "was lovely",
       "works perfectly"]
neg = ["was terrible", "is awful", "felt boring", "was horrible", "is really bad", "made me angry", "was disappointing",
       "broke quickly"]
tail = ["", " today", " overall", " again", " for sure", " honestly"]


def textcat_docs(n):
    docs = []
    for i in range(n):
        label = rng.random() < 0.5
        text = f"{rng.choice(subj).capitalize()} {rng.choice(pos if label else neg)}{rng.choice(tail)}."
        doc = nlp.make_doc(text)
        doc.cats = {"POSITIVE": float(label), "NEGATIVE": float(not label)}
        docs.append(doc)
    return docs


# ---- ner: PERSON / ORG / GPE in templates
people = ["Alice Smith", "Bob", "Carlos Diaz", "Dana", "Erik Olsen", "Fatima Khan", "Grace", "Hiro Tanaka"]
orgs = ["Google", "Acme Systems", "the United Nations", "Siemens", "Red Cross", "Spotify", "Tesla", "IKEA"]
places = ["Berlin", "Paris", "New York", "Tokyo", "Lagos", "Lima", "Oslo", "Cairo"]
templates = ["{P} works at {O} in {G}.", "{P} moved to {G} last year.", "{O} opened an office in {G}.",
             "Yesterday {P} met the boss of {O}.", "{P} and {P2} flew to {G}.", "{O} hired {P} in {G}.",
             "{G} is where {P} grew up.", "{P2} left {O} for {G}.", "In {G} , {O} sold it to {P}."]


syl = ["ka", "lo", "mi", "ren", "tor", "vi", "sa", "bel", "dun", "ra", "zo", "fen"]


def rand_name(k):
    return " ".join("".join(rng.choice(syl) for _ in range(rng.randint(2, 3))).capitalize() for _ in range(k))


def ner_docs(n):
    docs = []
    for i in range(n):
        t = rng.choice(templates)
        # half of the names are random syllable strings, so the dev set holds unseen names
        pick = lambda pool, k: rng.choice(pool) if rng.random() < 0.5 else rand_name(k)
        fills = {"P": (pick(people, 2), "PERSON"), "P2": (pick(people, 1), "PERSON"),
                 "O": (pick(orgs, 1), "ORG"), "G": (pick(places, 1), "GPE")}
        text, spans, pos_ = "", [], 0
        parts = t.replace("{", "\x00{").replace("}", "}\x00").split("\x00")
        for part in parts:
            if part.startswith("{") and part.endswith("}"):
                val, lab = fills[part[1:-1]]
                spans.append((len(text), len(text) + len(val), lab))
                text += val
            else:
                text += part
        doc = nlp.make_doc(text)
        ents = [doc.char_span(s, e, label=l) for s, e, l in spans]
        assert all(e is not None for e in ents), text
        doc.ents = ents
        docs.append(doc)
    return docs


# ---- tagger: a tiny tag set on template sentences
lex = {"DT": ["the", "a", "this", "every"], "NN": ["dog", "cat", "teacher", "car", "river", "bird"],
       "VBZ": ["sees", "likes", "follows", "hears"], "JJ": ["big", "small", "red", "quiet"],
       "RB": ["often", "never", "quickly"], ".": ["."]}
shapes = [["DT", "NN", "VBZ", "DT", "NN", "."], ["DT", "JJ", "NN", "RB", "VBZ", "DT", "NN", "."],
          ["DT", "NN", "VBZ", "DT", "JJ", "NN", "."]]


def tagger_docs(n):
    from spacy.tokens import Doc
    docs = []
    for i in range(n):
        tags = rng.choice(shapes)
        words = [rng.choice(lex[t]) for t in tags]
        docs.append(Doc(nlp.vocab, words=words, tags=tags))
    return docs


for name, fn, ntrain, ndev in [("textcat", textcat_docs, 200, 60), ("ner", ner_docs, 200, 50),
                               ("tagger", tagger_docs, 200, 50)]:
    DocBin(docs=fn(ntrain), store_user_data=False).to_disk(out / f"{name}_train.spacy")
    DocBin(docs=fn(ndev), store_user_data=False).to_disk(out / f"{name}_dev.spacy")
    print(name, ntrain, ndev)
