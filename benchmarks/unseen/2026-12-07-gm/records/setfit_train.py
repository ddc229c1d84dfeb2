"""SetFit few-shot training as in the setfit README quick start, on the tiny local model and synthetic data.

usage: python setfit_train.py MODE MODEL_DIR OUT_DIR
  MODE eval    : SetFitModel (LogisticRegression head), TrainingArguments(num_epochs=1, logging_steps=2,
                 eval_strategy="steps", eval_steps=5); no final test evaluation
  MODE e2e     : SetFitModel with a differentiable SetFitHead, end_to_end=True, num_epochs=2, logging_steps=3,
                 eval_strategy="epoch"; then trainer.evaluate(test set) printed, as in the README quick start
  MODE distill : the documented distillation flow: a teacher trained first with the plain Trainer
                 (logging_strategy="no"), then a DistillationTrainer into a fresh copy of the tiny model,
                 logging_steps=3, no evaluation
The framework's own record: the sentence-transformers trainer's state.log_history (transformers
TrainerState.log_history: every logged dict with its "step") dumped to OUT_DIR/<MODE>_log_history.json, and
a callback writing every on_log call with state.global_step to OUT_DIR/<MODE>_on_log.jsonl.
"""
import json, os, sys
from datasets import Dataset
from transformers import TrainerCallback
from setfit import SetFitModel, SetFitHead, Trainer, TrainingArguments, DistillationTrainer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tiny_data import make

mode, model_dir, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out_dir, exist_ok=True)


class JsonlLogs(TrainerCallback):
    def __init__(self, path):
        self.path = path
        open(path, "w").close()

    def on_log(self, args, state, control, logs=None, **kwargs):
        with open(self.path, "a") as f:
            f.write(json.dumps({"global_step": state.global_step, "epoch": state.epoch, "logs": logs}) + "\n")


def accuracy(y_pred, y_test):
    return {"accuracy": float(sum(int(p) == int(t) for p, t in zip(y_pred, y_test)) / len(y_test))}


train_dataset = Dataset.from_list(make(12, seed=1))   # 24 sentences, 12 per class
eval_dataset = Dataset.from_list(make(6, seed=2))     # 12 sentences
test_dataset = Dataset.from_list(make(10, seed=3))

if mode == "eval":
    model = SetFitModel.from_pretrained(model_dir)
    args = TrainingArguments(
        output_dir=os.path.join(out_dir, "eval_checkpoints"),
        batch_size=16, num_epochs=1, body_learning_rate=5e-4,
        logging_steps=2, eval_strategy="steps", eval_steps=5, save_strategy="no", report_to="none",
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_dataset, eval_dataset=eval_dataset,
                      metric=accuracy, callbacks=[JsonlLogs(os.path.join(out_dir, "eval_on_log.jsonl"))])
    trainer.train()
    metrics = None
elif mode == "e2e":
    model = SetFitModel.from_pretrained(model_dir, use_differentiable_head=True, head_params={"out_features": 2})
    args = TrainingArguments(
        output_dir=os.path.join(out_dir, "e2e_checkpoints"),
        batch_size=16, num_epochs=2, body_learning_rate=(5e-4, 1e-4), head_learning_rate=1e-2, end_to_end=True,
        logging_steps=3, eval_strategy="epoch", save_strategy="no", report_to="none",
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_dataset, eval_dataset=eval_dataset,
                      metric=accuracy, callbacks=[JsonlLogs(os.path.join(out_dir, "e2e_on_log.jsonl"))])
    trainer.train()
    metrics = trainer.evaluate(test_dataset)
    print(metrics)
elif mode == "distill":
    teacher = SetFitModel.from_pretrained(model_dir)
    teacher_trainer = Trainer(model=teacher, train_dataset=train_dataset, metric=accuracy,
                              args=TrainingArguments(output_dir=os.path.join(out_dir, "teacher"), batch_size=16,
                                                     num_epochs=1, body_learning_rate=5e-4, logging_strategy="no",
                                                     save_strategy="no", report_to="none"),
                              callbacks=[JsonlLogs(os.path.join(out_dir, "distill_teacher_on_log.jsonl"))])
    teacher_trainer.train()
    with open(os.path.join(out_dir, "distill_teacher_log_history.json"), "w") as f:
        json.dump(teacher_trainer.st_trainer.state.log_history, f, indent=1)
    student = SetFitModel.from_pretrained(model_dir)
    unlabeled = Dataset.from_list([{"text": r["text"]} for r in make(12, seed=4)])
    args = TrainingArguments(
        output_dir=os.path.join(out_dir, "distill_checkpoints"),
        batch_size=16, num_epochs=1, body_learning_rate=5e-4, logging_steps=3, save_strategy="no",
        report_to="none",
    )
    trainer = DistillationTrainer(teacher_model=teacher, student_model=student, args=args,
                                  train_dataset=unlabeled, metric=accuracy)
    # DistillationTrainer.__init__ takes no `callbacks`: add the record callback the documented way
    trainer.add_callback(JsonlLogs(os.path.join(out_dir, "distill_on_log.jsonl")))
    trainer.train()
    metrics = None
else:
    raise SystemExit(f"unknown mode {mode}")

with open(os.path.join(out_dir, f"{mode}_log_history.json"), "w") as f:
    json.dump(trainer.st_trainer.state.log_history, f, indent=1)
