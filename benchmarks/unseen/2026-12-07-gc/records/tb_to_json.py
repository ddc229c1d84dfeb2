"""Dump every scalar of a PyPOTS tensorboard dir to JSON and CSV (wall_time, step, value as stored: float32)."""
import csv
import json
import sys

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

tb_dir, out_stem = sys.argv[1], sys.argv[2]
acc = EventAccumulator(tb_dir, size_guidance={"scalars": 0})
acc.Reload()
out = {}
for tag in acc.Tags()["scalars"]:
    out[tag] = [{"wall_time": e.wall_time, "step": e.step, "value": e.value} for e in acc.Scalars(tag)]
json.dump(out, open(out_stem + ".json", "w"), indent=1)
with open(out_stem + ".csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["tag", "step", "value", "wall_time"])
    for tag, evs in out.items():
        for e in evs:
            w.writerow([tag, e["step"], repr(e["value"]), repr(e["wall_time"])])
print({t: len(v) for t, v in out.items()})
