"""Errors a user can cause: each carries one sentence that says what went wrong and what to do."""


class LogparseError(Exception):
    """A problem with the input or the options, reported as one line `error: ...` and exit 1."""


class PatternError(LogparseError):
    """A pattern set that cannot be loaded or that misbehaves on a line."""


class UnrecognisedLog(LogparseError):
    """No pattern set recognises the log (`logparse patterns explain` then shows its line shapes)."""
