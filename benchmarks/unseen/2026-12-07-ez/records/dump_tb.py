"""Dump every TensorBoard scalar of a log dir to JSON: {tag: [[step, value, wall_time], ...]}."""
import sys, json
from tensorboard.backend.event_processing import event_accumulator

ea = event_accumulator.EventAccumulator(sys.argv[1], size_guidance={event_accumulator.SCALARS: 0})
ea.Reload()
out = {tag: [[e.step, e.value, e.wall_time] for e in ea.Scalars(tag)] for tag in ea.Tags()["scalars"]}
json.dump(out, open(sys.argv[2], "w"), indent=1)
print(sys.argv[2], {k: len(v) for k, v in out.items()})
