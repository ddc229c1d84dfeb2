import json, re, sys
def frames(path, key):
    txt = open(path, encoding="utf-8").read()
    out = []  # (epoch, i, loss) final frame per (epoch,i) with i>0, in order
    for fr in re.split(r"[\r\n]", txt):
        m = re.match(r"Epoch (\d+):\s+\d+%\|[^|]*\| (\d+)/(\d+) \[[^\]]*?" + key + r"=([0-9.]+)", fr)
        if not m or int(m.group(2)) == 0: continue
        k = (int(m.group(1)), int(m.group(2)))
        if out and out[-1][0] == k: out[-1] = (k, float(m.group(4)))
        else: out.append((k, float(m.group(4))))
    return out
which = sys.argv[1]
if which == "ptt":
    fr = frames("/work/corpus/2026-12-07-fb/pytorch_tabular_tqdm.log", "train_loss")
    rec = {}
    for l in open("/work/corpus/2026-12-07-fb/records/metrics_tqdm.jsonl"):
        r = json.loads(l)
        if r["kind"] == "train_batch": rec[(r["epoch"], r["batch_idx"] + 1)] = r["step_loss"]
else:
    fr = frames(f"/work/corpus/2026-12-07-fc/neuralforecast_{which}.log", "train_loss_step")
    t = json.load(open(f"/work/corpus/2026-12-07-fc/records/trajectories_{which}.json"))["train_trajectories"]
    nb = 10 if which == "nhits" else 1
    rec = {(s // nb, s % nb + 1): v for s, v in t}
print(len(fr), [k[1] for k, _ in fr])
bad = [(k, v, rec[k]) for k, v in fr if float(f"{rec[k]:.3g}") != v]
print("mismatch:", bad)
print([(k, v, round(rec[k], 5)) for k, v in fr[:5]])
