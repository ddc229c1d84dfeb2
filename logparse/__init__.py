"""logparse: honest throughput, MFU/HFU, stability and dips from LLM training console logs."""

from __future__ import annotations

from typing import Any

from .core.errors import LogparseError, PatternError

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


def __dir__() -> list[str]:
    """What `dir(logparse)` shows: the module's names and the API imported on first use (PEP 562)."""
    return sorted({*globals(), *__all__} - {"Any", "annotations"})  # not the typing imports
