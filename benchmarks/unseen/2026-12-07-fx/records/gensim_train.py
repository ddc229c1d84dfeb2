"""gensim models trained on corpora shipped with gensim, with INFO logging as gensim's tutorials set it up.

Modes:
  word2vec_lee      : Word2Vec on test/test_data/lee_background.cor (the 'Word2Vec Model' tutorial's MyCorpus,
                      utils.simple_preprocess per line), compute_loss=True, epochs=10;
                      logging format '%(asctime)s : %(levelname)s : %(message)s' (the tutorials' format)
  fasttext_lee      : FastText (skip-gram sg=1, window=10, negative=10, workers=1: epochs over 1 s, so its
                      "EPOCH N - PROGRESS" lines show) on the same
                      corpus, epochs=5; plain logging.basicConfig(level=logging.INFO)
  doc2vec_lee       : Doc2Vec on the same corpus as TaggedDocuments (the 'Doc2Vec Model' tutorial),
                      vector_size=50, min_count=2, epochs=20; the tutorials' format

The record: a CallbackAny2Vec (EpochRecorder) writing one JSON line per epoch: the epoch index (0-based, as
gensim counts cur_epoch), model.get_latest_training_loss() (the cumulative loss of this train() call; it is
only computed by Word2Vec with compute_loss=True), the epoch's seconds as gensim itself measured them
(the increase of model.total_train_time, to which _train_epoch adds the same `elapsed` its
'EPOCH %i: ... took %.1fs' line prints), and the callback's own wall-clock measure of the epoch.
"""
import argparse, json, logging, time

from gensim import utils
from gensim.models import Word2Vec, FastText
from gensim.models.doc2vec import Doc2Vec, TaggedDocument
from gensim.models.callbacks import CallbackAny2Vec
from gensim.test.utils import datapath


class MyCorpus:
    """An iterator that yields sentences (lists of str)."""

    def __iter__(self):
        corpus_path = datapath("lee_background.cor")
        for line in open(corpus_path):
            yield utils.simple_preprocess(line)


class TaggedCorpus:
    def __iter__(self):
        for i, line in enumerate(open(datapath("lee_background.cor"))):
            yield TaggedDocument(utils.simple_preprocess(line), [i])


class EpochRecorder(CallbackAny2Vec):
    def __init__(self, path):
        self.path = path
        self.epoch = 0
        open(path, "w").close()

    def on_epoch_begin(self, model):
        self.t0 = time.perf_counter()
        self.train_time0 = model.total_train_time

    def on_epoch_end(self, model):
        t1 = time.perf_counter()
        rec = {
            "epoch": self.epoch,
            "latest_training_loss": model.get_latest_training_loss(),
            "epoch_seconds_gensim": model.total_train_time - self.train_time0,
            "epoch_seconds_callback": t1 - self.t0,
            "unix_time_end": time.time(),
        }
        with open(self.path, "a") as f:
            f.write(json.dumps(rec) + "\n")
        self.epoch += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["word2vec_lee", "fasttext_lee", "doc2vec_lee"], required=True)
    ap.add_argument("--record", required=True)
    args = ap.parse_args()

    if args.mode == "fasttext_lee":
        logging.basicConfig(level=logging.INFO)
    else:
        logging.basicConfig(format="%(asctime)s : %(levelname)s : %(message)s", level=logging.INFO)

    cb = EpochRecorder(args.record)
    if args.mode == "word2vec_lee":
        model = Word2Vec(sentences=MyCorpus(), vector_size=100, min_count=2, epochs=10, seed=1,
                         compute_loss=True, callbacks=[cb])
    elif args.mode == "fasttext_lee":
        model = FastText(sentences=MyCorpus(), vector_size=100, window=10, negative=10, min_count=2, sg=1, workers=1,
                         epochs=5, seed=1,
                         callbacks=[cb])
    else:
        corpus = list(TaggedCorpus())
        model = Doc2Vec(vector_size=50, min_count=2, epochs=20, seed=1)
        model.build_vocab(corpus)
        model.train(corpus, total_examples=model.corpus_count, epochs=model.epochs, callbacks=[cb])


if __name__ == "__main__":
    main()
