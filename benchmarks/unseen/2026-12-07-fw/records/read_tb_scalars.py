"""Read back the TensorBoard scalars torchensemble wrote (set_logger(..., use_tb_logger=True)) and dump them to JSON.
usage: python read_tb_scalars.py TB_DIR OUT.json"""
import json, sys
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

acc = EventAccumulator(sys.argv[1])
acc.Reload()
rec = {
    "source": "torchensemble's own TensorBoard scalars, dir " + sys.argv[1],
    "scalars": {
        tag: [{"step": e.step, "value": e.value, "wall_time": e.wall_time} for e in acc.Scalars(tag)]
        for tag in acc.Tags()["scalars"]
    },
}
json.dump(rec, open(sys.argv[2], "w"), indent=1)
