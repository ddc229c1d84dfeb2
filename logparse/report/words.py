"""A length of time as a person writes it, for the text summary and the report (no pandas, no matplotlib: the
drawing process imports it)."""

from __future__ import annotations


def duration(seconds: float) -> str:
    """A length of time in the unit a person says it in: 40 s, 5 min, 2.6 h, 3.1 days."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"
