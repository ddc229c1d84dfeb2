"""Page: the batch outputs a person opens first, a leaderboard PNG and a static, offline index.html."""

from __future__ import annotations

import functools
import json
import math
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pandas as pd
import regex

from ..core.atomic import replacing
from ..core.atomic import write_text as atomic_write_text
from ..core.errors import flag
from ..core.summary_types import CATEGORIES, LABELS, Summary
from ..report.pngfile import save_figure
from ..report.thumbnail import THUMB_NAME, save_thumbnail
from ..report.unknowns import Unknown, mfu_blockers, unknowns

LEADERBOARD_TOP = 60  # bars drawn; the rest of the runs with an MFU are counted, not drawn
BAR_IN = 0.28  # inches per bar: the figure grows with the runs so labels keep their size
LINE_IN = 0.2  # inches per line of the "no MFU" list


def _num(x: Any) -> float | None:
    """A finite number or None (the index holds NaN, pd.NA and None for a figure it does not know)."""
    if x is None or x is pd.NA:
        return None
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _text(x: Any) -> str | None:
    if x is None or x is pd.NA or (isinstance(x, float) and math.isnan(x)):
        return None
    s = str(x)
    return s or None


# what a text shows otherwise than it is: format characters (Cf: the bidi overrides and isolates U+202A-202E and
# U+2066-2069 that show a name reversed, zero-width spaces and joiners, soft hyphens), control characters but
# the tab and newline a tooltip's lines need, line and paragraph separators, and lone surrogates
_UNSEEN = regex.compile(r"[\p{Cf}\p{Zl}\p{Zp}\p{Cs}\x00-\x08\x0b-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    """A text from a run (its name, error, warnings: a file name or a log's content) as the page and the
    leaderboard show it: each character that would show it otherwise than it is written as its escape
    (`\\u202e`), so that a name with a right-to-left override reads as typed, not reversed."""
    return _UNSEEN.sub(_escape, text)


def _escape(m: regex.Match[str]) -> str:
    code = ord(m.group())
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _int(x: Any) -> int | None:
    f = _num(x)
    return None if f is None else int(f)


def _run_dir(out_dir: Path, row: dict[str, object]) -> Path:
    out = _text(row.get("out"))
    return Path(out) if out else out_dir / str(row["run"])


def _summary(out_dir: Path, row: dict[str, object]) -> Summary | None:
    """The run's summary.json, as written (None when it cannot be read). A page row reads it for several
    cells (hardware, dip cost, why no MFU) and the leaderboard again: it is parsed once per version of the
    file (its path, size and modification time), not once per reader. Readers do not change it."""
    path = _run_dir(out_dir, row) / "summary.json"
    try:
        st = path.stat()
    except OSError:
        return None
    return _read_summary(str(path), st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=1024)
def _read_summary(path: str, size: int, mtime_ns: int) -> Summary | None:
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None


WARNINGS_JOINED = " | "  # how index.csv's `warning_texts` joins a run's warnings (engine writes it so)


def _warning_texts(out_dir: Path, row: dict[str, object]) -> list[str]:
    """The run's warnings, one string each: from the index's `warning_texts` (a list, a JSON list, or the
    index's own WARNINGS_JOINED text), else the run's summary. A warning may itself hold the separator: when
    the split does not give the index's `warnings` count, the run's summary.json has the list."""
    if "warning_texts" not in row:
        summary = _summary(out_dir, row)
        return [str(w) for w in summary.get("warnings", [])] if summary else []
    texts = row["warning_texts"]
    if isinstance(texts, list | tuple):
        return [str(t) for t in texts]
    s = _text(texts)
    if s is None:
        return []
    try:
        parsed = json.loads(s)
    except ValueError:
        parsed = None
    if isinstance(parsed, list):
        return [str(t) for t in parsed]
    split = [t.strip() for t in s.split(WARNINGS_JOINED) if t.strip()]
    count = _int(row.get("warnings"))
    if count is not None and len(split) != count:
        summary = _summary(out_dir, row)
        if summary and len(summary.get("warnings", [])) == count:
            return [str(w) for w in summary["warnings"]]
    return split


def _steps(row: dict[str, object]) -> str | None:
    a, b = _int(row.get("stable_start")), _int(row.get("stable_end"))
    return None if a is None or b is None else f"steps {a}..{b}"


def _hardware(row: dict[str, object]) -> str | None:
    """`h100-sxm × 8 GPUs` for the leaderboard's bars; None when neither is known."""
    hw, gpus = _text(row.get("hardware")), _int(row.get("gpus"))
    if hw is None and gpus is None:
        return None
    g = "? GPUs" if gpus is None else f"{gpus} GPU" + ("s" if gpus != 1 else "")
    return f"{hw or 'unknown hardware'} \u00d7 {g}"


def _hardware_cell(out_dir: Path, row: dict[str, object], failed: bool) -> tuple[str, str]:
    """The page's hardware cell, short (`h100-sxm × 8`, `? × 8` when the device is unknown), and its tooltip:
    the device and the GPU count in words, and for each one unknown what it is and the option that gives it
    (report.unknowns: `hardware unknown (pass --hw NAME or ...)`). The MFU cell says it again only where it
    is why there is no MFU."""
    if failed:
        return "n/a", "the run failed"
    hw, gpus = _text(row.get("hardware")), _int(row.get("gpus"))
    summary = _summary(out_dir, row)
    missing = unknowns(summary) if summary else {}
    gpu_words = None if gpus is None else f"{gpus} GPU" + ("s" if gpus != 1 else "")
    words = [
        hw
        if hw is not None
        else (missing["hardware"].text() if "hardware" in missing else "hardware unknown"),
        gpu_words
        if gpu_words is not None
        else (missing["gpus"].text() if "gpus" in missing else "GPU count unknown"),
    ]
    return f"{hw or '?'} \u00d7 {'?' if gpus is None else gpus}", "; ".join(words)


def _dip_cost(out_dir: Path, row: dict[str, object]) -> tuple[float | None, str, str | None]:
    """The dips' cost in seconds, its text and, when part of it cannot be measured, why (a tooltip). A dip is
    slower than its regime by definition, so a cost of 0 s means its steps' time could not show it: no step
    time logged, or the dip's steps no slower than the stable window's median step time it is measured
    against (phases._group_dips) -- unknown, not 0."""
    total, dips = _num(row.get("dip_lost_s")), _int(row.get("dips"))
    if not dips:
        return total, _fmt(total), None
    summary = _summary(out_dir, row)
    costs = [d.get("lost_s") for d in summary["dips"]] if summary and "dips" in summary else [total]
    unmeasured = sum(1 for c in costs if not c)
    if not unmeasured:
        return total, _fmt(total), None
    why = (
        f"{unmeasured} of {len(costs)} dip{'s' if len(costs) != 1 else ''}: cost unknown (no step time "
        "logged, or its steps no slower than the stable window's median step time it is measured against)"
    )
    if unmeasured == len(costs):
        return None, "unknown", why
    return total, "\u2265 " + _fmt(total), why


def no_mfu_reason(out_dir: Path, row: dict[str, object]) -> str:
    """Why a run has no stable MFU: its error, or what the MFU needed and the run did not give, read from
    the run's summary (report.unknowns), else from the index's columns."""
    error = _text(row.get("error"))
    if error or _text(row.get("status")) == "error":
        source = _text(row.get("source"))
        if error and source and error.startswith(source + ": "):
            error = error[len(source) + 2 :]  # the run's name already says which file
        return error or "failed"
    summary = _summary(out_dir, row)
    blockers = mfu_blockers(summary) if summary else _index_blockers(row)
    if not blockers:
        return "no MFU (see the run's summary.json warnings)"
    return "no MFU: " + "; ".join(u.text() for u in blockers)


def _index_blockers(row: dict[str, object]) -> list[Unknown]:
    """What blocks the MFU as far as the index's columns tell (a run folder without its summary.json).
    The index has no FLOPs/token: it is named only when nothing the index holds explains the missing MFU."""
    start = _int(row.get("stable_start"))
    shaped = {
        "gpus": _int(row.get("gpus")),
        "hardware": {"peak_tflops_per_gpu": _num(row.get("peak_tflops_per_gpu"))},
        "formula": _text(row.get("formula")),
        "flops_per_token": None,
        "model": {"seq_len": _int(row.get("seq_len"))},
        "stable": {
            "start_step": start,
            "tokens_per_s": _num(row.get("tokens_per_s")),
            "tokens_per_s_per_gpu": _num(row.get("tokens_per_s_per_gpu")),
        },
    }
    blockers = mfu_blockers(shaped)
    rest = [u for u in blockers if u.what != "flops_per_token"]
    return rest or blockers


def _short(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "\u2026"


OTHER_MARK = "\u2020"  # † beside an MFU counted by another FLOPs formula than most runs
OTHER_COLOR = "#e07b00"  # its bar


@dataclass(frozen=True)
class FormulaMarks:
    """The FLOPs formula most of the runs with an MFU were counted by (`common`; on a tie, the best run's of
    the tied) and how many share it: an MFU counted by another formula is not comparable with the others
    (6N leaves out attention's term that palm counts), so the leaderboard and the page mark it."""

    common: str | None
    shared: int  # runs with an MFU counted by `common`
    ranked: int  # runs with an MFU

    def other(self, formula: str | None) -> bool:
        """Is an MFU counted by `formula` to be marked (another formula than most runs')?"""
        return self.shared < self.ranked and formula != self.common

    def caption(self, what: str = "bar") -> str | None:
        """`FLOPs/token by the palm formula for 7 of 8 bars; † another formula, named beside it` (None
        without an MFU)."""
        if not self.ranked:
            return None
        by = f"the {self.common} formula" if self.common else "no stated formula"
        if self.shared == self.ranked:
            every = "both" if self.ranked == 2 else "the" if self.ranked == 1 else "every"
            return f"FLOPs/token by {by} for {every} {what}{'s' if self.ranked == 2 else ''}"
        return (
            f"FLOPs/token by {by} for {self.shared} of {self.ranked} {what}s; "
            f"{OTHER_MARK} another formula, named beside it: not comparable with the others"
        )


def formula_marks(rows: list[dict[str, object]]) -> FormulaMarks:
    """The FormulaMarks of the index's rows (the `formula` of those with an MFU)."""
    ranked = sorted(
        (r for r in rows if _num(r.get("mfu")) is not None), key=lambda r: -(_num(r["mfu"]) or 0.0)
    )
    counts: dict[str | None, int] = {}
    for r in ranked:  # in rank order: on a tie, the first counted is the best run's
        f = _text(r.get("formula"))
        counts[f] = counts.get(f, 0) + 1
    if not counts:
        return FormulaMarks(None, 0, 0)
    common = max(counts, key=lambda f: counts[f])
    return FormulaMarks(common, counts[common], len(ranked))


def write_leaderboard(out_dir: Path, index: pd.DataFrame) -> Path:
    """leaderboard.png: stable MFU per run as sorted horizontal bars, each with its stable window, hardware
    and GPU count, the FLOPs formula most bars share in the title and a bar of another formula marked and
    named; below them the runs without an MFU and why. Fixed margins in inches, so a figure with many runs
    grows taller instead of squeezing its labels."""
    import matplotlib

    matplotlib.use("Agg")
    from ..report.plots import plain_text

    with plain_text():  # a `$` in a run's name or an error is text, not mathtext
        return _draw_leaderboard(Path(out_dir), index)


def _draw_leaderboard(out_dir: Path, index: pd.DataFrame) -> Path:
    import matplotlib.pyplot as plt

    from ..report.plots import PlainFigure

    rows = index.to_dict("records")
    ranked = sorted((r for r in rows if _num(r.get("mfu")) is not None), key=lambda r: -_num(r["mfu"]))
    without = [r for r in rows if _num(r.get("mfu")) is None]
    shown, hidden = ranked[:LEADERBOARD_TOP], len(ranked) - LEADERBOARD_TOP
    marks = formula_marks(rows)
    others = [r for r in ranked if marks.other(_text(r.get("formula")))]

    caption = marks.caption()
    top_in, gap_in, bottom_in = (1.35 if caption else 1.1), 0.55, 0.25
    bars_in = max(len(shown), 1) * BAR_IN + 0.3
    more_in = LINE_IN if hidden > 0 else 0.0
    note = _other_formula_note(marks, others)
    note_in = LINE_IN * len(note)
    lines = _without_lines(out_dir, without)
    list_in = (len(lines) + 1) * LINE_IN if without else 0.0
    height = top_in + bars_in + gap_in + note_in + more_in + list_in + bottom_in
    width = 12.0
    fig = plt.figure(figsize=(width, height), FigureClass=PlainFigure)
    title = f"Stable MFU by run ({len(ranked)} of {len(rows)} run{'s' if len(rows) != 1 else ''} with an MFU)"
    fig.text(0.35 / width, 1 - 0.35 / height, title, fontsize=13, weight="bold", va="center")
    if caption:
        fig.text(0.35 / width, 1 - 0.65 / height, caption, fontsize=9.5, va="center", gid="formula:caption")

    ax = fig.add_axes(
        (3.3 / width, 1 - (top_in + bars_in) / height, (width - 3.3 - 3.6) / width, bars_in / height)
    )
    _draw_bars(ax, shown, marks)
    y_in = top_in + bars_in + 0.25  # the footnote of the marked bars, just under them
    for text in note:
        fig.text(3.3 / width, 1 - y_in / height, text, fontsize=9, color=OTHER_COLOR, gid="formula:note")
        y_in += LINE_IN
    y_in += gap_in - (0.25 if note else 0.0)
    if hidden > 0:
        fig.text(
            3.3 / width,
            1 - y_in / height,
            f"and {hidden} more run{'s' if hidden != 1 else ''} with an MFU, below these (see index.html)",
            fontsize=9,
            style="italic",
        )
        y_in += more_in
    if without:
        _list_without(fig, lines, y_in, width, height)

    path = out_dir / "leaderboard.png"
    with replacing(path) as tmp:  # whole or not at all
        save_figure(fig, tmp, dpi=100)
    plt.close(fig)
    return path


def _other_formula_note(marks: FormulaMarks, others: list[dict[str, object]]) -> list[str]:
    """The footnote of the marked bars: which formulas, how many runs each, and the option that counts them
    all one way; wrapped to the figure's width."""
    if not others:
        return []
    by: dict[str, int] = {}
    for r in others:
        f = _text(r.get("formula")) or "no stated formula"
        by[f] = by.get(f, 0) + 1
    counted = ", ".join(f"{f} ({n} run{'s' if n != 1 else ''})" for f, n in by.items())
    text = f"{OTHER_MARK} counted by another FLOPs formula than {marks.common or 'most runs'}: {counted}"
    if marks.common:
        text += f"; {flag('formula', marks.common)} counts every run one way"
    return textwrap.wrap(text, LIST_CHARS - 40)


def _draw_bars(ax: Any, shown: list[dict[str, object]], marks: FormulaMarks) -> None:
    """The ranked runs as horizontal bars, best on top, each labelled with its MFU, window and hardware, a
    bar counted by another formula than most in its own colour with the mark and its formula; a note
    instead when no run has an MFU."""
    from ..report.plots import plain

    if not shown:
        ax.set_axis_off()
        ax.text(0, 0.5, "no run has a stable MFU", fontsize=11, va="center", transform=ax.transAxes)
        return
    mfu = [_num(r["mfu"]) * 100 for r in shown]
    other = [marks.other(_text(r.get("formula"))) for r in shown]
    y = list(range(len(shown)))
    ax.barh(y, mfu, color=[OTHER_COLOR if o else "#2ca02c" for o in other], height=0.7)
    ax.set_yticks(y, [_short(plain(visible(r["run"])), NAME_CHARS) for r in shown], fontsize=9)
    ax.set_ylim(len(shown) - 0.4, -0.6)
    ax.set_xlim(0, max(mfu) * 1.02)
    for yi, (r, m, o) in enumerate(zip(shown, mfu, other, strict=True)):
        figure = (
            f"{m:.1f}% {OTHER_MARK} {_text(r.get('formula')) or 'no stated formula'}" if o else f"{m:.1f}%"
        )
        label = plain(visible("  ".join(s for s in (figure, _steps(r), _hardware(r)) if s)))
        ax.annotate(
            label,
            (m, yi),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=8.5,
            color=OTHER_COLOR if o else "black",
            gid="bar:other" if o else "bar:label",
        )
    ax.set_xlabel("MFU over the stable window (%)")
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    ax.grid(axis="x", alpha=0.3)
    for side in ("right", "bottom"):
        ax.spines[side].set_visible(False)


NAME_CHARS = 44  # a run's name in the leaderboard, cut with an ellipsis beyond (index.html has it whole)
LIST_CHARS = 150  # characters per line of the "no MFU" list: 8.5 pt text in the figure's 11.5 inches
LIST_LINES = 60  # lines of it drawn at most; the runs of the groups left out are counted


def _without_lines(out_dir: Path, without: list[dict[str, object]]) -> list[tuple[str, str]]:
    """The "without an MFU" list as drawn, one (text, style) per line: the runs grouped by their reason
    (no_mfu_reason), in order of first appearance. A reason one run has reads `run: reason`; one that many
    share is said once, `27 runs: no MFU: hardware unknown (pass --hw NAME ...)`, then their names. Each is
    wrapped to the figure's width, never cut; past LIST_LINES lines, the runs left out are counted."""
    from ..report.plots import plain

    groups: dict[str, list[str]] = {}
    for r in without:
        # a name as long as the bars' labels (NAME_CHARS), the reason whole
        reason, name = plain(visible(no_mfu_reason(out_dir, r))), _short(plain(visible(r["run"])), NAME_CHARS)
        groups.setdefault(reason, []).append(name)

    def wrap(text: str, kind: str, indent: str = "") -> list[tuple[str, str]]:
        return [
            (s, kind)
            for s in textwrap.wrap(text, LIST_CHARS, initial_indent=indent, subsequent_indent="    ")
        ]

    lines: list[tuple[str, str]] = []
    left = len(without)
    for reason, runs in groups.items():
        if len(runs) == 1:
            block = wrap(f"{runs[0]}: {reason}", "reason")
        else:
            block = wrap(f"{len(runs)} runs: {reason}", "reason") + wrap(", ".join(runs), "names", "    ")
        if len(lines) + len(block) > LIST_LINES and lines:
            break
        lines += block
        left -= len(runs)
    if left > 0:
        more = f"and {left} more run{'s' if left != 1 else ''} without an MFU (see index.html)"
        lines.append((more, "more"))
    return lines


def _list_without(fig: Any, lines: list[tuple[str, str]], y_in: float, width: float, height: float) -> None:
    """Below the bars, from `y_in` inches down: the runs without an MFU and why (_without_lines)."""
    fig.text(0.35 / width, 1 - y_in / height, "Without an MFU:", fontsize=10, weight="bold")
    look = {"reason": {"color": "#444444"}, "names": {"color": "#777777"}, "more": {"style": "italic"}}
    for text, kind in lines:
        y_in += LINE_IN
        fig.text(0.5 / width, 1 - y_in / height, text, fontsize=8.5, gid=f"no-mfu:{kind}", **look[kind])


def _fmt(x: float | None, digits: int = 3) -> str:
    """A figure of the page: from 1,000 on a whole number with thousands separators (`9,663`, `28,202`:
    one format for a column), below it `digits` significant digits."""
    if x is None:
        return ""
    if abs(x) >= min(10**digits, 1000):
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"


def _href(out_dir: Path, target: Path) -> str:
    """A link from index.html to a file, relative when the file is under the output folder."""
    try:
        rel = target.resolve().relative_to(out_dir.resolve())
    except ValueError:
        return target.resolve().as_uri()
    return quote(rel.as_posix())


@dataclass(frozen=True)
class PageRow:
    """What one run's row of index.html shows (the text) and sorts by (the values): the record between the
    index and the template (templates/index.html.j2 reads these names)."""

    run: str
    failed: bool
    framework: str  # the pattern set that read the log (index `format`)
    thumb: str | None  # the report's thumbnail (THUMB_NAME beside report.png)
    report: str | None  # links, relative to the page where they can be
    summary: str | None
    mfu: float | None
    mfu_text: str
    formula: str | None  # the FLOPs formula of the MFU (index `formula`), for a run with an MFU
    formula_other: bool  # counted by another formula than most runs with an MFU (FormulaMarks)
    no_mfu: str | None  # why there is no MFU (no_mfu_reason), for a run without one
    window: str
    stable_start: int | None
    hardware: str  # `h100-sxm × 8`
    hardware_note: str  # the tooltip: both in words, and the option for each one unknown
    tokens_per_s_per_gpu: float | None
    samples_per_s_per_gpu: float | None  # a run that counts samples, not tokens (its summary's `samples`)
    step_time_s: float | None
    dips: int | None
    dip_lost_s: float | None  # None when no dip's cost could be measured
    dip_cost_text: str
    dip_cost_note: str | None  # why part of the cost is unknown
    restarts: int | None
    goodput: float | None  # productive / wall time (the ledger)
    goodput_text: str
    goodput_note: str  # the tooltip: GPU-hours lost per category, largest first
    warnings: int | None
    warning_texts: str  # the tooltip: one warning a line
    status: str
    error: str | None


def page_rows(out_dir: Path, index: pd.DataFrame, marks: FormulaMarks | None = None) -> list[PageRow]:
    """One PageRow per run of the index: the failed runs first, then the others, each in the index's order.
    `marks`: the formulas of the whole index (by default, of these rows)."""
    out_dir = Path(out_dir)
    records = index.to_dict("records")
    marks = marks or formula_marks(records)
    rows = [_page_row(out_dir, r, marks) for r in records]
    return [r for r in rows if r.failed] + [r for r in rows if not r.failed]


def _page_row(out_dir: Path, r: dict[str, object], marks: FormulaMarks) -> PageRow:
    failed = _is_failed(r)
    run_dir = _run_dir(out_dir, r)
    report, summary = run_dir / "report.png", run_dir / "summary.json"
    mfu = _num(r.get("mfu"))
    formula = _text(r.get("formula")) if mfu is not None else None
    warnings = _int(r.get("warnings"))
    texts = [] if failed else _warning_texts(out_dir, r)
    dip_lost, dip_text, dip_note = _dip_cost(out_dir, r) if not failed else (None, "", None)
    thumb = write_thumbnail(report) if not failed and report.exists() else None
    hardware, hardware_note = _hardware_cell(out_dir, r, failed)
    return PageRow(
        run=str(r["run"]),
        failed=failed,
        framework=_text(r.get("format")) or ("" if failed else "unknown"),
        thumb=_href(out_dir, thumb) if thumb else None,
        report=_href(out_dir, report) if not failed and report.exists() else None,
        summary=_href(out_dir, summary) if not failed and summary.exists() else None,
        mfu=mfu,
        mfu_text="" if mfu is None else f"{mfu * 100:.1f}%",
        formula=formula,
        formula_other=mfu is not None and marks.other(formula),
        no_mfu=None if failed or mfu is not None else no_mfu_reason(out_dir, r),
        window=_steps(r) or "",
        stable_start=_int(r.get("stable_start")),
        hardware=hardware,
        hardware_note=hardware_note,
        tokens_per_s_per_gpu=_num(r.get("tokens_per_s_per_gpu")),
        samples_per_s_per_gpu=None if failed else _samples_per_gpu(out_dir, r),
        step_time_s=_num(r.get("step_time_s")),
        dips=_int(r.get("dips")),
        dip_lost_s=dip_lost,
        dip_cost_text=dip_text,
        dip_cost_note=dip_note,
        restarts=_int(r.get("restarts")),
        goodput=_num(r.get("goodput")),
        goodput_text="" if _num(r.get("goodput")) is None else f"{_num(r.get('goodput')) * 100:.0f}%",
        goodput_note=_goodput_note(r),
        warnings=warnings if warnings is not None else (None if failed else len(texts)),
        warning_texts="\n".join(texts),
        status="error" if failed else " \u00b7 ".join(s for s in ("ok", _text(r.get("run_status"))) if s),
        error=no_mfu_reason(out_dir, r) if failed else None,
    )


def _samples_per_gpu(out_dir: Path, r: dict[str, object]) -> float | None:
    """The stable samples/s per GPU of a run that counts samples, not tokens, from its summary (the index has
    tokens/s alone); None for a run that counts tokens."""
    if _num(r.get("tokens_per_s_per_gpu")) is not None:
        return None
    summary = _summary(out_dir, r)
    samples = (summary or {}).get("samples") or {}
    return _num(samples.get("samples_per_s_per_gpu"))


def _lost_hours(r: dict[str, object]) -> list[tuple[str, float]]:
    """A run's GPU-hours lost per badput category (index columns gpu_hours_<category>), largest first."""
    lost = [(LABELS[c], _num(r.get(f"gpu_hours_{c}"))) for c in CATEGORIES]
    return sorted(((k, v) for k, v in lost if v), key=lambda kv: -kv[1])


def _goodput_note(r: dict[str, object]) -> str:
    hours = _num(r.get("gpu_hours"))
    if hours is None:
        return "" if _num(r.get("goodput")) is None else "GPU-hours unknown: pass --gpus"
    parts = ", ".join(f"{k} {v:,.1f}" for k, v in _lost_hours(r))
    return f"{hours:,.1f} GPU-hours" + (f"; not training: {parts}" if parts else "")


def folder_total(index: pd.DataFrame) -> str | None:
    """ "this folder's 40 runs used 12,400 GPU-hours; 2,900 were not training: 38% restarts, ...", over the runs
    whose GPU-hours are known (the others are counted and named as unknown); None when none is known."""
    rows = [r for r in index.to_dict("records") if _text(r.get("status")) == "ok"]
    known = [r for r in rows if _num(r.get("gpu_hours")) is not None]
    if not known:
        return None
    total = sum(_num(r["gpu_hours"]) or 0.0 for r in known)
    by: dict[str, float] = {}
    for r in known:
        for k, v in _lost_hours(r):
            by[k] = by.get(k, 0.0) + v
    lost = sum(by.values())
    runs = f"{len(known)} run{'s' if len(known) != 1 else ''}"
    text = f"This folder's {runs} used {total:,.0f} GPU-hours"
    if lost > 0:
        shares = ", ".join(
            f"{v / lost:.0%} {k}" for k, v in sorted(by.items(), key=lambda kv: -kv[1]) if v / lost >= 0.005
        )
        text += f"; {lost:,.0f} were not training: {shares}"
    if len(known) < len(rows):
        text += f" ({len(rows) - len(known)} more without GPU-hours: no timestamps or GPU count)"
    cost = [_num(r.get("cost")) for r in known]
    if all(c is not None for c in cost):
        text += f"; cost {sum(c or 0.0 for c in cost):,.2f}"
    return text + "."


def write_thumbnail(report: Path) -> Path | None:
    """The report's thumbnail for the page (THUMB_NAME beside it), made from report.png when it is missing or
    older than the report (a batch draws it with the report: plots.plot_report); None when it cannot be made
    (the page then shows no picture)."""
    from PIL import Image

    thumb = report.with_name(THUMB_NAME)
    try:
        if thumb.exists() and thumb.stat().st_mtime >= report.stat().st_mtime:
            return thumb
        with Image.open(report) as im, replacing(thumb) as tmp:
            save_thumbnail(im, tmp)
    except OSError:
        return None
    return thumb


PAGE_ROWS = 500  # rows index.html holds at most: a page of 20,000 rows took 72 s to open (index.csv has all)


def _is_failed(r: dict[str, object]) -> bool:
    return _text(r.get("status")) == "error" or _text(r.get("error")) is not None


def page_part(index: pd.DataFrame) -> tuple[pd.DataFrame, str | None]:
    """The runs index.html lists, and what it says of those it leaves out: every run up to PAGE_ROWS; beyond,
    the first failed runs (a fifth of the page, more where the others do not fill it) and the others in the
    leaderboard's order, best stable MFU first, then those without one. index.csv and index.json, linked,
    hold every run."""
    if len(index) <= PAGE_ROWS:
        return index, None
    index = index.reset_index(drop=True)
    failed = pd.Series([_is_failed(r) for r in index.to_dict("records")], index=index.index)
    bad = index[failed].head(max(PAGE_ROWS // 5, PAGE_ROWS - int((~failed).sum())))
    mfu = pd.Series(
        [_num(x) for x in index.get("mfu", pd.Series(None, index=index.index))], index=index.index
    )
    order = mfu[~failed].sort_values(ascending=False, kind="stable", na_position="last")
    good = index.loc[order.index[: PAGE_ROWS - len(bad)]]
    n_failed, n_ok = int(failed.sum()), int((~failed).sum())
    parts = []
    if len(bad):
        parts.append(
            f"the first {len(bad):,} of the {n_failed:,} failed" if len(bad) < n_failed else "the failed"
        )
    if len(good):
        of = f"{len(good):,} of the {n_ok:,} others" if len(good) < n_ok else f"the {n_ok:,} others"
        parts.append(f"{of} in the leaderboard's order (best stable MFU first)")
    shown = len(bad) + len(good)
    note = (
        f"This page lists {shown:,} of the {len(index):,} runs: {', then '.join(parts)}. "
        "index.csv and index.json hold every run."
    )
    return pd.concat([bad, good]), note


_FLAG = regex.compile(r"--[a-z0-9][a-z0-9-]*(?: (?:[A-Z][A-Z0-9_]*|\d\S*)(?![\w-]))?")


def _flags(text: object) -> Any:
    """A text of the page (visible) with each command-line option in it, and the value it names
    (`--peak-tflops X`), kept on one line by CSS (span.flag): the text stays ASCII, and what is copied from
    the page is the option as typed (a non-breaking hyphen U+2011 would not be)."""
    from markupsafe import Markup, escape

    if text is None:
        return ""
    s = visible(str(text))
    out, at = [], 0
    for m in _FLAG.finditer(s):
        out += [
            escape(s[at : m.start()]),
            Markup('<span class="flag">'),
            escape(m.group()),
            Markup("</span>"),
        ]
        at = m.end()
    out.append(escape(s[at:]))
    return Markup("").join(out)


def _breaks(text: object) -> Any:
    """A name (visible) that may wrap after each `_` or `.` (<wbr>, which copies as nothing), as it may after
    a hyphen: a long run name wraps between its words, and between any two letters only when a word is
    longer than its cell (overflow-wrap)."""
    from markupsafe import Markup, escape

    parts = regex.split(r"(?<=[_.])", visible(str(text)))
    return Markup("<wbr>").join(escape(p) for p in parts)


def _finalize(value: Any) -> Any:
    """Every value the template writes: a text as visible() shows it (markup the page made itself is already)."""
    from markupsafe import Markup

    return visible(value) if isinstance(value, str) and not isinstance(value, Markup) else value


def write_index_page(out_dir: Path, index: pd.DataFrame) -> Path:
    """index.html: one sortable table of the runs with their report thumbnails; static, works offline."""
    from jinja2 import Environment, PackageLoader

    out_dir = Path(out_dir)
    env = Environment(
        loader=PackageLoader("logparse.batch", "templates"), autoescape=True, finalize=_finalize
    )
    env.filters["fmt"] = _fmt
    env.filters["flags"] = _flags
    env.filters["breaks"] = _breaks
    records = index.to_dict("records")
    marks = formula_marks(records)
    part, left_out = page_part(index)
    rows = page_rows(out_dir, part, marks)
    html = env.get_template("index.html.j2").render(
        rows=rows,
        runs=len(index),
        failed=sum(_is_failed(r) for r in records),
        left_out=left_out,
        formulas=marks.caption("run"),
        mark=OTHER_MARK,
        total=folder_total(index),
        skipped=index.attrs.get("skipped_lines", []),
        leaderboard="leaderboard.png" if (out_dir / "leaderboard.png").exists() else None,
    )
    path = out_dir / "index.html"
    atomic_write_text(path, html)
    return path


def write_page(out_dir: Path, index: pd.DataFrame) -> dict[str, Path]:
    """The leaderboard, then the index page that links to it."""
    out_dir = Path(out_dir)
    leaderboard = write_leaderboard(out_dir, index)
    return {"leaderboard": leaderboard, "index_html": write_index_page(out_dir, index)}
