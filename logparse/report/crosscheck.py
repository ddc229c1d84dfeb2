"""Cross-check: the framework's own TFLOP/s or MFU against logparse's, under the framework's
convention and under the chosen one, with the assumption that explains the difference.

Each framework counts differently (flops_and_peaks.md §11): Megatron-LM halves causal attention
since 2025-03, torchtitan and nanoGPT use PaLM's 12 L H Q T, Megatron-DeepSpeed and GPT-NeoX count
recomputation, nanoGPT divides by a hard-coded A100 peak and smooths with an EMA. Each pattern set
declares its framework's convention as data (`[format.reported]`, with per-column overrides), so a
user's own set is cross-checked the same way. Reproducing the framework's figure under its own
convention shows the log was read right; the gap to the chosen convention is then a stated, named
difference rather than a mystery.

`cross_check` reads an analysis's parts and changes none of them: it returns the `reported` block of
summary.json and the warnings it has, which the caller adds to the run once.
"""

from __future__ import annotations

from dataclasses import replace

from ..core.errors import flag
from ..core.summary_types import ReportedPart
from ..core.warnings import RunWarning
from ..patterns.sets import Convention
from ..phases.phases import Phases
from ..specs import formulas as flops
from ..specs import models
from ..specs.formulas import FORMULAS, ModelDims
from ..steps.run import Run
from ..utilization.mfu import Utilization, of_peak, tflops_per_gpu

AGREE = 0.02  # beyond 2% apart, say why
REPORTED_COLUMNS = ("reported_tflops_per_gpu", "reported_hfu_tflops_per_gpu")


def convention_for(run: Run, pattern: str, column: str) -> Convention | None:
    """The convention of the set whose line logged `column`: the column's own, else the set's."""
    by_column = run.parsed.conventions.get(pattern.split(".", 1)[0], {})
    return by_column.get(column) or by_column.get(None)


def _rel(a: float, b: float) -> float:
    return abs(a - b) / abs(b) if b else float("inf")


def cross_check(run: Run, util: Utilization, phases: Phases) -> tuple[ReportedPart, list[RunWarning]]:
    """The `reported` block of summary.json from the stable steps, and the warnings it raises."""
    stable = phases.stable_mask
    steps = run.steps[stable] if len(stable) and stable.any() else run.steps
    notes: list[RunWarning] = []
    out: ReportedPart = {"tflops_per_gpu_mean": None, "mfu_mean": None, "agrees_within": None}
    col = next((c for c in REPORTED_COLUMNS if c in steps and steps[c].notna().any()), None)
    has_mfu = "reported_mfu" in steps and steps["reported_mfu"].notna().any()
    if has_mfu:
        out["mfu_mean"] = float(steps["reported_mfu"].mean())
    if col is None and not has_mfu:
        return out, notes
    if col is not None:
        out["tflops_per_gpu_mean"] = float(steps[col].mean())
        out["quantity"] = "TFLOP/s per GPU" + (
            " (counts recomputation)" if col.startswith("reported_hfu") else ""
        )
    peak = util.peak
    _check_plausible(out, peak, str(util.dtype.value), notes)
    pattern = (
        steps["pattern"].dropna().iloc[0] if "pattern" in steps and steps["pattern"].notna().any() else ""
    )
    conv = convention_for(run, pattern, col or "reported_mfu")
    if conv is None:
        return out, notes
    out["framework"] = conv.framework
    fw_peak = conv.peak_tflops or run.value("framework_peak_tflops") or peak
    _check_peaks(out, conv, peak, run.value("framework_peak_tflops"), str(util.dtype.value), notes)
    seq = run.value("seq_len")
    per_gpu = steps["tokens_per_s_per_gpu"]
    if seq is None or per_gpu.isna().all():
        return out, notes
    tps = float(per_gpu.mean())
    candidates = _candidates(conv, util, run, int(seq), tps)
    if not candidates:
        return out, notes
    theirs = out["tflops_per_gpu_mean"]
    formula, ours_theirs = (
        min(candidates, key=lambda c: _rel(theirs, c[1])) if theirs is not None else candidates[0]
    )
    out["framework_formula"] = formula
    out["framework_note"] = conv.note
    out["ours_under_framework_convention"] = {
        "tflops_per_gpu": ours_theirs,
        "mfu": of_peak(ours_theirs, fw_peak),
        "peak_tflops": fw_peak,
    }
    if theirs is not None:
        out["agrees_within"] = _rel(theirs, ours_theirs)
    elif has_mfu and fw_peak:
        out["agrees_within"] = _rel(out["mfu_mean"], of_peak(ours_theirs, fw_peak))
    if util.formula in FORMULAS:  # not `reported` or `given`: logparse's own count to compare with
        ours = tflops_per_gpu(flops.hardware_flops_per_token(util.model, int(seq), util.formula, "none"), tps)
        out["ours"] = {"formula": util.formula, "tflops_per_gpu": ours, "mfu": of_peak(ours, peak)}
        if theirs is not None:
            out["differs_from_ours_by"] = (theirs - ours) / ours
    _explain(out, conv, notes)
    return out, notes


