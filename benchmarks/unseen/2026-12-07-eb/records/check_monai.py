"""Cross-check each StatsHandler line of a log against the run's train_steps.jsonl (rounded to the 4 printed decimals)."""
import json, re, sys
log, rec = sys.argv[1], sys.argv[2]
recs = {(r['epoch'], r['iter_in_epoch']): r for r in map(json.loads, open(rec))}
pat = re.compile(r'Epoch: (\d+)/\d+, Iter: (\d+)/\d+ -- train_loss: ([\d.]+)')
n = 0
for ln, l in enumerate(open(log), 1):
    m = pat.search(l)
    if not m: continue
    r = recs[(int(m[1]), int(m[2]))]
    n += 1
    print(ln, m[1], m[2], r['iteration'], m[3], r['loss'], r['lr'], 'OK' if f"{r['loss']:.4f}" == m[3] else 'MISMATCH')
print(n, 'lines;', len(recs), 'records')
