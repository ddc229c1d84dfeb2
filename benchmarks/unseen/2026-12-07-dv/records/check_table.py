"""Check every progressive-validation row of a VW log against a per-example JSONL record.

average loss = sum_loss / weighted_labeled_examples  (shared_data::print_update, precision 6, column width 8, truncated)
since last   = (sum_loss - sum_loss at previous row) / (examples since previous row)
Usage: check_table.py LOG RECORD.jsonl
"""
import json, re, sys

log, rec = sys.argv[1], sys.argv[2]
recs = {r["example"]: r for r in map(json.loads, open(rec))}
row = re.compile(r"^(\S+)\s+(\S+)\s+(\d+)\s+([\d.]+)\s+(\S+)\s+(\S+)\s+(\d+)\s*(h?)$")
prev_n, prev_sum = 0, 0.0
bad = 0
for ln, line in enumerate(open(log), 1):
    m = row.match(line.rstrip("\n"))
    if not m:
        continue
    n = int(m.group(3))
    r = recs[n]
    for key in ("vw_sum_loss", "own_sum_loss"):
        s = r[key]
        avg = s / n
        since = (s - (recs[prev_n][key] if prev_n else 0.0)) / (n - prev_n)
        want_avg = f"{avg:.6f}"[:8]
        want_since = f"{since:.6f}"[:8]
        ok = want_avg == m.group(1) and want_since == m.group(2)
        bad += not ok
        print(f"line {ln} ex {n} {key}: printed avg={m.group(1)} since={m.group(2)} | record avg={avg:.8f} since={since:.8f} {'OK' if ok else 'MISMATCH'}")
    print(f"      label {m.group(5)} vs {r['label']:.4f}; pred {m.group(6)} vs {r['pred']:.4f}")
    prev_n = n
print("mismatches:", bad)
