"""Dump every scalar of one TensorBoard event file (written by clu's SummaryWriter in nanodo's workdir) to JSON.

usage: python dump_tb.py EVENTFILE OUT.json
Reads the file with tensorboard's EventAccumulator (no size limit). clu writes TF2 summaries
(tf.summary.scalar), which EventAccumulator keeps as tensors: each is turned back into a number with
tensor_util.make_ndarray. Output: {"file":..., "scalars": {tag: [{"step", "wall_time", "value", "dtype"}]},
"text": {tag: [...]}} with float32 values written as Python floats (exact float32 -> float64).
"""
import json
import sys

from tensorboard.backend.event_processing import event_accumulator
from tensorboard.util import tensor_util

path, out = sys.argv[1], sys.argv[2]
ea = event_accumulator.EventAccumulator(path, size_guidance={event_accumulator.TENSORS: 0,
                                                             event_accumulator.SCALARS: 0})
ea.Reload()
tags = ea.Tags()
res = {"file": path, "tags": {k: v for k, v in tags.items() if isinstance(v, list)}, "scalars": {}, "text": {}}
for tag in tags["tensors"]:
  for ev in ea.Tensors(tag):
    arr = tensor_util.make_ndarray(ev.tensor_proto)
    if arr.dtype.kind in "fiu" and arr.size == 1:
      res["scalars"].setdefault(tag, []).append(
          {"step": ev.step, "wall_time": ev.wall_time, "value": arr.item(), "dtype": str(arr.dtype)})
    else:
      v = arr.tolist()
      v = v.decode() if isinstance(v, bytes) else v
      res["text"].setdefault(tag, []).append({"step": ev.step, "wall_time": ev.wall_time, "value": repr(v)[:2000]})
for tag in tags["scalars"]:  # legacy simple_value scalars, if any
  for ev in ea.Scalars(tag):
    res["scalars"].setdefault(tag, []).append({"step": ev.step, "wall_time": ev.wall_time, "value": ev.value,
                                               "dtype": "simple_value"})
json.dump(res, open(out, "w"), indent=1, sort_keys=True)
print(path, "->", out, len(res["scalars"]), "scalar tags")
