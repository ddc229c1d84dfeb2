"""Build a tiny synthetic English-like treebank (CoNLL-U + raw text) for stanza training.

python make_data.py OUTDIR   -> OUTDIR/{train,dev}.conllu, {train,dev}.txt
"""
import os, random, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = random.Random(7)
DET = ["the", "a", "this", "that", "every"]
ADJ = ["big", "small", "red", "old", "quick", "quiet", "green", "happy"]
NOUN = [("dog", "dogs"), ("cat", "cats"), ("bird", "birds"), ("house", "houses"), ("tree", "trees"),
        ("child", "children"), ("box", "boxes"), ("city", "cities"), ("car", "cars"), ("man", "men")]
VERB = [("see", "sees", "saw"), ("like", "likes", "liked"), ("find", "finds", "found"), ("walk", "walks", "walked"),
        ("carry", "carries", "carried"), ("watch", "watches", "watched"), ("take", "takes", "took")]
ADV = ["quickly", "slowly", "often", "today"]


def sentence():
    toks = []  # (form, lemma, upos, xpos)
    def np_():
        d = rng.choice(DET)
        toks.append((d, d, "DET", "DT"))
        if rng.random() < 0.5:
            a = rng.choice(ADJ)
            toks.append((a, a, "ADJ", "JJ"))
        n = rng.choice(NOUN)
        plural = rng.random() < 0.4
        toks.append((n[1] if plural else n[0], n[0], "NOUN", "NNS" if plural else "NN"))
    np_()
    v = rng.choice(VERB)
    k = rng.randrange(2)
    toks.append((v[1 + k], v[0], "VERB", "VBZ" if k == 0 else "VBD"))
    np_()
    if rng.random() < 0.3:
        a = rng.choice(ADV)
        toks.append((a, a, "ADV", "RB"))
    toks.append((".", ".", "PUNCT", "."))
    f = toks[0]
    toks[0] = (f[0].capitalize(),) + f[1:]
    return toks


def write(name, n, start):
    with open(os.path.join(out, name + ".conllu"), "w") as fc, open(os.path.join(out, name + ".txt"), "w") as ft:
        paras = []
        for i in range(n):
            toks = sentence()
            text = " ".join(t[0] for t in toks[:-1]) + "."
            fc.write("# sent_id = %s-%d\n# text = %s\n" % (name, start + i, text))
            for j, (form, lemma, upos, xpos) in enumerate(toks, 1):
                head = 0 if j == 1 else 1
                rel = "root" if j == 1 else "dep"
                misc = "SpaceAfter=No" if j == len(toks) - 1 else "_"
                fc.write("\t".join([str(j), form, lemma, upos, xpos, "_", str(head), rel, "_", misc]) + "\n")
            fc.write("\n")
            paras.append(text)
        # five sentences per paragraph, paragraphs separated by a blank line
        ft.write("\n\n".join(" ".join(paras[k:k + 5]) for k in range(0, len(paras), 5)) + "\n")


write("train", 200, 1)
write("dev", 40, 1)
