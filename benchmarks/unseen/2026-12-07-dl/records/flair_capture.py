"""Tiny CPU flair runs (synthetic in-memory corpora, one-hot embeddings) with a record of every metric.

python flair_capture.py classifier OUTDIR   # TextClassifier, ModelTrainer.train (SGD), dev eval + best-model saves
python flair_capture.py classifier_resume OUTDIR FROM_MODEL   # continue FROM_MODEL (best-model.pt of the classifier run)
                                            # with ModelTrainer.train(epoch=3, max_epochs=5): epochs 4 and 5
python flair_capture.py tagger OUTDIR       # SequenceTagger, ModelTrainer.fine_tune (AdamW + linear warmup/decay), save each epoch

The record OUTDIR/record.jsonl holds, in order of occurrence:
  {"kind": "metric", ...}      every MetricRecord the trainer dispatches (metric_recorded hook): name, value, global_step, walltime
  {"kind": "forward_loss", ...} every model.forward_loss call of training: loss.item() and the datapoint count it returned
  {"kind": "time", ...}        every time.time() call made by flair/trainers/trainer.py (epoch_start_time / current_time)
  {"kind": "hook", ...}        before_training_epoch / after_training_batch events (epoch, batch_no, batch_count)
"""
import json
import random
import sys
import time as _time
from pathlib import Path

import torch

import flair
import flair.trainers.trainer as trainer_mod
from flair.data import Corpus, Sentence
from flair.datasets import FlairDatapointDataset
from flair.embeddings import DocumentPoolEmbeddings, OneHotEmbeddings
from flair.models import SequenceTagger, TextClassifier
from flair.trainers import ModelTrainer
from flair.trainers.plugins.base import TrainerPlugin

mode, out = sys.argv[1], Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
REC = open(out / "record.jsonl", "w")


def rec(**kw):
    REC.write(json.dumps(kw) + "\n")
    REC.flush()


class _TimeProxy:
    """Stands in for the `time` module inside flair/trainers/trainer.py and records each time.time() value."""

    def __getattr__(self, name):
        return getattr(_time, name)

    def time(self):
        t = _time.time()
        rec(kind="time", value=t)
        return t


trainer_mod.time = _TimeProxy()


class RecordPlugin(TrainerPlugin):
    @TrainerPlugin.hook
    def metric_recorded(self, record):
        v = record.value
        if isinstance(v, torch.Tensor):
            v = v.tolist()
        try:
            json.dumps(v)
        except TypeError:
            v = str(v)
        rec(kind="metric", name=list(record.name), value=v, global_step=record.global_step, walltime=record.walltime)

    @TrainerPlugin.hook
    def before_training_epoch(self, epoch, **kw):
        rec(kind="hook", event="before_training_epoch", epoch=epoch)

    @TrainerPlugin.hook
    def after_training_batch(self, epoch, batch_no, batch_count, total_number_of_batches, **kw):
        rec(kind="hook", event="after_training_batch", epoch=epoch, batch_no=batch_no, batch_count=batch_count,
            total_number_of_batches=total_number_of_batches)


def wrap_forward_loss(model):
    orig = model.forward_loss

    def forward_loss(*a, **k):
        loss, count = orig(*a, **k)
        if model.training:
            rec(kind="forward_loss", loss=loss.item(), count=count)
        return loss, count

    model.forward_loss = forward_loss


random.seed(0)
torch.manual_seed(0)
flair.device = torch.device("cpu")

if mode in ("classifier", "classifier_resume"):
    pos = ["good", "great", "fine", "nice", "happy", "superb"]
    neg = ["bad", "awful", "poor", "sad", "terrible", "worse"]
    filler = ["the", "a", "movie", "was", "very", "plot", "actors", "and", "it", "really", "quite", "film"]

    def make(n):
        sents = []
        for _ in range(n):
            lab = random.choice(["POS", "NEG"])
            words = random.choices(filler, k=random.randint(4, 9))
            words.insert(random.randrange(len(words)), random.choice(pos if lab == "POS" else neg))
            s = Sentence(" ".join(words))
            s.add_label("sentiment", lab)
            sents.append(s)
        return FlairDatapointDataset(sents)

    corpus = Corpus(make(300), make(60), None, sample_missing_splits=False)
    label_dict = corpus.make_label_dictionary("sentiment", add_unk=False)
    if mode == "classifier":
        emb = DocumentPoolEmbeddings([OneHotEmbeddings.from_corpus(corpus, embedding_length=16)])
        model = TextClassifier(emb, label_type="sentiment", label_dictionary=label_dict)
        wrap_forward_loss(model)
        trainer = ModelTrainer(model, corpus)
        trainer.train(out, learning_rate=0.1, mini_batch_size=10, max_epochs=3, plugins=[RecordPlugin()])
    else:
        model = TextClassifier.load(sys.argv[3])
        wrap_forward_loss(model)
        trainer = ModelTrainer(model, corpus)
        trainer.train(out, learning_rate=0.1, mini_batch_size=10, max_epochs=5, epoch=3, plugins=[RecordPlugin()])
elif mode == "tagger":
    classes = {"DET": ["the", "a", "this"], "NOUN": ["cat", "dog", "house", "tree", "car"],
               "VERB": ["sees", "likes", "runs", "eats"], "ADJ": ["big", "red", "old"]}

    def make(n):
        sents = []
        for _ in range(n):
            pattern = ["DET", "ADJ", "NOUN", "VERB", "DET", "NOUN"][: random.randint(3, 6)]
            words = [random.choice(classes[t]) for t in pattern]
            s = Sentence(" ".join(words))
            for tok, t in zip(s, pattern):
                tok.add_label("pos", t)
            sents.append(s)
        return FlairDatapointDataset(sents)

    corpus = Corpus(make(200), make(40), make(40))
    tag_dict = corpus.make_label_dictionary("pos", add_unk=False)
    emb = OneHotEmbeddings.from_corpus(corpus, field="text", embedding_length=16)
    model = SequenceTagger(hidden_size=16, embeddings=emb, tag_dictionary=tag_dict, tag_type="pos",
                           use_rnn=True, use_crf=False)
    wrap_forward_loss(model)
    trainer = ModelTrainer(model, corpus)
    result = trainer.fine_tune(out, learning_rate=0.01, mini_batch_size=8, max_epochs=2,
                               save_model_each_k_epochs=1, plugins=[RecordPlugin()])
else:
    raise SystemExit("mode: classifier | tagger")
REC.close()
