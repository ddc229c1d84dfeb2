"""What loading the pattern sets found, kept on disk between runs, keyed by the content it was found from.

Every `logparse analyze` loads the dozens of shipped sets. Two results of that load do not depend on the log:
that each set's samples read as they expect (checked at load, so that an edited set is refused before it
reads a log) and the order in which sets are offered a line (`specificity_order`: every set's samples tried
against every other set's patterns). Both cost more than reading a small log and compile every regex of
every set. They are stored here, each under the SHA-256 of what decides it: the logparse code that reads
patterns (this folder's files and the reader's), the set's TOML and the key maps it names. A change to any
of them is a new key, so an entry is never stale; an old one is just unused (delete the folder at will).

The folder is `$LOGPARSE_CACHE_DIR`, else `$XDG_CACHE_HOME/logparse`, else `~/.cache/logparse`;
`LOGPARSE_CACHE_DIR=off` keeps nothing. A folder that cannot be written is the same as no cache: every
check is then made again, as before this cache existed.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from ..core.bounded import FileRefused, read_bounded

FORMAT = 1  # bump when an entry's meaning changes
# an entry is a set's TOML as read (the largest shipped set's is ~60 kB) or a list of names: a larger file is
# no entry of ours
MAX_ENTRY_BYTES = 4 << 20


def folder() -> Path | None:
    env = os.environ.get("LOGPARSE_CACHE_DIR")
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "no", "none") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "logparse"


@cache
def code_digest() -> str:
    """The code that turns a set's TOML into what it reads: this package folder's sources and tables, the
    record reader (what a sample line becomes), the schema of columns."""
    here = Path(__file__).resolve().parent
    pkg = here.parent
    files = sorted(here.glob("*.py")) + sorted(here.glob("*.toml")) + sorted(here.glob("*.json"))
    files += [pkg / "read" / "reader.py", pkg / "core" / "schema.py"]
    h = hashlib.sha256(f"logparse-patterns {FORMAT}".encode())
    for path in files:
        h.update(path.name.encode() + b"\0")
        try:
            h.update(path.read_bytes())
        except OSError:
            h.update(b"<missing>")
    return h.hexdigest()


def digest(*parts: bytes | str) -> str:
    h = hashlib.sha256(code_digest().encode())
    for part in parts:
        h.update(b"\0" + (part.encode() if isinstance(part, str) else part))
    return h.hexdigest()


def get(kind: str, key: str) -> Any:
    """The entry stored under `key`, None when there is none (or it cannot be read)."""
    root = folder()
    if root is None:
        return None
    try:
        entry = json.loads(read_bounded(root / f"{kind}-{key}.json", MAX_ENTRY_BYTES).decode("utf-8"))
    except (OSError, ValueError, FileRefused, RecursionError):  # (RecursionError: nested thousands deep)
        return None
    return entry.get("value") if isinstance(entry, dict) and entry.get("key") == key else None


def put(kind: str, key: str, value: Any) -> None:
    """Store `value` under `key` (written whole, then renamed: a reader never sees half an entry); nothing
    when the folder cannot be written."""
    root = folder()
    if root is None:
        return
    path = root / f"{kind}-{key}.json"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        root.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps({"key": key, "value": value}), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
