"""Independent re-accounting of a VW CLI run from its data file and its `-p` predictions file.

Recomputes each example's loss from its label and VW's progressive prediction (written by -p before the update),
replays VW's shared_data bookkeeping (shared_data::update / print_update / update_dump_interval, see README.md),
writes one JSON line per processed example, and checks every printed table row of the log.

usage: replay_vw_table.py DATA PREDS LOG OUT.jsonl --passes P --holdout_period K|0 --loss squared|logistic|binary01
                          [--progress X] [--progress_add]
"""
import argparse, json, math, re

ap = argparse.ArgumentParser()
ap.add_argument("data"); ap.add_argument("preds"); ap.add_argument("log"); ap.add_argument("out")
ap.add_argument("--passes", type=int, default=1)
ap.add_argument("--holdout_period", type=int, default=0)
ap.add_argument("--loss", required=True)
ap.add_argument("--progress", type=float, default=2.0)
ap.add_argument("--progress_add", action="store_true")
a = ap.parse_args()

labels = [float(l.split("|", 1)[0].split()[0]) for l in open(a.data) if l.strip()]
preds = [float(l.split()[0]) for l in open(a.preds) if l.strip()]
assert len(preds) == len(labels) * a.passes, (len(preds), len(labels))

def loss(y, p):
    if a.loss == "squared":
        return (p - y) ** 2
    if a.loss == "logistic":
        return math.log1p(math.exp(-y * p))
    if a.loss == "binary01":
        return 0.0 if (1.0 if p > 0 else -1.0) == y else 1.0
    raise SystemExit(a.loss)

S = dict(sum_loss=0.0, wle=0.0, old_wle=0.0, since=0.0, exnum=0, h_sum=0.0, h_w=0.0, h_sum_since=0.0, h_w_since=0.0)
dump = a.progress if a.progress_add else 1.0  # first row: at `progress` examples (additive), at 1 (multiplicative)
rows = []
out = open(a.out, "w")
k = 0
for p in range(a.passes):
    for i, y in enumerate(labels, 1):
        pr = preds[k]; k += 1
        l = loss(y, pr)
        hold = a.holdout_period > 0 and i % a.holdout_period == 0
        if hold:
            S["h_sum"] += l; S["h_w"] += 1; S["h_sum_since"] += l; S["h_w_since"] += 1
        else:
            S["sum_loss"] += l; S["since"] += l; S["wle"] += 1; S["exnum"] += 1
        rec = dict(pass_=p, line_in_data=i, holdout=hold, label=y, pred=pr, loss=l, **S)
        if S["wle"] >= dump:
            if a.holdout_period > 0 and p >= 1:
                avg = S["h_sum"] / S["h_w"]; since = S["h_sum_since"] / S["h_w_since"]
                S["h_sum_since"] = 0.0; S["h_w_since"] = 0.0; h = "h"
            else:
                avg = S["sum_loss"] / S["wle"]; since = S["since"] / (S["wle"] - S["old_wle"]); h = ""
            rows.append((S["exnum"], avg, since, h, y, pr))
            rec["printed_row"] = dict(counter=S["exnum"], average_loss=avg, since_last=since, holdout=h == "h")
            S["since"] = 0.0; S["old_wle"] = S["wle"]
            dump = S["wle"] + a.progress if a.progress_add else S["wle"] * a.progress
        out.write(json.dumps(rec) + "\n")
out.close()

pat = re.compile(r"^(\S+)\s+(\S+)\s+(\d+)\s+([\d.]+)\s+(\S+)\s+(\S+)\s+(\d+)( h)?$")
printed = [(ln, m) for ln, line in enumerate(open(a.log), 1) if (m := pat.match(line.rstrip("\n")))]
print(f"rows printed {len(printed)}, rows replayed {len(rows)}")
bad = 0
for (ln, m), (n, avg, since, h, y, pr) in zip(printed, rows):
    ok = (int(m.group(3)) == n and m.group(1) == f"{avg:.6f}"[:8] and m.group(2) == f"{since:.6f}"[:8]
          and (m.group(8) or "").strip() == h)
    bad += not ok
    print(f"line {ln}: printed {m.group(1)} {m.group(2)} {m.group(3)}{m.group(8) or ''} | replay {avg:.8f} {since:.8f} {n} {h} "
          f"label {y} pred {pr} {'OK' if ok else 'MISMATCH'}")
print("final: sum_loss", S["sum_loss"], "weighted_labeled", S["wle"], "holdout_sum_loss", S["h_sum"], "holdout_w", S["h_w"])
print("mismatches:", bad + abs(len(printed) - len(rows)))
