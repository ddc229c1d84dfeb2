"""Run 3: SentenceTransformerTrainer with MultipleNegativesRankingLoss on synthetic (anchor, positive) pairs,
InformationRetrievalEvaluator, NO_DUPLICATES batch sampler; plain-text logging mode: disable_tqdm=True (the
Trainer then prints each log dict with its PrinterCallback instead of a progress bar) and log_level="info"
(transformers' own INFO lines: the "***** Running training *****" block, checkpoint saves)."""
import json
import logging
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from datasets import Dataset

from sentence_transformers import SentenceTransformer, SentenceTransformerTrainer, SentenceTransformerTrainingArguments
from sentence_transformers.base.sampler import BatchSamplers
from sentence_transformers.sentence_transformer.evaluation import InformationRetrievalEvaluator
from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss
from tiny_setup import anchor_positive, ir_data

logging.basicConfig(format="%(asctime)s - %(message)s", datefmt="%Y-%m-%d %H:%M:%S", level=logging.INFO)

model_path, output_dir, record_dir = sys.argv[1], sys.argv[2], sys.argv[3]

model = SentenceTransformer(model_path)

a, p = anchor_positive(1024, seed=3)
train_dataset = Dataset.from_dict({"anchor": a, "positive": p})
a, p = anchor_positive(128, seed=4)
eval_dataset = Dataset.from_dict({"anchor": a, "positive": p})

loss = MultipleNegativesRankingLoss(model)
queries, corpus, relevant = ir_data(seed=5)
ir_evaluator = InformationRetrievalEvaluator(queries=queries, corpus=corpus, relevant_docs=relevant, name="synth-ir")

args = SentenceTransformerTrainingArguments(
    output_dir=output_dir,
    num_train_epochs=3,
    per_device_train_batch_size=32,
    per_device_eval_batch_size=32,
    learning_rate=2e-4,
    warmup_steps=8,
    batch_sampler=BatchSamplers.NO_DUPLICATES,
    eval_strategy="steps",
    eval_steps=32,
    save_strategy="steps",
    save_steps=48,
    save_total_limit=2,
    logging_steps=4,
    disable_tqdm=True,
    log_level="info",
    report_to="none",
    seed=42,
)

trainer = SentenceTransformerTrainer(
    model=model, args=args, train_dataset=train_dataset, eval_dataset=eval_dataset,
    loss=loss, evaluator=ir_evaluator,
)
trainer.train()

with open(os.path.join(record_dir, "mnrl_log_history.json"), "w") as f:
    json.dump(trainer.state.log_history, f, indent=1)
