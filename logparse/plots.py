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
    s = analysis.summary
    steps = analysis.steps.sort_values("step", kind="stable")  # a resumed attempt's rows ran last
    x = steps["step"].to_numpy()
    st = s["stable"]
    hw = s["hardware"]

    panels = []
    mfu = _series(steps, "mfu")
    if mfu is not None:
        panels.append(("MFU (%)", mfu * 100, "mfu"))
    else:
        panels.append(("MFU (%)", None, "mfu"))
    tps = _series(steps, "tokens_per_s_per_gpu")
    if tps is not None:
        panels.append(("tokens/s per GPU", tps, "tps"))
    elif _series(steps, "tokens_per_s") is not None:
        panels.append(("tokens/s (cluster)", _series(steps, "tokens_per_s"), "tps"))
    if _series(steps, "step_time_s") is not None:
        panels.append(("step time (s)", _series(steps, "step_time_s"), "time"))
    if _series(steps, "loss") is not None:
        panels.append(("loss", _series(steps, "loss"), "loss"))

    fig, axes = plt.subplots(
        len(panels), 1, figsize=(12, 2.3 * len(panels) + 1.6), sharex=True, squeeze=False
    )
    axes = axes[:, 0]
    gpus = s["gpus"] if s["gpus"] is not None else "?"
    title = f"{s['run']}  |  {gpus} x {hw['name'] or 'unknown hardware'} ({hw['dtype']})  |  {s['format']}"
    if st["mfu_mean"] is not None:
        title += f"  |  stable MFU {st['mfu_mean']:.1%}"
    fig.suptitle(title, fontsize=13, fontweight="bold", x=0.01, ha="left")

    warm_end = s["warmup_steps"] + 0.5 if s["warmup_steps"] else None
    for ax, (label, y, kind) in zip(axes, panels, strict=False):
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
        if warm_end is not None and s["warmup_steps"]:
            ax.axvspan(x[0], warm_end, color=WARMUP_COLOR, alpha=0.35, lw=0)
        if st["start_step"] is not None:
            ax.axvspan(st["start_step"], st["end_step"], color=STABLE_COLOR, alpha=0.07, lw=0)
        for r in s.get("regimes", []):
            if not r["stable"] and len(s["regimes"]) > 1:
                ax.axvspan(r["start_step"], r["end_step"], color=REGIME_COLOR, alpha=0.08, lw=0)
                if kind == "mfu" and r["mfu_median"] is not None:
                    ax.hlines(
                        r["mfu_median"] * 100,
                        r["start_step"],
                        r["end_step"],
                        color=REGIME_COLOR,
                        lw=1.5,
                        ls="--",
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
            ax.axvline(
                r["resumed_from"] if r["resumed_from"] is not None else r["at_step"],
                color=RESTART_COLOR,
                ls="--",
                lw=1.2,
            )
        if y is None:
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
            continue
        if len(x) > ENVELOPE_ABOVE:
            # too many steps to draw one by one: per bin, the min-max envelope and the mean, so a
            # one-step dip stays visible
            xs, lo, mean, hi = envelope(np.asarray(x, dtype=float), y)
            ax.fill_between(xs, lo, hi, color="#1f77b4", alpha=0.3, lw=0)
            ax.plot(xs, mean, lw=0.8, color="#1f77b4")
        else:
            ax.plot(x, y, lw=1.0, color="#1f77b4", marker="o" if len(x) <= 60 else None, ms=3)
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
            ax.hlines(
                st["tokens_per_s_per_gpu"], st["start_step"], st["end_step"], color=STABLE_COLOR, lw=1.5
            )
        finite = y[np.isfinite(y)]
        if len(finite) and kind in ("mfu", "tps", "time"):
            lo, hi = np.nanpercentile(finite, 0.5), np.nanpercentile(finite, 99.5)
            pad = 0.1 * (hi - lo or hi or 1)
            top = hi + (3 if kind == "mfu" else 1) * pad  # room for the label above the curve
            ax.set_ylim(min(0, lo - pad) if kind != "time" else max(0, lo - pad), top)
    if s["warmup_steps"]:
        axes[0].plot([], [], color=WARMUP_COLOR, lw=8, alpha=0.5, label="warmup")
    axes[0].plot([], [], color=STABLE_COLOR, lw=8, alpha=0.3, label="stable window")
    if s["dips"]:
        axes[0].plot([], [], color=DIP_COLOR, lw=8, alpha=0.4, label=f"dips ({len(s['dips'])})")
    if s["restarts"]:
        axes[0].plot([], [], color=RESTART_COLOR, ls="--", label=f"restarts ({len(s['restarts'])})")
    if s.get("shifts"):
        axes[0].plot(
            [], [], color=REGIME_COLOR, lw=1.4, label=f"shifts ({len(s['shifts'])}), other regimes shaded"
        )
    axes[0].legend(loc="lower right", fontsize=8, ncol=4, framealpha=0.8)
    saves = analysis.run.parsed.events
    if not saves.empty and "step" in saves:
        marks = saves.loc[saves["event"] == "checkpoint_save", "step"].dropna().unique()
        for m in marks:
            axes[-1].axvline(m, color="#7f7f7f", lw=0.6, ls=":")
        if len(marks):
            axes[-1].plot([], [], color="#7f7f7f", lw=0.6, ls=":", label="checkpoint saves")
            axes[-1].legend(loc="upper right", fontsize=8)
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
    fig.tight_layout(rect=(0, 0.07, 1, 0.96))
    fig.savefig(path, dpi=110)
    plt.close(fig)


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
