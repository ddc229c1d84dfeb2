import random, spacy
from spacy.tokens import DocBin
random.seed(0)
nlp = spacy.blank("en")
pos = ["great", "excellent", "wonderful", "lovely", "fantastic", "good", "superb"]
neg = ["terrible", "awful", "bad", "horrible", "poor", "dreadful", "boring"]
nouns = ["movie", "meal", "service", "book", "trip", "game", "show", "phone"]
def make(n):
    db = DocBin()
    for i in range(n):
        lab = random.random() < 0.5
        w = random.choice(pos if lab else neg)
        text = f"The {random.choice(nouns)} was really {w} and I {'liked' if lab else 'hated'} it."
        doc = nlp.make_doc(text)
        doc.cats = {"POSITIVE": float(lab), "NEGATIVE": float(not lab)}
        db.add(doc)
    return db
make(48).to_disk("train.spacy")
make(16).to_disk("dev.spacy")
