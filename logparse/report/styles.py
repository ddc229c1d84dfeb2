"""How the report draws each kind of event: its row of the event lane, its mark and colour, and whether a line
marks it through every panel; a dip by what it came next to. Plain data (no matplotlib, no pandas): the process
that gathers the report's figures (gather.py) names the kinds, the drawing process (plots.py) draws them."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.summary_types import DipPart

DIP_COLOR = "#d62728"
RESTART_COLOR = "#9467bd"


@dataclass(frozen=True)
class Style:
    """How one kind of event is drawn: a mark in its row of the event lane, and, when `line` is a
    linestyle, a line at each mark through every panel."""

    label: str
    row: str
    color: str
    marker: str
    line: str | None = None


EVENT_STYLES: dict[str, Style] = {
    "checkpoint_save": Style("checkpoint save", "checkpoints", "#00838f", "s", "-"),
    "checkpoint_load": Style("checkpoint load", "checkpoints", "#4db6ac", "D"),
    "eval": Style("eval", "eval", "#8c564b", "o"),
    "nccl_error": Style("NCCL / communication error", "errors", "#b2182b", "X", "-"),
    "error": Style("error (Xid, OOM, traceback)", "errors", "#b2182b", "P", "-"),
    "nonfinite_loss": Style("NaN/inf loss", "NaN/inf", "#c51b7d", "*", ":"),
    "nonfinite_grad_norm": Style("NaN/inf grad norm", "NaN/inf", "#c51b7d", "p", ":"),
    "skipped": Style("skipped step (overflow)", "skipped", "#9e9d24", "H"),
    "restart": Style("restart (resumed here)", "restarts", RESTART_COLOR, "<", "--"),
}
# a dip's cause is the kind of the event lines next to it (phases.near_events), the first of these found
DIP_CAUSES = ("error", "checkpoint_save", "checkpoint_load", "eval", "overflow")
DIP_STYLES: dict[str, Style] = {
    "error": Style("dip near an error", "dips", "#000000", "v"),
    "checkpoint_save": Style("dip near checkpoint save", "dips", "#00838f", "v"),
    "checkpoint_load": Style("dip near checkpoint load", "dips", "#4db6ac", "v"),
    "eval": Style("dip near eval", "dips", "#8c564b", "v"),
    "overflow": Style("dip near skipped step", "dips", "#9e9d24", "v"),
    "other": Style("dip near another event line", "dips", "#7f7f7f", "v"),
    "none": Style("dip, no event nearby", "dips", DIP_COLOR, "v"),
}
LANE_ROWS = ("dips", "checkpoints", "eval", "errors", "NaN/inf", "skipped", "restarts")


def style_of(kind: str) -> Style:
    """The style of a mark kind: an event kind of EVENT_STYLES or `dip:<cause>`."""
    if kind.startswith("dip:"):
        return DIP_STYLES[kind[4:]]
    return EVENT_STYLES[kind]


def dip_cause(dip: DipPart) -> str:
    """What a dip came next to: the first of DIP_CAUSES among its near events, `other` for another event
    line, `none` when no event line is near."""
    kinds = {e["event"] for e in dip.get("near_events", [])}
    for cause in DIP_CAUSES:
        if cause in kinds:
            return cause
    return "other" if kinds else "none"
