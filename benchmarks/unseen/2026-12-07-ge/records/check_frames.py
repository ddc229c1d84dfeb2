"""Split a CEBRA/tqdm log on \\r and \\n into frames; for each frame print (physical line, counter, total) and compare
the first frame of every counter with the record's log['total'][offset + counter - 1]. Not part of the run."""
import json, re, sys
log, rec = sys.argv[1], json.load(open(sys.argv[2]))
tot = rec["log"]["total"]
FR = re.compile(r"pos: +(-?\d+\.\d+) neg: +(-?\d+\.\d+) total: +(-?\d+\.\d+) temperature: +(-?\d+\.\d+): +\d+%\|[^|]*\| (\d+)/(\d+) \[([^\]]*)\]")
raw = open(log, newline="").read()
offset = 0; prev = None; firsts = []
for ln, line in enumerate(raw.split("\n"), 1):
    frames = line.split("\r")
    seen = {}
    for fr in frames:
        m = FR.search(fr)
        if not m:
            continue
        c = int(m.group(5)); t = float(m.group(3))
        if c not in seen:
            seen[c] = []
        seen[c].append(t)
    if not seen:
        continue
    for c, vals in seen.items():
        firsts.append((ln, c, vals[0], vals[-1], len(vals)))
    total_n = max(seen)
bad = 0
bars = []
for ln, c, first, last, n in firsts:
    bars.append(ln)
# offset per bar: sum of totals of earlier bars
starts = {}
cum = 0
for ln in sorted(set(bars)):
    starts[ln] = cum
    cum += max(c for l, c, *_ in firsts if l == ln)
for ln, c, first, last, n in firsts:
    idx = starts[ln] + c - 1
    ok = c > 0 and abs(round(tot[idx], 4) - first) < 1e-9
    if c > 0 and not ok: bad += 1
    print(f"line {ln} counter {c:4d} frames {n:3d} first {first: .4f} last {last: .4f} record[{idx}]={tot[idx] if c>0 else None} {'ok' if ok else '--'}")
print("distinct counters per line:", {ln: sum(1 for l, *_ in firsts if l == ln) for ln in sorted(set(bars))}, "mismatches:", bad, "record len", len(tot))
