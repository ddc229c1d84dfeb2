"""Pair each epoch's final 'Training:' progress-bar frame in a log with the row of fit()'s metrics DataFrame.

usage: python check_frames.py LOG METRICS_CSV
Epoch k (as printed, 'Epoch k: ...') = row k-1 of the record. The final frame of epoch k is the last
'Training:' frame holding 'train_loss=' before the frame 'Epoch {k+1}:' (for the last epoch: the last such frame).
"""
import csv, re, sys

log, rec = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(rec)))
text = open(log, encoding="utf-8", newline="").read()  # keep the \r frame separators
frames = []  # (physical line no, frame text)
for ln, line in enumerate(text.split("\n"), 1):
    for fr in line.split("\r"):
        frames.append((ln, fr))
final = {}
epoch = 1
last = None
for ln, fr in frames:
    m = re.match(r"Epoch (\d+):", fr)
    if m and int(m.group(1)) == epoch + 1 and last is not None:
        final[epoch] = last
        epoch += 1
        last = None
    if fr.startswith("Training:") and "train_loss=" in fr:
        last = (ln, fr)
final[epoch] = last
for k in sorted(final):
    ln, fr = final[k]
    post = dict(re.findall(r"(\w+)=([-\d.e+]+)", fr.split("it/s,", 1)[1]))
    row = rows[k - 1]
    ok = []
    for key, v in post.items():
        if key == "v_num":
            continue
        r = float(row[key])
        ok.append(f"{key}={v}~{r:.6g}{'' if float(f'{r:.3g}') == float(v) else ' MISMATCH'}")
    print(f"epoch {k} line {ln} rec.epoch={row['epoch']}: " + ", ".join(ok))
