"""logparse: honest throughput, MFU/HFU, stability and dips from LLM training console logs."""

__version__ = "0.1.0"

from .api import Analysis, analyze, explain, parse, resolve  # noqa: E402
from .errors import LogparseError, PatternError  # noqa: E402

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
