"""Per-run settings: a run folder's logparse.toml, the `analyze` options that hold for the logs under it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .errors import LogparseError
from .facts import Options
from .flops import FORMULAS
from .hardware import DTYPES
from .tomlfile import read_toml

SIDECAR = "logparse.toml"

_INT = ("gpus", "layers", "hidden", "heads", "kv_heads", "experts", "topk", "ffn_hidden", "vocab")
_INT += ("seq_len", "global_batch", "grad_accum", "segment", "last", "skip")
_FLOAT = ("peak_tflops", "params", "flops_per_token", "target_tokens")
_STR = ("hw", "model", "format", "window")
_CHOICES: dict[str, tuple[str, ...]] = {
    "dtype": DTYPES,
    "recompute": ("none", "selective", "full"),
    "formula": (*FORMULAS, "reported"),
}
KEYS = frozenset((*_INT, *_FLOAT, *_STR, *_CHOICES, "pattern_dirs"))
assert KEYS <= set(Options.__dataclass_fields__)


def find_sidecar(log_dir: str | os.PathLike[str], root: str | os.PathLike[str]) -> Path | None:
    """The nearest logparse.toml from the log's folder up to the batch root (inclusive): a folder of runs
    can set defaults for all of them, and a run folder its own."""
    here, top = Path(log_dir).resolve(), Path(root).resolve()
    while True:
        candidate = here / SIDECAR
        if candidate.is_file():
            return candidate
        if here == top or here.parent == here or top not in here.parents:
            return None
        here = here.parent


def load_sidecar(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The options a logparse.toml sets, checked: an unknown key, a wrong type or a bad value is a
    LogparseError naming the file and the key."""
    table = read_toml(path)
    out: dict[str, Any] = {}
    for key, value in table.items():
        out[key] = _checked(Path(path), key, value)
    return out


def _checked(path: Path, key: str, value: Any) -> Any:
    def bad(expected: str) -> LogparseError:
        return LogparseError(f"{path}: {key} = {value!r}: expected {expected}")

    if key not in KEYS:
        hint = f" (did you mean {key.replace('-', '_')}?)" if key.replace("-", "_") in KEYS else ""
        raise LogparseError(
            f"{path}: unknown key {key!r}{hint}; keys are analyze's options: {', '.join(sorted(KEYS))}"
        )
    if key in _INT:
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad("an integer")
        return value
    if key in _FLOAT:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad("a number")
        return float(value)
    if key in _STR:
        if not isinstance(value, str):
            raise bad("a string")
        return value
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            raise bad(f"one of {', '.join(_CHOICES[key])}")
        return value
    # pattern_dirs: folders relative to the sidecar's own folder
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise bad("a folder or a list of folders")
    return tuple(str(path.parent / v) for v in value)


def with_sidecar(options: dict[str, Any], sidecar: dict[str, Any]) -> dict[str, Any]:
    """The batch's options with a sidecar's on top, each of those marked as coming from the sidecar."""
    if not sidecar:
        return options
    sources = {**options.get("sources", {}), **dict.fromkeys(sidecar, "sidecar")}
    merged = {**options, **sidecar, "sources": sources}
    if "pattern_dirs" in sidecar:  # the batch's pattern folders and the run's own
        merged["pattern_dirs"] = (*options.get("pattern_dirs", ()), *sidecar["pattern_dirs"])
    return merged
