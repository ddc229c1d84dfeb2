"""Check every dict line printed in a setfit log against the framework's record (TrainerState.log_history dumps).

usage: python check_log_vs_history.py LOG HISTORY.json [HISTORY2.json ...]   (histories in run order)
Lines are counted by '\\n' only (1-based). Each printed dict (ProgressCallback.on_log: floats as f"{v:.4g}",
total_flos dropped) must equal, in order, the log_history entries (minus 'step' and 'total_flos').
Prints: line, record step, kind, printed dict.
"""
import ast, json, sys

log = open(sys.argv[1], "rb").read().decode()
hist = [e for p in sys.argv[2:] for e in json.load(open(p))]
printed = []
for no, line in enumerate(log.split("\n"), 1):
    if "{'" in line:
        printed.append((no, ast.literal_eval(line[line.index("{'"):])))
# the closing trainer.evaluate() print in the e2e run is not a log_history entry
printed = [(n, d) for n, d in printed if set(d) != {"accuracy"}]
assert len(printed) == len(hist), (len(printed), len(hist))
for (no, d), e in zip(printed, hist):
    want = {k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in e.items() if k not in ("step", "total_flos")}
    assert d == want, (no, d, want)
    kind = "train" if "embedding_loss" in e else "eval" if "eval_embedding_loss" in e else "summary"
    print(no, e["step"], kind, d)
print("OK", len(printed), "printed dicts match the record")
