"""Dump every scalar of a CleanRL TensorBoard run dir to JSON: {tag: [{step, wall_time, value}, ...]}."""
import json, sys, os
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

run_dir, out = sys.argv[1], sys.argv[2]
ea = EventAccumulator(run_dir, size_guidance={"scalars": 0, "tensors": 0})
ea.Reload()
data = {"run_dir": os.path.basename(run_dir.rstrip("/")),
        "event_files": sorted(f for f in os.listdir(run_dir) if f.startswith("events.")),
        "scalars": {tag: [{"step": e.step, "wall_time": e.wall_time, "value": e.value} for e in ea.Scalars(tag)]
                    for tag in ea.Tags()["scalars"]}}
# the hyperparameters text table the scripts add with writer.add_text
tensors = {}
for tag in ea.Tags().get("tensors", []):
    tensors[tag] = [{"step": e.step, "text": [v.decode() if isinstance(v, bytes) else str(v) for v in e.tensor_proto.string_val]} for e in ea.Tensors(tag)]
data["text"] = tensors
json.dump(data, open(out, "w"), indent=1)
print(out, {k: len(v) for k, v in data["scalars"].items()})
