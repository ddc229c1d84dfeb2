"""Page: the batch outputs a person opens first, a leaderboard PNG and a static, offline index.html."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pandas as pd

from ..core.atomic import replacing
from ..core.atomic import write_text as atomic_write_text
from ..core.summary_types import Summary
from ..report.unknowns import Unknown, mfu_blockers

LEADERBOARD_TOP = 60  # bars drawn; the rest of the runs with an MFU are counted, not drawn
LEADERBOARD_NO_MFU = 25  # runs without an MFU listed by name and reason; the rest are counted
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


def _int(x: Any) -> int | None:
    f = _num(x)
    return None if f is None else int(f)


def _run_dir(out_dir: Path, row: dict[str, object]) -> Path:
    out = _text(row.get("out"))
    return Path(out) if out else out_dir / str(row["run"])


def _summary(out_dir: Path, row: dict[str, object]) -> Summary | None:
    """The run's summary.json, as written (None when it cannot be read)."""
    path = _run_dir(out_dir, row) / "summary.json"
    try:
        return json.loads(path.read_text())
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
    hw, gpus = _text(row.get("hardware")), _int(row.get("gpus"))
    if hw is None and gpus is None:
        return None
    g = "? GPUs" if gpus is None else f"{gpus} GPU" + ("s" if gpus != 1 else "")
    return f"{hw or 'unknown hardware'} \u00d7 {g}"


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


def write_leaderboard(out_dir: Path, index: pd.DataFrame) -> Path:
    """leaderboard.png: stable MFU per run as sorted horizontal bars, each with its stable window, hardware
    and GPU count; below them the runs without an MFU and why. Fixed margins in inches, so a figure with
    many runs grows taller instead of squeezing its labels."""
    import matplotlib

    matplotlib.use("Agg")
    from ..report.plots import plain_text

    with plain_text():  # a `$` in a run's name or an error is text, not mathtext (issue 20, point 3)
        return _draw_leaderboard(Path(out_dir), index)


def _draw_leaderboard(out_dir: Path, index: pd.DataFrame) -> Path:
    import matplotlib.pyplot as plt

    from ..report.plots import PlainFigure

    rows = index.to_dict("records")
    ranked = sorted((r for r in rows if _num(r.get("mfu")) is not None), key=lambda r: -_num(r["mfu"]))
    without = [r for r in rows if _num(r.get("mfu")) is None]
    shown, hidden = ranked[:LEADERBOARD_TOP], len(ranked) - LEADERBOARD_TOP

    top_in, gap_in, bottom_in = 1.1, 0.55, 0.25
    bars_in = max(len(shown), 1) * BAR_IN + 0.3
    more_in = LINE_IN if hidden > 0 else 0.0
    listed = min(len(without), LEADERBOARD_NO_MFU)
    list_in = (listed + 1 + (len(without) > listed)) * LINE_IN if without else 0.0
    height = top_in + bars_in + gap_in + more_in + list_in + bottom_in
    width = 12.0
    fig = plt.figure(figsize=(width, height), FigureClass=PlainFigure)
    title = f"Stable MFU by run ({len(ranked)} of {len(rows)} run{'s' if len(rows) != 1 else ''} with an MFU)"
    fig.text(0.35 / width, 1 - 0.4 / height, title, fontsize=13, weight="bold", va="center")

    ax = fig.add_axes(
        (3.3 / width, 1 - (top_in + bars_in) / height, (width - 3.3 - 3.6) / width, bars_in / height)
    )
    _draw_bars(ax, shown)
    y_in = top_in + bars_in + gap_in
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
        _list_without(fig, out_dir, without, y_in, width, height)

    path = out_dir / "leaderboard.png"
    with replacing(path) as tmp:  # whole or not at all
        fig.savefig(tmp, dpi=100)
    plt.close(fig)
    return path


def _draw_bars(ax: Any, shown: list[dict[str, object]]) -> None:
    """The ranked runs as horizontal bars, best on top, each labelled with its MFU, window and hardware;
    a note instead when no run has an MFU."""
    from ..report.plots import plain

    if not shown:
        ax.set_axis_off()
        ax.text(0, 0.5, "no run has a stable MFU", fontsize=11, va="center", transform=ax.transAxes)
        return
    mfu = [_num(r["mfu"]) * 100 for r in shown]
    y = list(range(len(shown)))
    ax.barh(y, mfu, color="#2ca02c", height=0.7)
    ax.set_yticks(y, [_short(plain(r["run"]), 44) for r in shown], fontsize=9)
    ax.set_ylim(len(shown) - 0.4, -0.6)
    ax.set_xlim(0, max(mfu) * 1.02)
    for yi, (r, m) in enumerate(zip(shown, mfu, strict=True)):
        label = plain("  ".join(s for s in (f"{m:.1f}%", _steps(r), _hardware(r)) if s))
        ax.annotate(label, (m, yi), xytext=(4, 0), textcoords="offset points", va="center", fontsize=8.5)
    ax.set_xlabel("MFU over the stable window (%)")
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    ax.grid(axis="x", alpha=0.3)
    for side in ("right", "bottom"):
        ax.spines[side].set_visible(False)