def _candidates(
    conv: Convention, util: Utilization, run: Run, seq: int, tps: float
) -> list[tuple[str, float]]:
    """_under_convention with the run's dims; when the log lacks them, with those of the one preset whose
    parameter count is the log's, digit for digit, the preset named in the label."""
    candidates = _under_convention(conv, util, seq, tps)
    named = None if candidates else _preset_by_count(run)
    if named is None:
        return candidates
    name, dims = named
    count = f"{run.value('total_params'):,.0f}"
    return [
        (f"{label} with {name}'s dims (the preset of the log's {count} parameters)", tf)
        for label, tf in _under_convention(conv, replace(util, model=dims), seq, tps)
    ]


def _preset_by_count(run: Run) -> tuple[str, ModelDims] | None:
    """The one model preset whose parameter count (embedding included) equals the log's printed total
    (torchtitan's "Model llama3 8B size: 8,030,261,248 total parameters" is llama3-8b's, digit for digit),
    or None when the log prints none or no preset, or more than one, has it."""
    total = run.value("total_params")
    if not total:
        return None
    found = []
    for name in models.presets():
        try:
            dims = models.preset_dims(name)
        except Exception:  # a preset this build cannot size
            continue
        if models.all_params(dims) == float(total):
            found.append((name, dims))
    return found[0] if len(found) == 1 else None


def _check_plausible(out: ReportedPart, peak: float | None, dtype: str, notes: list[RunWarning]) -> None:
    theirs = out["tflops_per_gpu_mean"]
    if peak is not None and theirs is not None and theirs > peak:
        notes.append(
            RunWarning(
                f"the log reports {theirs:.1f} TFLOP/s per GPU, above the dense {dtype} peak of {peak:g}: implausible "
                "(wrong hardware, a patched formula, a sparse peak, or bogus timing)",
                "reported_implausible",
            )
        )


def _check_peaks(
    out: ReportedPart,
    conv: Convention,
    peak: float | None,
    framework_peak: float | None,
    dtype: str,
    notes: list[RunWarning],
) -> None:
    """Say when the framework's MFU is impossible or divided by another peak than logparse's."""
    if out["mfu_mean"] is not None and out["mfu_mean"] > 1.0:
        fixed = (
            f" ({conv.framework} divides by {conv.peak_tflops:g} TFLOPS whatever the GPU)"
            if conv.peak_tflops
            else ""
        )
        notes.append(
            RunWarning(
                f"the log's own MFU is {out['mfu_mean']:.0%}: impossible as a utilisation{fixed}",
                "reported_mfu_impossible",
            )
        )
    if conv.peak_tflops is not None and (peak is None or abs(peak - conv.peak_tflops) > 0.5):
        notes.append(
            RunWarning(
                f"{conv.framework} divides by {conv.peak_tflops:g} TFLOPS whatever the GPU: its MFU is not comparable"
                + (f" with logparse's against {peak:g}" if peak else ""),
                "reported_peak_fixed",
            )
        )
    if framework_peak is not None and peak is not None and abs(framework_peak - peak) / peak > 0.01:
        why = "an A100 fallback for an unknown GPU" if abs(framework_peak - 312) < 1 else "a different peak"
        notes.append(
            RunWarning(
                f"{conv.framework} computed its MFU against {framework_peak:g} TFLOPS, logparse against {peak:g} "
                f"({dtype} dense): {why}",
                "reported_peak_differs",
            )
        )


def _under_convention(conv: Convention, util: Utilization, seq: int, tps: float) -> list[tuple[str, float]]:
    """logparse's TFLOP/s per GPU under each formula the framework may use. A framework that counts
    recomputation counts the run's own; when the log does not say which, both readings are tried and the
    one that reproduces the figure is named."""
    if conv.counts_recompute:
        modes: tuple[str, ...] = (util.recompute,) if util.recompute != "none" else ("none", "full")
    else:
        modes = ("none",)
    out = []
    for formula in conv.formulas:
        for mode in modes:
            try:
                model = flops.hardware_flops_per_token(util.model, seq, formula, mode)
            except Exception:  # the log lacks a dim this formula needs
                continue
            label = formula if mode == "none" else f"{formula} with {mode} recomputation"
            out.append((label, tflops_per_gpu(model, tps)))
    return out


def _explain(out: ReportedPart, conv: Convention, notes: list[RunWarning]) -> None:
    agrees = out.get("agrees_within")
    theirs = out.get("tflops_per_gpu_mean")
    label = f"{theirs:.1f} TFLOP/s/GPU" if theirs is not None else f"MFU {out['mfu_mean']:.1%}"
    if agrees is not None and agrees > AGREE:
        notes.append(
            RunWarning(
                f"the log's own {label} is {agrees:.1%} away from logparse's figure even under "
                f"{conv.framework}'s convention ({out['framework_formula']}): the inputs differ - check {flag('gpus')} "
                f"(a per-GPU figure read as the cluster's), {flag('seq_len')}, the global batch and the model dims",
                "reported_inputs_differ",
            )
        )
        return
    diff = out.get("differs_from_ours_by")
    ours = out.get("ours")
    if diff is not None and ours and abs(diff) > AGREE:
        notes.append(
            RunWarning(
                f"the log's own {label} is {diff:+.1%} against logparse's {ours['formula']} figure "
                f"({ours['tflops_per_gpu']:.1f}); under {conv.framework}'s convention ({out['framework_formula']}) "
                f"logparse gets {out['ours_under_framework_convention']['tflops_per_gpu']:.1f}, within {agrees:.1%}. "
                f"{conv.note}",
                "reported_convention",
            )
        )
