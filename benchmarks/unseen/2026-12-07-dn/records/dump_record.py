"""Read back a TensorboardLogger's event files (the framework's own record) and dump every scalar to JSONL."""
import glob
import json
import sys  # noqa: F401

from tensorboard.backend.event_processing import event_accumulator


def dump(log_path: str, out_path: str) -> None:
    n = 0
    with open(out_path, "w") as out:
        for f in sorted(glob.glob(f"{log_path}/events.out.tfevents.*")):
            ea = event_accumulator.EventAccumulator(f, size_guidance={event_accumulator.SCALARS: 0})
            ea.Reload()
            for tag in sorted(ea.Tags()["scalars"]):
                for ev in ea.Scalars(tag):
                    out.write(json.dumps({"tag": tag, "step": ev.step, "value": ev.value, "wall_time": ev.wall_time}) + "\n")
                    n += 1
    return n


if __name__ == "__main__":
    dump(sys.argv[1], sys.argv[2])