def _list_without(
    fig: Any, out_dir: Path, without: list[dict[str, object]], y_in: float, width: float, height: float
) -> None:
    """Below the bars, from `y_in` inches down: the first LEADERBOARD_NO_MFU runs without an MFU, each
    with why (no_mfu_reason), then how many more."""
    from ..report.plots import plain

    listed, unlisted = without[:LEADERBOARD_NO_MFU], len(without) - LEADERBOARD_NO_MFU
    fig.text(0.35 / width, 1 - y_in / height, "Without an MFU:", fontsize=10, weight="bold")
    for r in listed:
        y_in += LINE_IN
        line = f"{_short(plain(r['run']), 44)}: {_short(plain(no_mfu_reason(out_dir, r)), 150)}"
        fig.text(0.5 / width, 1 - y_in / height, line, fontsize=8.5, color="#444444")
    if unlisted > 0:
        y_in += LINE_IN
        fig.text(0.5 / width, 1 - y_in / height, f"and {unlisted} more", fontsize=8.5, style="italic")


def _fmt(x: float | None, digits: int = 3) -> str:
    if x is None:
        return ""
    if abs(x) >= 10**digits:
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
    report: str | None  # links, relative to the page where they can be
    summary: str | None
    mfu: float | None
    mfu_text: str
    no_mfu: str | None  # why there is no MFU (no_mfu_reason), for a run without one
    window: str
    stable_start: int | None
    hardware: str
    tokens_per_s_per_gpu: float | None
    step_time_s: float | None
    dips: int | None
    dip_lost_s: float | None
    restarts: int | None
    warnings: int | None
    warning_texts: str  # the tooltip: one warning a line
    status: str
    error: str | None


def page_rows(out_dir: Path, index: pd.DataFrame) -> list[PageRow]:
    """One PageRow per run of the index, in its order."""
    out_dir = Path(out_dir)
    return [_page_row(out_dir, r) for r in index.to_dict("records")]


def _page_row(out_dir: Path, r: dict[str, object]) -> PageRow:
    failed = _text(r.get("status")) == "error" or _text(r.get("error")) is not None
    run_dir = _run_dir(out_dir, r)
    report, summary = run_dir / "report.png", run_dir / "summary.json"
    mfu = _num(r.get("mfu"))
    warnings = _int(r.get("warnings"))
    texts = [] if failed else _warning_texts(out_dir, r)
    return PageRow(
        run=str(r["run"]),
        failed=failed,
        report=_href(out_dir, report) if not failed and report.exists() else None,
        summary=_href(out_dir, summary) if not failed and summary.exists() else None,
        mfu=mfu,
        mfu_text="" if mfu is None else f"{mfu * 100:.1f}%",
        no_mfu=None if failed or mfu is not None else no_mfu_reason(out_dir, r),
        window=_steps(r) or "",
        stable_start=_int(r.get("stable_start")),
        hardware=_hardware(r) or "",
        tokens_per_s_per_gpu=_num(r.get("tokens_per_s_per_gpu")),
        step_time_s=_num(r.get("step_time_s")),
        dips=_int(r.get("dips")),
        dip_lost_s=_num(r.get("dip_lost_s")),
        restarts=_int(r.get("restarts")),
        warnings=warnings if warnings is not None else (None if failed else len(texts)),
        warning_texts="\n".join(texts),
        status="error" if failed else " \u00b7 ".join(s for s in ("ok", _text(r.get("run_status"))) if s),
        error=no_mfu_reason(out_dir, r) if failed else None,
    )


def write_index_page(out_dir: Path, index: pd.DataFrame) -> Path:
    """index.html: one sortable table of the runs with their report thumbnails; static, works offline."""
    from jinja2 import Environment, PackageLoader

    out_dir = Path(out_dir)
    env = Environment(loader=PackageLoader("logparse.batch", "templates"), autoescape=True)
    env.filters["fmt"] = _fmt
    rows = page_rows(out_dir, index)
    html = env.get_template("index.html.j2").render(
        rows=rows,
        failed=sum(r.failed for r in rows),
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
