"""Plots: the one-figure report a person reads in ten seconds (matplotlib, Agg backend)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .analysis import Analysis  # noqa: E402

WARMUP_COLOR = "#bbbbbb"
STABLE_COLOR = "#2ca02c"
DIP_COLOR = "#d62728"
RESTART_COLOR = "#9467bd"
REGIME_COLOR = "#ff7f0e"  # regimes other than the stable one, and the shifts between them
ENVELOPE_ABOVE = 4000  # steps; beyond this the curves are drawn as per-bin envelopes
ENVELOPE_BINS = 1500


def envelope(x: np.ndarray, y: np.ndarray, bins: int = ENVELOPE_BINS) -> tuple[np.ndarray, ...]:
    """Per-bin x centre, min, mean and max of y (NaNs ignored): a downsampling that keeps extremes."""
    edges = np.linspace(0, len(x), bins + 1).astype(int)
    xs, lo, mean, hi = [], [], [], []
    for a, b in zip(edges[:-1], edges[1:], strict=True):
        if b <= a:
            continue
        chunk = y[a:b]
        ok = chunk[np.isfinite(chunk)]
        xs.append(x[a:b].mean())
        if len(ok):
            lo.append(ok.min())
            mean.append(ok.mean())
            hi.append(ok.max())
        else:
            lo.append(np.nan)
            mean.append(np.nan)
            hi.append(np.nan)
    return np.array(xs), np.array(lo), np.array(mean), np.array(hi)


def _series(steps, col):
    if col in steps and steps[col].notna().any():
        return steps[col].to_numpy(dtype=float)
    return None


def plot_report(analysis: Analysis, path: str | Path) -> None:
    """report.png: MFU, throughput, step time and loss against the step, with the phases shaded."""
    s = analysis.summary
    steps = analysis.steps.sort_values("step", kind="stable")  # a resumed attempt's rows ran last
    x = steps["step"].to_numpy()
    panels = _panels(steps)
    fig, axes = plt.subplots(
        len(panels), 1, figsize=(12, 2.3 * len(panels) + 1.6), sharex=True, squeeze=False
    )
    axes = axes[:, 0]
    fig.suptitle(_title(s), fontsize=13, fontweight="bold", x=0.01, ha="left")
    for ax, (label, y, kind) in zip(axes, panels, strict=False):
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
        _shade_phases(ax, s, steps, x, kind)
        if y is None:
            _say_unknown(ax, s)
            continue
        _curve(ax, x, y)
        _stable_marks(ax, s["stable"], kind, label)
        _y_limits(ax, y, kind)
    _legend(axes[0], s)
    _checkpoint_marks(axes[-1], analysis.run.parsed.events)
    axes[-1].set_xlabel("optimizer step")
    fig.text(
        0.01,
        0.01,
        "\n".join(textwrap.wrap(_assumptions(s), 170)),
        fontsize=8,
        va="bottom",
        family="monospace",
        color="#333333",
    )
    # fixed margins in inches (title above, the assumptions below): tight_layout would draw the whole
    # figure once more just to measure it, doubling the cost of every report
    height = fig.get_figheight()
    fig.subplots_adjust(left=0.07, right=0.985, top=1 - 0.75 / height, bottom=1.05 / height, hspace=0.12)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _panels(steps) -> list[tuple[str, np.ndarray | None, str]]:
    """(y label, values, kind) per panel: MFU always (empty when unknown), then what the log gives."""
    mfu = _series(steps, "mfu")
    panels = [("MFU (%)", mfu * 100 if mfu is not None else None, "mfu")]
    tps = _series(steps, "tokens_per_s_per_gpu")
    if tps is not None:
        panels.append(("tokens/s per GPU", tps, "tps"))
    elif _series(steps, "tokens_per_s") is not None:
        panels.append(("tokens/s (cluster)", _series(steps, "tokens_per_s"), "tps"))
    if _series(steps, "step_time_s") is not None:
        panels.append(("step time (s)", _series(steps, "step_time_s"), "time"))
    if _series(steps, "loss") is not None:
        panels.append(("loss", _series(steps, "loss"), "loss"))
    return panels


def _title(s) -> str:
    hw = s["hardware"]
    gpus = s["gpus"] if s["gpus"] is not None else "?"
    title = f"{s['run']}  |  {gpus} x {hw['name'] or 'unknown hardware'} ({hw['dtype']})  |  {s['format']}"
    if s["stable"]["mfu_mean"] is not None:
        title += f"  |  stable MFU {s['stable']['mfu_mean']:.1%}"
    return title


def _shade_phases(ax, s, steps, x, kind: str) -> None:
    """Warmup, the stable window, other regimes and shifts, restarts and dips, on every panel."""
    st = s["stable"]
    if s["warmup_steps"]:
        ax.axvspan(x[0], s["warmup_steps"] + 0.5, color=WARMUP_COLOR, alpha=0.35, lw=0)
    if st["start_step"] is not None:
        ax.axvspan(st["start_step"], st["end_step"], color=STABLE_COLOR, alpha=0.07, lw=0)
    for r in s.get("regimes", []):
        if not r["stable"] and len(s["regimes"]) > 1:
            ax.axvspan(r["start_step"], r["end_step"], color=REGIME_COLOR, alpha=0.08, lw=0)
            if kind == "mfu" and r["mfu_median"] is not None:
                ax.hlines(
                    r["mfu_median"] * 100, r["start_step"], r["end_step"], color=REGIME_COLOR, lw=1.5, ls="--"
                )
    for sh in s.get("shifts", []):
        ax.axvline(sh["at_step"], color=REGIME_COLOR, lw=1.4)
        if kind == "mfu":
            ax.annotate(
                f"{sh['change']:+.0%}",
                (sh["at_step"], 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(3, -12),
                textcoords="offset points",
                color=REGIME_COLOR,
                fontsize=9,
                fontweight="bold",
            )
    if "phase" in steps:
        for _seg, rows in steps[steps["phase"] == "restart"].groupby("segment"):
            ax.axvspan(
                rows["step"].min() - 0.5, rows["step"].max() + 0.5, color=WARMUP_COLOR, alpha=0.35, lw=0
            )
    min_width = 0.004 * (x[-1] - x[0]) if len(x) > 1 else 1  # a one-step dip in a long run stays visible
    for d in s["dips"]:
        half = max((d["end_step"] - d["start_step"] + 1) / 2, min_width / 2)
        centre = (d["start_step"] + d["end_step"]) / 2
        ax.axvspan(centre - half, centre + half, color=DIP_COLOR, alpha=0.25, lw=0)
        if kind == "mfu":
            ax.plot([centre], [0], marker="^", color=DIP_COLOR, ms=7, clip_on=False, zorder=5)
    for r in s["restarts"]:
        at = r["resumed_from"] if r["resumed_from"] is not None else r["at_step"]
        ax.axvline(at, color=RESTART_COLOR, ls="--", lw=1.2)


def _say_unknown(ax, s) -> None:
    ax.text(
        0.5,
        0.5,
        "MFU unknown: " + _missing(s),
        transform=ax.transAxes,
        ha="center",
        va="center",
        fontsize=10,
        color="#555555",
        wrap=True,
    )
    ax.set_yticks([])


def _curve(ax, x, y) -> None:
    if len(x) > ENVELOPE_ABOVE:
        # too many steps to draw one by one: per bin, the min-max envelope and the mean, so a one-step dip
        # stays visible
        xs, lo, mean, hi = envelope(np.asarray(x, dtype=float), y)
        ax.fill_between(xs, lo, hi, color="#1f77b4", alpha=0.3, lw=0)
        ax.plot(xs, mean, lw=0.8, color="#1f77b4")
    else:
        ax.plot(x, y, lw=1.0, color="#1f77b4", marker="o" if len(x) <= 60 else None, ms=3)


def _stable_marks(ax, st, kind: str, label: str) -> None:
    if kind == "mfu" and st["mfu_mean"] is not None:
        ax.hlines(st["mfu_mean"] * 100, st["start_step"], st["end_step"], color=STABLE_COLOR, lw=2)
        ax.text(
            0.99,
            0.96,
            f"stable MFU {st['mfu_mean']:.1%}  (steps {st['start_step']}-{st['end_step']}, "
            f"median {st['mfu_median']:.1%})",
            transform=ax.transAxes,
            ha="right",
            va="top",
            color=STABLE_COLOR,
            fontsize=10,
            fontweight="bold",
            bbox={"facecolor": "white", "alpha": 0.85, "edgecolor": STABLE_COLOR, "boxstyle": "round"},
        )
    if kind == "tps" and st["tokens_per_s_per_gpu"] is not None and label.endswith("per GPU"):
        ax.hlines(st["tokens_per_s_per_gpu"], st["start_step"], st["end_step"], color=STABLE_COLOR, lw=1.5)


def _y_limits(ax, y, kind: str) -> None:
    finite = y[np.isfinite(y)]
    if len(finite) and kind in ("mfu", "tps", "time"):
        lo, hi = np.nanpercentile(finite, 0.5), np.nanpercentile(finite, 99.5)
        pad = 0.1 * (hi - lo or hi or 1)
        top = hi + (3 if kind == "mfu" else 1) * pad  # room for the label above the curve
        ax.set_ylim(min(0, lo - pad) if kind != "time" else max(0, lo - pad), top)


def _legend(ax, s) -> None:
    if s["warmup_steps"]:
        ax.plot([], [], color=WARMUP_COLOR, lw=8, alpha=0.5, label="warmup")
    ax.plot([], [], color=STABLE_COLOR, lw=8, alpha=0.3, label="stable window")
    if s["dips"]:
        ax.plot([], [], color=DIP_COLOR, lw=8, alpha=0.4, label=f"dips ({len(s['dips'])})")
    if s["restarts"]:
        ax.plot([], [], color=RESTART_COLOR, ls="--", label=f"restarts ({len(s['restarts'])})")
    if s.get("shifts"):
        ax.plot(
            [], [], color=REGIME_COLOR, lw=1.4, label=f"shifts ({len(s['shifts'])}), other regimes shaded"
        )
    ax.legend(loc="lower right", fontsize=8, ncol=4, framealpha=0.8)


def _checkpoint_marks(ax, events) -> None:
    if events.empty or "step" not in events:
        return
    marks = events.loc[events["event"] == "checkpoint_save", "step"].dropna().unique()
    for m in marks:
        ax.axvline(m, color="#7f7f7f", lw=0.6, ls=":")
    if len(marks):
        ax.plot([], [], color="#7f7f7f", lw=0.6, ls=":", label="checkpoint saves")
        ax.legend(loc="upper right", fontsize=8)


def _missing(s) -> str:
    needs = []
    if s["gpus"] is None:
        needs.append("--gpus")
    if s["hardware"]["peak_tflops_per_gpu"] is None:
        needs.append("--hw")
    if s["flops_per_token"] is None:
        needs.append("--params/--model" if s["model"]["seq_len"] else "--seq-len and --params/--model")
    return "pass " + ", ".join(needs) if needs else "no throughput in the log"


def _assumptions(s) -> str:
    hw = s["hardware"]
    m = s["model"]
    parts = [
        f"GPUs {s['gpus']} ({s['gpus_source']})",
        f"peak {hw['peak_tflops_per_gpu']} TFLOPS dense {hw['dtype']} ({hw['dtype_source']})",
        f"formula {s['formula']} = {s['flops_per_token']:.3e} FLOPs/token"
        if s["flops_per_token"]
        else "formula ?",
        f"N {m['params']:.4g} ({m['source']})" if m["params"] else "N ?",
        f"seq len {m['seq_len']} ({s['facts'].get('seq_len', {}).get('source', '?')})",
        f"recompute {s['recompute']}"
        + (f" (HFU: {s['hfu_convention'].split(':')[0]})" if s["recompute"] != "none" else ""),
        f"step time: {s['steps']['step_time_source']}",
        f"stable = {s['stable'].get('averaging', '')}",
    ]
    if s["warnings"]:
        parts.append(f"{len(s['warnings'])} warning(s) in summary.json")
    return "assumptions: " + "; ".join(parts)
