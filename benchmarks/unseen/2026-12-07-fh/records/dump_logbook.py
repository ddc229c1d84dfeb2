"""Dump a DEAP tools.Logbook (the list of per-generation dicts, plus its chapters) to JSON, unrounded."""
import json

import numpy


def _plain(v):
    if isinstance(v, numpy.ndarray):
        return [float(x) for x in v.ravel()]
    if isinstance(v, numpy.integer):
        return int(v)
    if isinstance(v, numpy.floating):
        return float(v)
    return v


def dump(logbook, path):
    out = {
        "header": list(logbook.header) if logbook.header else None,
        "entries": [{k: _plain(v) for k, v in e.items()} for e in logbook],
        "chapters": {name: [{k: _plain(v) for k, v in e.items()} for e in ch]
                     for name, ch in logbook.chapters.items()},
    }
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
