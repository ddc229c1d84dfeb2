"""Run a stanza training module exactly as `python -m MODULE ARGS...` would, and keep a JSONL record.

    python record_run.py RECORD.jsonl MODULE [ARGS ...]

stanza's trainers keep no history file of their own (only an optional wandb session, not used here), so this
wrapper adds a second logging.Handler to the 'stanza' logger (after `import stanza` has installed its own
console handler, which is left untouched and still writes the console log). For every record the training
function logs, the handler walks up the stack to the frame of the training loop in MODULE's source file and
copies, unrounded, the local variables that the logged format string is filled from (global_step/step,
max_steps/steps, epoch, loss, duration, current_lr/lr, train_loss, dev_score), together with the formatted
message and the logger's timestamp. Nothing is written to stdout/stderr by this wrapper.
"""
import importlib.util
import json
import logging
import numbers
import runpy
import sys

import stanza  # noqa: F401  -- installs stanza's own console handler first, as in a plain `python -m` run

record_path, module = sys.argv[1], sys.argv[2]
module_file = importlib.util.find_spec(module).origin
NAMES = ["global_step", "step", "steps", "max_steps", "epoch", "loss", "duration", "current_lr", "lr",
         "train_loss", "dev_score"]


class LocalsRecorder(logging.Handler):
    def __init__(self, path):
        super().__init__(level=logging.DEBUG)
        self.out = open(path, "w")

    def emit(self, record):
        if record.pathname != module_file:
            return
        frame = sys._getframe()
        while frame is not None and not (frame.f_code.co_filename == module_file
                                         and frame.f_code.co_name == record.funcName):
            frame = frame.f_back
        if frame is None:
            return
        row = {"created": record.created, "func": record.funcName, "lineno": record.lineno,
               "message": record.getMessage()}
        for name in NAMES:
            if name in frame.f_locals:
                v = frame.f_locals[name]
                if hasattr(v, "item") and callable(v.item):
                    try:
                        v = v.item()
                    except Exception:
                        continue
                if isinstance(v, numbers.Number):
                    row[name] = v
        if frame.f_code.co_name == "train" or "args" in frame.f_locals:
            args = frame.f_locals.get("args")
            if isinstance(args, dict) and "num_epoch" in args:
                row["num_epoch"] = args["num_epoch"]
        self.out.write(json.dumps(row) + "\n")
        self.out.flush()


logging.getLogger("stanza").addHandler(LocalsRecorder(record_path))
sys.argv = [module_file] + sys.argv[3:]
runpy.run_module(module, run_name="__main__", alter_sys=True)
