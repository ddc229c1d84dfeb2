"""logparse: honest throughput, MFU/HFU, stability and dips from LLM training console logs."""

from __future__ import annotations

import sys
import types
from typing import Any

from .errors import LogparseError, PatternError

__version__ = "0.1.0"

__all__ = [
    "Analysis",
    "LogparseError",
    "PatternError",
    "analyze",
    "explain",
    "parse",
    "resolve",
    "__version__",
]

_API = {"Analysis", "analyze", "explain", "parse", "resolve"}


def __getattr__(name: str) -> Any:
    """The API is imported on first use (PEP 562), so `import logparse` and the CLI's help stay light."""
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'logparse' has no attribute {name!r}")


class _Package(types.ModuleType):
    """`logparse.resolve` is the API's function, even once the submodule logparse/resolve.py is imported (the
    import system would otherwise set the package attribute to the module)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _API and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
