"""Writes the scalars accelerate's TensorBoard tracker recorded (accelerator.log(logs, step=global_step) in
train_unconditional.py) as JSONL: one object per (tag, step) with the event's wall time."""

import json
import sys

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

acc = EventAccumulator(sys.argv[1])
acc.Reload()
with open(sys.argv[2], "w") as f:
    for tag in sorted(acc.Tags()["scalars"]):
        for e in acc.Scalars(tag):
            f.write(
                json.dumps({"tag": tag, "step": e.step, "value": e.value, "wall_time": e.wall_time}) + "\n"
            )
