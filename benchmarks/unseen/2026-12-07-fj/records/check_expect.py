"""Cross-check: the final 100% frame of each epoch's training bar in the log vs the framework's record.
Prints, per epoch: the frame's printed train_loss / val_loss and the record's unrounded values."""
import csv, json, re, sys

def final_frames(log):
    t = open(log, encoding="utf-8", newline="").read()
    out = {}
    for ln, line in enumerate(t.split("\n"), 1):
        for fr in line.split("\r"):
            m = re.match(r"Epoch (\d+): 100%\|[^|]*\| (\d+)/(\d+) \[[^\]]*?(?:, ([^\]]*))?\]", fr)
            if m and m.group(2) == m.group(3):
                post = dict(kv.split("=") for kv in (m.group(4) or "").split(", ") if "=" in kv)
                out[int(m.group(1))] = (ln, post)  # last such frame wins
    return out

def record_jsonl(path):
    ep = {}
    for l in open(path):
        d = json.loads(l)
        if d["kind"] == "epoch":
            ep[d["epoch"]] = d
    return ep

log, rec = sys.argv[1], sys.argv[2]
ff = final_frames(log)
ep = record_jsonl(rec)
for e in sorted(ff):
    ln, post = ff[e]
    cm = ep[e]["callback_metrics"]
    ok = all(f"{cm[k]:.3g}" == f"{float(v):.3g}" for k, v in post.items() if k in cm)
    print(e, "line", ln, post, {k: cm[k] for k in cm}, "global_step", ep[e]["global_step"], "OK" if ok else "MISMATCH")
if len(sys.argv) > 3:  # CSVLogger metrics.csv: last train_loss row of each epoch
    rows = list(csv.DictReader(open(sys.argv[3])))
    last = {}
    for r in rows:
        if r.get("train_loss"):
            last[int(r["epoch"])] = (int(r["step"]), float(r["train_loss"]))
    for e in sorted(ff):
        print("csv epoch", e, "last step row", last[e], "frame", ff[e][1].get("train_loss"),
              "OK" if f"{last[e][1]:.3g}" == f"{float(ff[e][1]['train_loss']):.3g}" else "MISMATCH")
