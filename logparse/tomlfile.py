"""Reading a TOML file a user wrote (a pattern set, a synonym table, a run's logparse.toml): a file that
cannot be read or parsed is one line naming it, as the error type the caller reports."""

from __future__ import annotations

import os
import sys
from typing import Any

from .errors import LogparseError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def read_toml(path: str | os.PathLike[str], error: type[LogparseError] = LogparseError) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: not valid TOML ({exc})") from None
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror})") from None
