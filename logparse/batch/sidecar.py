"""Per-run settings: a run folder's logparse.toml, the `analyze` options that hold for the logs under it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..core.errors import LogparseError
from ..core.options import BY_NAME, OPTIONS, Given, convert, expected, out_of_range
from ..core.tomlfile import kind_of, read_toml, without_values

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
        # (a FIFO, a device or a broken link of the name is found too: load_sidecar says why it is not read)
        if os.path.lexists(candidate) and not candidate.is_dir():
            return candidate
        if here == top or here.parent == here or top not in here.parents:
            return None
        here = here.parent


def load_sidecar(path: str | os.PathLike[str], root: str | os.PathLike[str] | None = None) -> Given:
    """The options a logparse.toml sets, checked: an unknown key, a wrong type or a bad value is a
    LogparseError naming the file and the key, not the value (the batch's index.html shows it).

    The file itself and its `patterns` folders (relative to the sidecar's folder) must be inside `root`, the
    batch folder, once symlinks are resolved, and so must the set files in them; without a root, the
    sidecar's own folder (find_sidecar finds sidecars only inside the batch folder). A file in a run
    folder could otherwise make logparse read TOML from any folder the user can read, and put its values
    in the index."""
    path = Path(path)
    limit = Path(os.path.realpath(path.parent if root is None else root))
    if not Path(os.path.realpath(path)).is_relative_to(limit):
        raise LogparseError(f"{path}: is a link to a file outside the batch folder {limit}; not read")
    table = read_toml(path)
    out: Given = {}
    for key, value in table.items():
        name = _OLD_NAMES.get(key, key)
        out[name] = _checked(path, key, value)
        if name == "patterns":
            _inside(path, key, out[name], limit)
    if "format" in out:
        _known_format(path, out)
    return out


def _known_format(path: Path, given: Given) -> None:
    """A `format` that names no pattern set the run may load (the sidecar's folders included) is refused here,
    by its key: the analysis would quote the name in its error."""
    from ..patterns.sets import load_sets

    sets = load_sets(given.get("patterns", ()))  # (as the run loads them: loaded once)
    if given["format"] not in {*sets, *(c.name for ps in sets.values() for c in ps.composes.values())}:
        raise LogparseError(
            f"{path}: format: names no pattern set logparse has (see `logparse patterns list`, and the folders "
            "of `patterns`)"
        )


def _inside(path: Path, key: str, folders: tuple[str, ...], limit: Path) -> None:
    """Refuse a pattern folder, or a set file in one, that leads outside `limit` (after symlinks). The
    folder is named by its place in the list, not as written."""
    for i, folder in enumerate(folders):
        real = Path(os.path.realpath(folder))
        if not real.is_relative_to(limit):
            raise LogparseError(
                f"{path}: {key}: folder #{i + 1} is outside the batch folder {limit} (symlinks followed); "
                "a logparse.toml may name pattern folders inside it only"
            )
        files = sorted(real.glob("*.toml")) if real.is_dir() else []  # the files patterns.load_sets reads
        for file in files:
            if not Path(os.path.realpath(file)).is_relative_to(limit):
                raise LogparseError(
                    f"{path}: {key}: {file} is a link to a file outside the batch folder {limit}; "
                    "a logparse.toml may name pattern folders inside it only"
                )


def _checked(path: Path, key: str, value: Any) -> Any:
    def bad(expected: str) -> LogparseError:
        # the kind of the value, not the value: a string of the right kind is just not one of the choices
        got = kind_of(value)
        if option.kind == "choice" and isinstance(value, str):
            got = "another string"
        elif option.kind == "paths" and isinstance(value, list):
            got = "a list with a value that is not a string"
        return LogparseError(f"{path}: {key}: expected {expected}, not {got}")

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
        raise LogparseError(f"{path}: {key}: {without_values(why, {key: [value, got]}, bare=True)}")
    if option.kind == "paths":  # folders relative to the sidecar's own folder
        return tuple(str(path.parent / v) for v in got)
    if option.kind == "str":
        _known(path, key, name, got)
    return got


def _known(path: Path, key: str, name: str, value: str) -> None:
    """A name the analysis would refuse by quoting it (an unknown hardware or model preset, a window that is not
    A:B) is refused here, by its key."""
    from ..phases.window import parse_range
    from ..specs.hardware import find
    from ..specs.models import presets

    if name == "hw" and find(value) is None:
        raise LogparseError(
            f"{path}: {key}: names no hardware logparse knows (see `logparse hw list`; or set peak_tflops)"
        )
    if name == "model" and value.strip().lower() not in presets():
        raise LogparseError(f"{path}: {key}: names no model preset logparse knows (`logparse models list`)")
    if name == "window":
        try:
            parse_range(value)
        except LogparseError:
            raise LogparseError(
                f"{path}: {key}: expected the first and last step as A:B (e.g. 35:44, 10:, :100), the first not "
                "after the last"
            ) from None


def with_sidecar(options: Given, sidecar: Given) -> Given:
    """The batch's options with a sidecar's on top, each of those marked as coming from the sidecar."""
    if not sidecar:
        return options
    sources = {**options.get("sources", {}), **dict.fromkeys(sidecar, "sidecar")}
    merged = {**options, **sidecar, "sources": sources}
    if "patterns" in sidecar:  # the batch's pattern folders and the run's own
        merged["patterns"] = (*options.get("patterns", ()), *sidecar["patterns"])
    return merged
