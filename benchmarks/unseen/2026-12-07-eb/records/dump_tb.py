"""Dump TensorBoardStatsHandler scalars (tag, global step, value) of a run's tb/ dir to JSON."""
import json, sys
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
ea = EventAccumulator(sys.argv[1]); ea.Reload()
out = {tag: [{"step": e.step, "value": e.value} for e in ea.Scalars(tag)] for tag in ea.Tags()["scalars"]}
json.dump(out, open(sys.argv[2], "w"), indent=1)
print({k: len(v) for k, v in out.items()})
