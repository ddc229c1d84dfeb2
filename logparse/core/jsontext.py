"""JSON as every output of logparse writes it: strict (RFC 8259), so any reader takes it.

Python's json writes a float that is not finite as the bare words NaN, Infinity and -Infinity, which are not
JSON: a strict reader (jq, JavaScript's JSON.parse, Go, Rust's serde_json) refuses the whole file. A figure
that is not finite is not known, so it is written as null, like every other figure logparse cannot know."""

from __future__ import annotations

import json
import math
import numbers
from collections.abc import Mapping
from typing import Any


def finite(value: Any) -> Any:
    """`value` with every number that is not finite (NaN, inf, -inf) as None, through dicts, lists and tuples
    (tuples become lists, as JSON writes them); everything else as it is."""
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, numbers.Integral):  # numpy's integer types
        return int(value)
    if isinstance(value, numbers.Real):  # float and numpy's floating types
        f = float(value)
        return f if math.isfinite(f) else None
    if isinstance(value, Mapping):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def dumps(value: Any, **kwargs: Any) -> str:
    """json.dumps of `value` with non-finite numbers as null (`finite`), never the words NaN or Infinity."""
    return json.dumps(finite(value), allow_nan=False, **kwargs)
