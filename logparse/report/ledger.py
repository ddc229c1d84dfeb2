"""The goodput ledger as a person reads it: GPU-hours beside the seconds, a cost when a GPU-hour's price is
given, and the one line of the text summary (largest part first)."""

from __future__ import annotations

from ..core.summary_types import LABELS, GoodputPart, Summary
from ..phases.goodput import STILL, UNEVEN, Ledger
from ..steps.run import Run
from .words import duration, ledger_order


def goodput_part(ledger: Ledger | None, run: Run) -> GoodputPart | None:
    """summary["goodput"]: the ledger, with GPU-hours (wall seconds x GPUs / 3600) when the GPU count is
    known, and their cost with --gpu-hour-cost."""
    if ledger is None:
        return None
    part = ledger.as_dict()
    gpus = run.value("gpus")
    price = run.value("gpu_hour_cost")
    hours = None if gpus is None or ledger.wall_s is None else ledger.wall_s * float(gpus) / 3600.0
    part["gpu_hours"] = None if hours is None else round(hours, 3)
    part["gpu_hours_badput"] = {
        k: (None if gpus is None or v is None else round(v * float(gpus) / 3600.0, 3))
        for k, v in part["badput"].items()
    }
    part["gpu_hour_cost"] = price
    part["cost"] = None if hours is None or price is None else round(hours * float(price), 2)
    return part


def ledger_parts(g: GoodputPart) -> list[tuple[str, float]]:
    """The known badput categories with time in them, largest first (as the figure's bar), as (label, seconds)."""
    return [(LABELS[k], seconds) for k, seconds in ledger_order(g["badput"])]


def ledger_lines(s: Summary) -> list[str]:
    """`goodput 72% of 2.6 h: startup 5 min, checkpoints 5 min, ...`, largest first; without a clock, what
    the step times show and what is unknown."""
    g = s.get("goodput")
    if not g:
        return []
    parts = ", ".join(f"{label} {duration(sec)}" for label, sec in ledger_parts(g))
    # "startup: unknown without timestamps" for several parts: "unknown without timestamps: startup, other"
    grouped: dict[str, list[str]] = {}
    for why in g["unknown"].values():
        part, _, reason = why.partition(": ")
        grouped.setdefault(reason, []).append(part)
    unknown = [f"{reason}: {', '.join(parts)}" for reason, parts in grouped.items()]
    if g["goodput"] is not None and g["wall_s"] is not None:
        line = f"  goodput {g['goodput']:.0%} of {duration(g['wall_s'])}" + (f": {parts}" if parts else "")
        if g.get("gpu_hours") is not None:
            lost = sum(v for k, v in g["gpu_hours_badput"].items() if v is not None)
            line += f" ({g['gpu_hours']:,.1f} GPU-hours, {lost:,.1f} not training"
            if g.get("cost") is not None:
                line += f"; cost {g['cost']:,.2f} at {g['gpu_hour_cost']:g} a GPU-hour"
            line += ")"
    elif g["wall_s"] is not None:  # a clock, but not every step's own time, or times that do not add up
        why = "not every step's own time is in the log"
        if any(UNEVEN in reason for reason in g["unknown"].values()):
            why = "its parts come to more than the wall time"
        line = f"  goodput unknown of {duration(g['wall_s'])} ({why})"
        if parts:
            line += f": {parts}"
    else:
        productive = g["productive_s"]
        still = STILL in g["unknown"].get("other", "")
        clockless = "the log's stamps do not advance" if still else "no timestamps"
        line = f"  goodput unknown ({clockless}: no wall time)" + (
            f"; steps productive {duration(productive)}" if productive is not None else ""
        )
        if parts:
            line += f"; {parts}"
    lines = [line]
    if unknown:
        lines.append("    " + "; ".join(unknown))
    for p in g.get("periodic_dips", []):
        lost = "" if p["lost_s"] is None else f", {duration(p['lost_s'])} in all"
        lines.append(
            f"    dips every {p['every_steps']} steps ({p['count']}), -{p['depth']:.0%}{lost}, {p['cause']}"
        )
    return lines
