"""Split a redirected fastText log into its \\r-redrawn frames and check each frame's printed lr against the run's
own args (RECORD.json "args.lr") via fastText's schedule lr = args.lr * (1 - progress) (src/fasttext.cc:276 in
fasttext 0.9.2/0.9.3), given that the printed percentage is that same progress rounded to 0.1 %.
usage: check_ft_frames.py LOG RECORD.json
"""
import json, re, sys

log, rec = sys.argv[1], json.load(open(sys.argv[2]))
lr0 = rec["args"]["lr"]
raw = open(log, newline="").read()
print(f"physical lines (split on \\n): {raw.count(chr(10))}; \\r characters: {raw.count(chr(13))}")
frame = re.compile(r"Progress:\s+([\d.]+)% words/sec/thread:\s+(\d+) lr:\s+(-?[\d.]+) avg.loss:\s+([\d.]+) ETA:\s+(\d+)h\s*(\d+)m\s*(\d+)s")
frames = [m for m in frame.finditer(raw)]
bad = 0
for k, m in enumerate(frames, 1):
    pct, lr = float(m.group(1)), float(m.group(3))
    lo, hi = lr0 * (1 - (pct + 0.05) / 100), lr0 * (1 - (pct - 0.05) / 100)
    ok = lo - 5e-7 <= lr <= hi + 5e-7
    bad += not ok
    print(f"frame {k:2d}: progress {m.group(1):>5}%  lr {m.group(3):>9}  allowed [{lo:.6f}, {hi:.6f}]  {'OK' if ok else 'INCONSISTENT'}"
          f"  avg.loss {m.group(4)}  words/sec/thread {m.group(2)}")
print("frames:", len(frames), "inconsistent:", bad)
print("progress as printed:", [m.group(1) for m in frames])
