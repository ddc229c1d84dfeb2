"""Per-run settings: a run folder's logparse.toml, the `analyze` options that hold for the logs under it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .errors import LogparseError
from .options import BY_NAME, OPTIONS, convert, expected, out_of_range
from .tomlfile import read_toml

SIDECAR = "logparse.toml"

# the analysis options a sidecar may set (jobs is the batch's own); `pattern_dirs` is the older name of
# `patterns`
KEYS = frozenset(o.name for o in OPTIONS if o.name != "jobs")
_OLD_NAMES = {"pattern_dirs": "patterns"}


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
        out[_OLD_NAMES.get(key, key)] = _checked(Path(path), key, value)
    return out


def _checked(path: Path, key: str, value: Any) -> Any:
    def bad(expected: str) -> LogparseError:
        return LogparseError(f"{path}: {key} = {value!r}: expected {expected}")

    name = _OLD_NAMES.get(key, key)
    if name not in KEYS:
        hint = f" (did you mean {key.replace('-', '_')}?)" if key.replace("-", "_") in KEYS else ""
        raise LogparseError(
            f"{path}: unknown key {key!r}{hint}; keys are analyze's options: {', '.join(sorted(KEYS))}"
        )
    option = BY_NAME[name]
    got = convert(option, value)
    if got is None:
        raise bad(expected(option))
    why = out_of_range(option, got)
    if why is not None:
        raise LogparseError(f"{path}: {key} = {value!r}: {why}")
    if option.kind == "paths":  # folders relative to the sidecar's own folder
        return tuple(str(path.parent / v) for v in got)
    return got


def with_sidecar(options: dict[str, Any], sidecar: dict[str, Any]) -> dict[str, Any]:
    """The batch's options with a sidecar's on top, each of those marked as coming from the sidecar."""
    if not sidecar:
        return options
    sources = {**options.get("sources", {}), **dict.fromkeys(sidecar, "sidecar")}
    merged = {**options, **sidecar, "sources": sources}
    if "patterns" in sidecar:  # the batch's pattern folders and the run's own
        merged["patterns"] = (*options.get("patterns", ()), *sidecar["patterns"])
    return merged
