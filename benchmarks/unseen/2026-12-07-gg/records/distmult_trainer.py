# TorchKGE "Shortest training" (docs/tutorials/transe_wrappers.rst): torchkge.utils.Trainer, here with a
# DistMult model and the BinaryCrossEntropyLoss, on a tiny synthetic KG, CPU (use_cuda=None), then the doc's
# LinkPredictionEvaluator(model, kg_test).evaluate(200) and print_results().
# The record: Trainer.run() keeps nothing, so a subclass hook on Trainer.process_batch (the method run()
# calls once per batch, returning loss.detach().item()) keeps every batch loss; the per-epoch mean is
# rebuilt exactly as run() computes it (sum_ += loss over the epoch's batches, then sum_ / len(data_loader)).
import argparse
import json

import torch
from torch.optim import Adam

from torchkge.evaluation import LinkPredictionEvaluator
from torchkge.models import DistMultModel
from torchkge.utils import Trainer, BinaryCrossEntropyLoss
from torchkge.utils.data import get_n_batches

from torchkge.utils import training as _training

from synth_kg import make_kg

# Workaround for the Trainer bug reported at github.com/torchkge-team/torchkge/issues/256 (fixed on the develop branch by pull 257, not in any PyPI release):
# in 0.17.7 Trainer.run() calls TrainDataLoader.get_counter_examples() before the loader was ever iterated,
# so self.iterator is None and run() dies with AttributeError before the first epoch. Let that call
# return None instead; Trainer.run() itself (its loop and its tqdm bar) is untouched.
_orig_get_counter_examples = _training.TrainDataLoader.get_counter_examples


def _get_counter_examples(self):
    if self.iterator is None:
        return None
    return _orig_get_counter_examples(self)


_training.TrainDataLoader.get_counter_examples = _get_counter_examples


class RecordingTrainer(Trainer):
    batch_losses = []

    def process_batch(self, current_batch):
        loss = super().process_batch(current_batch)
        self.batch_losses.append(loss)
        return loss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--epochs', type=int, default=30)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--record', required=True)
    args = parser.parse_args()
    torch.manual_seed(args.seed)

    # Define some hyper-parameters for training
    emb_dim = 32
    lr = 0.01
    n_epochs = args.epochs
    batch_size = 128

    # Load dataset
    kg = make_kg(n_ent=200, n_rel=5, n_facts=4000, seed=args.seed)
    kg_train, kg_val, kg_test = kg.split_kg(share=0.8, validation=True)

    # Define the model and criterion
    model = DistMultModel(emb_dim, kg_train.n_ent, kg_train.n_rel)
    criterion = BinaryCrossEntropyLoss()
    optimizer = Adam(model.parameters(), lr=lr, weight_decay=1e-5)

    trainer = RecordingTrainer(model, criterion, kg_train, n_epochs, batch_size,
                               optimizer=optimizer, sampling_type='bern', use_cuda=None)

    trainer.run()

    evaluator = LinkPredictionEvaluator(model, kg_test)
    evaluator.evaluate(200)
    evaluator.print_results()

    n_batches = get_n_batches(len(kg_train), batch_size)
    losses = trainer.batch_losses
    assert len(losses) == n_epochs * n_batches
    epoch_mean = {}
    for e in range(n_epochs):
        sum_ = 0
        for loss in losses[e * n_batches:(e + 1) * n_batches]:
            sum_ += loss
        epoch_mean[str(e + 1)] = sum_ / n_batches
    record = {'framework': 'torchkge', 'script': 'distmult_trainer.py', 'n_epochs': n_epochs,
              'n_train_facts': kg_train.n_facts, 'batch_size': batch_size, 'n_batches_per_epoch': n_batches,
              'batch_losses': losses, 'epoch_mean_loss': epoch_mean,
              'link_prediction': {
                  'hit_at_10': evaluator.hit_at_k(10)[0], 'filt_hit_at_10': evaluator.hit_at_k(10)[1],
                  'mean_rank': evaluator.mean_rank()[0], 'filt_mean_rank': evaluator.mean_rank()[1],
                  'mrr': evaluator.mrr()[0], 'filt_mrr': evaluator.mrr()[1]}}
    with open(args.record, 'w') as f:
        json.dump(record, f, indent=1)


if __name__ == "__main__":
    main()
