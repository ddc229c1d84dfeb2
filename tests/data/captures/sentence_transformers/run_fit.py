"""Run 2: the legacy `model.fit` API (kept in sentence-transformers v3+ as a wrapper that builds a
SentenceTransformerTrainer; fit exposes no logging_steps, so the Trainer default logging_steps=500 applies).
InputExample pairs + DataLoader + CosineSimilarityLoss + EmbeddingSimilarityEvaluator (evaluation_steps, and the
fit wrapper also evaluates at every epoch end), checkpoints every `checkpoint_save_steps` (the last at the final
step, so its trainer_state.json holds the whole log_history of the run)."""
import logging
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch.utils.data import DataLoader

from sentence_transformers import InputExample, SentenceTransformer
from sentence_transformers.sentence_transformer.evaluation import EmbeddingSimilarityEvaluator
from sentence_transformers.sentence_transformer.losses import CosineSimilarityLoss
from tiny_setup import sts_pairs

logging.basicConfig(format="%(asctime)s - %(message)s", datefmt="%Y-%m-%d %H:%M:%S", level=logging.INFO)

model_path, output_path, checkpoint_path = sys.argv[1], sys.argv[2], sys.argv[3]
n_train = int(sys.argv[4]) if len(sys.argv) > 4 else 6000
epochs = int(sys.argv[5]) if len(sys.argv) > 5 else 2

model = SentenceTransformer(model_path)
s1, s2, sc = sts_pairs(n_train, seed=1)
train_examples = [InputExample(texts=[a, b], label=float(s)) for a, b, s in zip(s1, s2, sc)]
train_dataloader = DataLoader(train_examples, shuffle=True, batch_size=4)
train_loss = CosineSimilarityLoss(model)

d1, d2, dsc = sts_pairs(100, seed=2)
evaluator = EmbeddingSimilarityEvaluator(d1, d2, dsc, name="sts-dev")

model.fit(
    train_objectives=[(train_dataloader, train_loss)],
    evaluator=evaluator,
    epochs=epochs,
    evaluation_steps=1000,
    warmup_steps=100,
    optimizer_params={"lr": 2e-4},
    output_path=output_path,
    checkpoint_path=checkpoint_path,
    checkpoint_save_steps=1000,
    checkpoint_save_total_limit=3,
)

# fit() does not return its internal SentenceTransformerTrainer; it is still alive (reference cycle through
# its EvaluatorCallback), so fetch it to dump trainer.state.log_history. The last checkpoint's
# trainer_state.json (saved at the final step) holds the same log_history and is kept as well.
if len(sys.argv) > 6:
    import gc
    import json

    from sentence_transformers import SentenceTransformerTrainer

    trainers = [o for o in gc.get_objects() if isinstance(o, SentenceTransformerTrainer)]
    with open(os.path.join(sys.argv[6], "fit_log_history.json"), "w") as f:
        json.dump(trainers[-1].state.log_history, f, indent=1)
