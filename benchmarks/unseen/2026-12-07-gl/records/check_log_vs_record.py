"""Cross-check: every 'train_loss=' / 'learning_rate=' / 'eval_loss=' printed by clu's LoggingWriter in a log against
the same run's TensorBoard record (tb_*.json from dump_tb.py), to the printed precision (.6g)."""
import json, re, sys

log, rec = sys.argv[1], json.load(open(sys.argv[2]))
S = rec["scalars"]
def at(tag, step):
  v = [e["value"] for e in S.get(tag, []) if e["step"] == step]
  assert len(v) == 1, (tag, step, v)
  return v[0]
steps, bad, n = [], 0, 0
for ln, line in enumerate(open(log), 1):
  m = re.search(r"logging_writer\.py:\d+\] \[(\d+)\] (.*)$", line)
  if not m:
    continue
  step, kv = int(m.group(1)), dict(p.split("=", 1) for p in m.group(2).split(", ") if "=" in p)
  if "train_loss" in kv:
    steps.append(step)
  for key in ("train_loss", "learning_rate", "eval_loss", "steps_per_sec"):
    if key in kv:
      n += 1
      r = at(key, step)
      ok = format(r, ".6g") == kv[key] or abs(float(kv[key]) - r) <= 5e-6 * abs(r)
      if not ok:
        bad += 1
        print("MISMATCH line", ln, key, step, kv[key], r)
print(log, "train record lines:", len(steps), steps)
print("compared", n, "values, mismatches", bad)
