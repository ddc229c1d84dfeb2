# Dumps OpenNMT-py's own TensorBoard record (run/tb/<date>/events.out.tfevents.*, written by onmt ReportMgr) to JSON, unmodified values.
import glob, json
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
f = sorted(glob.glob("run/tb/*/events.out.tfevents.*"))[-1]
ea = EventAccumulator(f, size_guidance={"scalars": 0}); ea.Reload()
out = {tag: [{"step": e.step, "wall_time": e.wall_time, "value": e.value} for e in ea.Scalars(tag)] for tag in ea.Tags()["scalars"]}
json.dump({"source": f, "scalars": out}, open("tfevents_scalars.json", "w"), indent=1)
print("tags:", list(out))
