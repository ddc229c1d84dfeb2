"""A registered spaCy logger that writes every `info` dict the training loop hands to the logger to JSONL.

Used with --code records/info_logger.py and chained after the console logger (spacy.ChainLogger.v1), so the
console table is unchanged. log_step(None) (a step without evaluation) is written as a {"info": null} line
only with count_none; by default it is counted and the count goes in the next row as "steps_since_last".
"""
import sys
import time
from typing import IO, Any, Dict, Optional

import srsly
import spacy


def _plain(x):
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, (int, float, str, bool)) or x is None:
        return x
    try:
        return float(x)
    except Exception:
        return repr(x)


@spacy.registry.loggers("records.InfoJSONL.v1")
def info_jsonl_logger(path: str):
    def setup(nlp, stdout: IO = sys.stdout, stderr: IO = sys.stderr):
        f = open(path, "w", encoding="utf-8")
        none_count = 0

        def log_step(info: Optional[Dict[str, Any]]):
            nonlocal none_count
            if info is None:
                none_count += 1
                return
            rec = {"wall_time": time.time(), "steps_since_last": none_count}
            rec.update({k: _plain(v) for k, v in info.items()})
            none_count = 0
            f.write(srsly.json_dumps(rec) + "\n")
            f.flush()

        def finalize():
            f.close()

        return log_step, finalize

    return setup
