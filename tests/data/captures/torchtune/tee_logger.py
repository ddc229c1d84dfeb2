"""torchtune's own StdoutLogger, plus a JSONL copy of every payload it is given (the ground truth of the
console lines): each value as torchtune passed it, at full precision. `fail_at_step` (optional) raises after
that step's line, as a job that fails mid-run (the run is then resumed from its last epoch checkpoint)."""
import json

from torchtune.training.metric_logging import StdoutLogger


class TeeStdoutLogger(StdoutLogger):
    def __init__(self, jsonl_path: str, fail_at_step: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self._fh = open(jsonl_path, "a")
        self._fail_at = fail_at_step

    def log_dict(self, payload, step):
        super().log_dict(payload, step)  # prints exactly what StdoutLogger prints
        rec = {"step": step}
        for k, v in payload.items():
            rec[k] = v.item() if hasattr(v, "item") else v
            rec[k + "__printed"] = f"{v}"
        self._fh.write(json.dumps(rec) + "\n")
        self._fh.flush()
        if step == self._fail_at:
            raise RuntimeError(f"simulated failure after step {step}")
