"""Words the text summary and the report figure share: a length of time as a person writes it, and the order
in which the goodput ledger names its parts (no pandas, no matplotlib: the drawing process imports it)."""

from __future__ import annotations

from collections.abc import Mapping

from ..core.summary_types import CATEGORIES


def duration(seconds: float) -> str:
    """A length of time in the unit a person says it in: 40 s, 5 min, 2.6 h, 3.1 days."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def ledger_order(badput: Mapping[str, float | None]) -> list[tuple[str, float]]:
    """The badput categories with time in them (half a second or more), largest first, as (category,
    seconds): the text's ledger line names them in this order, and the figure's bar lays them out in it."""
    parts = [(k, float(v)) for k in CATEGORIES if (v := badput.get(k)) is not None and v >= 0.5]
    return sorted(parts, key=lambda kv: -kv[1])
