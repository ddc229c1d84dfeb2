"""Check (after the runs, reading files only): every training dict printed in each log, in file order, equals the
framework's log_history training entries formatted as the Trainer prints them (f"{v:.4g}"), and the eval dicts
likewise. The printed dicts carry no step: the step shown here is log_history's."""
import ast
import json
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
folder = os.path.dirname(here)
for log, rec in [("sentence_transformers_trainer.log", "trainer_log_history.json"),
                 ("sentence_transformers_fit.log", "fit_log_history.json"),
                 ("sentence_transformers_mnrl.log", "mnrl_log_history.json")]:
    text = open(os.path.join(folder, log), encoding="utf-8", newline="").read()
    printed = [ast.literal_eval(m) for m in re.findall(r"\{'(?:loss|eval_[^']*)'[^\n\r]*\}", text)]
    hist = [r for r in json.load(open(os.path.join(here, rec))) if "loss" in r or any(k.startswith("eval_") for k in r)]
    assert len(printed) == len(hist), (log, len(printed), len(hist))
    for p, h in zip(printed, hist):
        want = {k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in h.items() if k not in ("step", "total_flos")}
        assert p == want, (log, p, want)
    print(log, "ok:", len(printed), "dicts;", "train steps", [h["step"] for h in hist if "loss" in h],
          "eval steps", [h["step"] for h in hist if "loss" not in h])
