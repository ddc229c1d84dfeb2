"""Word2Vec training as the gensim tutorials do it: INFO logging, compute_loss=True, a CallbackAny2Vec
that records model.get_latest_training_loss() at every epoch end (the run's record, written to JSONL).

usage: python train_w2v.py MODE RECORD.jsonl
  MODE cbow    : CBOW, 20 epochs, callback records silently
  MODE sg      : skip-gram, 15 epochs, callback also prints the loss per epoch; model saved at the end
  MODE resume  : loads the sg model and trains 6 more epochs, callback logs the loss through logging
"""
import json
import logging
import sys
import time

from gensim.models import Word2Vec
from gensim.models.callbacks import CallbackAny2Vec

from corpus_gen import make_sentences

logging.basicConfig(format='%(asctime)s : %(levelname)s : %(message)s', level=logging.INFO)
log = logging.getLogger("train_w2v")


class LossRecorder(CallbackAny2Vec):
    """Writes one JSON line per epoch: epoch index (0-based, as gensim's own EPOCH lines count), the value of
    get_latest_training_loss() (cumulative over the current train() call), the lr (model.min_alpha_yet_reached)."""

    def __init__(self, path, announce=None):
        self.path = path
        self.announce = announce
        self.epoch = 0
        self.fh = open(path, "w")

    def on_epoch_begin(self, model):
        self.t0 = time.time()

    def on_epoch_end(self, model):
        loss = model.get_latest_training_loss()
        rec = {"epoch": self.epoch, "training_loss": loss, "min_alpha_yet_reached": model.min_alpha_yet_reached,
               "epoch_wall_s": time.time() - self.t0}
        self.fh.write(json.dumps(rec) + "\n")
        self.fh.flush()
        if self.announce == "print":
            print('Loss after epoch {}: {}'.format(self.epoch, loss), flush=True)
        elif self.announce == "log":
            log.info("epoch %d: latest training loss %s", self.epoch, loss)
        self.epoch += 1

    def on_train_end(self, model):
        self.fh.close()


def main():
    mode, record = sys.argv[1], sys.argv[2]
    sentences = make_sentences()
    if mode == "cbow":
        Word2Vec(sentences, vector_size=50, window=5, min_count=2, sg=0, negative=5, epochs=20, workers=2,
                 seed=1, compute_loss=True, callbacks=[LossRecorder(record)])
    elif mode == "sg":
        model = Word2Vec(sentences, vector_size=50, window=5, min_count=2, sg=1, negative=5, epochs=15,
                         workers=2, seed=2, compute_loss=True, callbacks=[LossRecorder(record, "print")])
        model.save("w2v_sg.model")
    elif mode == "resume":
        model = Word2Vec.load("w2v_sg.model")
        model.train(sentences, total_examples=model.corpus_count, epochs=6, compute_loss=True,
                    callbacks=[LossRecorder(record, "log")])
        print(model.wv.most_similar("t0w0", topn=3), flush=True)
    else:
        raise SystemExit("unknown mode " + mode)


if __name__ == "__main__":
    main()
