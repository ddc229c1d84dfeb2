"""Run 1: SentenceTransformerTrainer (v3+ API) on synthetic STS pairs, CosineSimilarityLoss,
EmbeddingSimilarityEvaluator, eval + checkpoint every 25 steps, logging every 5 steps.
Follows examples/sentence_transformer/training/sts/training_stsbenchmark.py (logging.basicConfig INFO)."""
import json
import logging
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from datasets import Dataset

from sentence_transformers import SentenceTransformer, SentenceTransformerTrainer, SentenceTransformerTrainingArguments
from sentence_transformers.sentence_transformer.evaluation import EmbeddingSimilarityEvaluator
from sentence_transformers.sentence_transformer.losses import CosineSimilarityLoss
from tiny_setup import sts_pairs

logging.basicConfig(format="%(asctime)s - %(message)s", datefmt="%Y-%m-%d %H:%M:%S", level=logging.INFO)

model_path = sys.argv[1]          # the tiny BERT built by build_model.py
output_dir = sys.argv[2]          # checkpoints go here
record_dir = sys.argv[3]          # where the log_history JSON is written

model = SentenceTransformer(model_path)

s1, s2, sc = sts_pairs(800, seed=1)
train_dataset = Dataset.from_dict({"sentence1": s1, "sentence2": s2, "score": sc})
s1, s2, sc = sts_pairs(100, seed=2)
eval_dataset = Dataset.from_dict({"sentence1": s1, "sentence2": s2, "score": sc})
logging.info(train_dataset)

train_loss = CosineSimilarityLoss(model=model)
dev_evaluator = EmbeddingSimilarityEvaluator(
    sentences1=eval_dataset["sentence1"], sentences2=eval_dataset["sentence2"], scores=eval_dataset["score"],
    main_similarity="cosine", name="sts-dev",
)

args = SentenceTransformerTrainingArguments(
    output_dir=output_dir,
    num_train_epochs=2,
    per_device_train_batch_size=16,
    per_device_eval_batch_size=16,
    learning_rate=5e-4,
    warmup_steps=10,
    eval_strategy="steps",
    eval_steps=25,
    save_strategy="steps",
    save_steps=25,
    save_total_limit=2,
    logging_steps=5,
    run_name="sts-tiny",
    report_to="none",
    seed=42,
)

trainer = SentenceTransformerTrainer(
    model=model, args=args, train_dataset=train_dataset, eval_dataset=eval_dataset,
    loss=train_loss, evaluator=dev_evaluator,
)
trainer.train()

with open(os.path.join(record_dir, "trainer_log_history.json"), "w") as f:
    json.dump(trainer.state.log_history, f, indent=1)
model.save(os.path.join(output_dir, "final"))
