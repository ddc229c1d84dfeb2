# TorchKGE "Simplest training" (docs/tutorials/transe.rst) on a tiny synthetic KG, CPU.
# Changes from the doc: the dataset (synthetic DataFrame instead of load_fb15k), small hyper-parameters,
# use_cuda=None (the doc's use_cuda='all' calls .cuda()), a seed, and ONE added line in the loop
# (epoch_losses.append) so the per-epoch mean loss is kept and dumped to JSON. With --eval, the doc's
# link-prediction and triplet-classification evaluations follow (docs/tutorials/linkprediction.rst,
# tripletclassification.rst), their results dumped to JSON too.
import argparse
import json

import torch
from torch import cuda
from torch.optim import Adam

from torchkge.models import TransEModel
from torchkge.sampling import BernoulliNegativeSampler
from torchkge.utils import MarginLoss, DataLoader
from torchkge.evaluation import LinkPredictionEvaluator, TripletClassificationEvaluator

from tqdm.autonotebook import tqdm

from synth_kg import make_kg

parser = argparse.ArgumentParser()
parser.add_argument('--epochs', type=int, default=20)
parser.add_argument('--seed', type=int, default=0)
parser.add_argument('--eval', action='store_true')
parser.add_argument('--record', required=True)
args = parser.parse_args()

torch.manual_seed(args.seed)

# Load dataset
kg = make_kg(n_ent=200, n_rel=5, n_facts=4000, seed=args.seed)
kg_train, kg_val, kg_test = kg.split_kg(share=0.8, validation=True)

# Define some hyper-parameters for training
emb_dim = 32
lr = 0.01
n_epochs = args.epochs
b_size = 256
margin = 0.5

# Define the model and criterion
model = TransEModel(emb_dim, kg_train.n_ent, kg_train.n_rel, dissimilarity_type='L2')
criterion = MarginLoss(margin)

# Move everything to CUDA if available
if cuda.is_available():
    cuda.empty_cache()
    model.cuda()
    criterion.cuda()

# Define the torch optimizer to be used
optimizer = Adam(model.parameters(), lr=lr, weight_decay=1e-5)

sampler = BernoulliNegativeSampler(kg_train)
dataloader = DataLoader(kg_train, batch_size=b_size, use_cuda=None)

epoch_losses = []
iterator = tqdm(range(n_epochs), unit='epoch')
for epoch in iterator:
    running_loss = 0.0
    for i, batch in enumerate(dataloader):
        h, t, r = batch[0], batch[1], batch[2]
        n_h, n_t = sampler.corrupt_batch(h, t, r)

        optimizer.zero_grad()

        # forward + backward + optimize
        pos, neg = model(h, t, r, n_h, n_t)
        loss = criterion(pos, neg)
        loss.backward()
        optimizer.step()

        running_loss += loss.item()
    epoch_losses.append(running_loss / len(dataloader))  # added: the record
    iterator.set_description(
        'Epoch {} | mean loss: {:.5f}'.format(epoch + 1,
                                              running_loss / len(dataloader)))

model.normalize_parameters()

record = {'framework': 'torchkge', 'script': 'transe_loop.py', 'n_epochs': n_epochs,
          'n_train_facts': kg_train.n_facts, 'batch_size': b_size, 'n_batches_per_epoch': len(dataloader),
          'epoch_mean_loss': {str(e + 1): v for e, v in enumerate(epoch_losses)}}

if args.eval:
    # Link prediction evaluation on test set.
    evaluator = LinkPredictionEvaluator(model, kg_test)
    evaluator.evaluate(b_size=32)
    evaluator.print_results()
    record['link_prediction'] = {
        'hit_at_10': evaluator.hit_at_k(10)[0], 'filt_hit_at_10': evaluator.hit_at_k(10)[1],
        'mean_rank': evaluator.mean_rank()[0], 'filt_mean_rank': evaluator.mean_rank()[1],
        'mrr': evaluator.mrr()[0], 'filt_mrr': evaluator.mrr()[1]}

    # Triplet classification evaluation on test set by learning thresholds on validation set
    evaluator = TripletClassificationEvaluator(model, kg_val, kg_test)
    evaluator.evaluate(b_size=128)
    acc = evaluator.accuracy(b_size=128)
    print('Accuracy on test set: {}'.format(acc))
    record['triplet_classification'] = {'accuracy': acc}

with open(args.record, 'w') as f:
    json.dump(record, f, indent=1)
