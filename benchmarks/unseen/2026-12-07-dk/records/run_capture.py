# Runs RecBole's documented quick start (run_recbole) on the synthetic atomic-file dataset.
# The only addition: a hook that appends every value RecBole logs per epoch (train loss as returned by
# Trainer._train_epoch, the epoch time passed to _generate_train_loss_output, valid score/result) to a JSONL
# file, next to RecBole's own TensorBoard record (log_tensorboard/) and its own log file (log/).
import json, sys
from recbole.quick_start import run_recbole
from recbole.trainer import Trainer

mode = sys.argv[1]
rec = open(f"record_{mode}.jsonl", "w")

_orig_gen = Trainer._generate_train_loss_output
def _gen(self, epoch_idx, s_time, e_time, losses):
    rec.write(json.dumps({"kind": "train", "epoch": epoch_idx, "time_s": e_time - s_time,
                          "train_loss": losses}) + "\n"); rec.flush()
    return _orig_gen(self, epoch_idx, s_time, e_time, losses)
Trainer._generate_train_loss_output = _gen

_orig_valid = Trainer._valid_epoch
def _valid(self, valid_data, show_progress=False):
    score, result = _orig_valid(self, valid_data, show_progress=show_progress)
    rec.write(json.dumps({"kind": "valid", "valid_score": score, "valid_result": dict(result)}) + "\n"); rec.flush()
    return score, result
Trainer._valid_epoch = _valid

common = {"data_path": "dataset", "epochs": 15, "train_batch_size": 512, "eval_batch_size": 4096,
          "embedding_size": 32, "seed": 2020, "metrics": ["Recall", "NDCG", "MRR"], "topk": [10],
          "valid_metric": "MRR@10", "USER_ID_FIELD": "user_id", "ITEM_ID_FIELD": "item_id",
          "load_col": {"inter": ["user_id", "item_id", "rating", "timestamp"]}}
if mode == "bpr_progress":       # defaults: show_progress True, eval every epoch
    res = run_recbole(model="BPR", dataset="synth", config_dict=common)
elif mode == "neumf_eval2":      # no progress bars, evaluation every 2 epochs
    cfg = dict(common, show_progress=False, eval_step=2, epochs=20, mlp_hidden_size=[32, 16],
               mf_embedding_size=16, mlp_embedding_size=16)
    res = run_recbole(model="NeuMF", dataset="synth", config_dict=cfg)
elif mode == "bpr_noeval":       # no progress bars, no validation (eval_step 0): a checkpoint every epoch
    cfg = dict(common, show_progress=False, eval_step=0, epochs=12, learning_rate=0.005)
    res = run_recbole(model="BPR", dataset="synth", config_dict=cfg)
rec.write(json.dumps({"kind": "result", "result": {k: (dict(v) if hasattr(v, "items") else v) for k, v in res.items()}}, default=str) + "\n")
rec.close()
