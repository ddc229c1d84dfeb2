"""torchtune's own StdoutLogger, plus a JSONL copy of every payload it is given (the ground truth of the
console lines): each value as torchtune passed it, at full precision."""
import json

from torchtune.training.metric_logging import StdoutLogger


class TeeStdoutLogger(StdoutLogger):
    def __init__(self, jsonl_path: str, **kwargs):
        super().__init__(**kwargs)
        self._fh = open(jsonl_path, "w")

    def log_dict(self, payload, step):
        super().log_dict(payload, step)  # prints exactly what StdoutLogger prints
        rec = {"step": step}
        for k, v in payload.items():
            rec[k] = v.item() if hasattr(v, "item") else v
            rec[k + "__printed"] = f"{v}"
        self._fh.write(json.dumps(rec) + "\n")
        self._fh.flush()
