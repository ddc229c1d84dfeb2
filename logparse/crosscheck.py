"""Cross-check: the framework's own TFLOP/s or MFU against logparse's, under the framework's
convention and under the chosen one, with the assumption that explains the difference.

Each framework counts differently (flops_and_peaks.md §11): Megatron-LM halves causal attention
since 2025-03, torchtitan and nanoGPT use PaLM's 12 L H Q T, Megatron-DeepSpeed and GPT-NeoX count
recomputation, nanoGPT divides by a hard-coded A100 peak and smooths with an EMA. Reproducing the
framework's figure under its own convention shows the log was read right; the gap to the chosen
convention is then a stated, named difference rather than a mystery.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from . import flops
from .flops import ModelDims

AGREE = 0.02  # beyond 2% apart, say why


@dataclass(frozen=True)
class Convention:
    framework: str
    formulas: tuple[str, ...]  # candidates; the one that reproduces the log is named
    counts_recompute: bool = False
    peak_tflops: float | None = None  # a fixed peak the framework divides by, if any
    note: str = ""


CONVENTIONS: dict[str, Convention] = {
    "megatron": Convention(
        "Megatron-LM",
        ("megatron", "megatron-2024"),
        note="Megatron-LM halves causal attention since 2025-03 (commit 8873b55d); logs from before use megatron-2024",
    ),
    "megatron-deepspeed": Convention(
        "Megatron-DeepSpeed",
        ("narayanan",),
        counts_recompute=True,
        note="Megatron-DeepSpeed's TFLOPs column counts activation recomputation (an HFU-like figure)",
    ),
    "torchtitan": Convention(
        "torchtitan",
        ("palm",),
        note="torchtitan uses PaLM's 6N + 12 L H Q T and its own BF16 peak table (unknown GPUs fall back to A100)",
    ),
    "nanogpt": Convention(
        "nanoGPT",
        ("palm",),
        peak_tflops=312.0,
        note="nanoGPT divides by the A100's 312 TFLOPS whatever the GPU, per GPU, smoothed by an EMA (0.9)",
    ),
    "maxtext": Convention(
        "MaxText", ("megatron", "megatron-2024"), note="MaxText halves causal attention since 2025-07"
    ),
    "nanotron": Convention(
        "nanotron", ("megatron-2024",), note="nanotron counts attention without causal halving"
    ),
    "gpt-neox": Convention(
        "GPT-NeoX",
        ("narayanan",),
        counts_recompute=True,
        note="GPT-NeoX's approx flops per GPU uses 24 f B s L h^2 (1 + s/6h + V/16Lh), f = 4 with activation checkpointing",
    ),
    "colossalai": Convention(
        "Colossal-AI",
        ("narayanan",),
        counts_recompute=True,
        note="Colossal-AI's TFLOPS include the gradient-checkpointing factor (3 + 1)",
    ),
    "composer": Convention("Composer", ("palm",), note="Composer's MFU uses the model's flops_per_batch"),
    "nemo": Convention(
        "NeMo",
        ("megatron", "megatron-2024"),
        note="NeMo's FLOPs callback counts like Megatron-LM (causal attention halved in recent releases)",
    ),
}

# which framework a reported column speaks for, by the pattern line that logged it
_BY_PATTERN = {"megatron.iteration": "megatron"}


def convention_for(pattern: str, column: str) -> Convention | None:
    if column == "reported_hfu_tflops_per_gpu" and pattern.startswith("megatron."):
        return CONVENTIONS["megatron-deepspeed"]
    name = _BY_PATTERN.get(pattern) or pattern.split(".", 1)[0]
    return CONVENTIONS.get(name)


def _rel(a: float, b: float) -> float:
    return abs(a - b) / abs(b) if b else float("inf")


def cross_check(
    steps: pd.DataFrame,
    dims: ModelDims,
    seq_len: int | None,
    recompute: str,
    chosen_formula: str | None,
    peak: float | None,
    dtype: str,
    warnings: list[str],
    framework_peak: float | None = None,
) -> dict[str, Any]:
    """The `reported` block of summary.json, from the stable steps."""
    out: dict[str, Any] = {"tflops_per_gpu_mean": None, "mfu_mean": None, "agrees_within": None}
    col = next(
        (
            c
            for c in ("reported_tflops_per_gpu", "reported_hfu_tflops_per_gpu")
            if c in steps and steps[c].notna().any()
        ),
        None,
    )
    has_mfu = "reported_mfu" in steps and steps["reported_mfu"].notna().any()
    if has_mfu:
        out["mfu_mean"] = float(steps["reported_mfu"].mean())
    if col is None and not has_mfu:
        return out
    per_gpu = steps["tokens_per_s_per_gpu"]
    if col is not None:
        out["tflops_per_gpu_mean"] = float(steps[col].mean())
        out["quantity"] = "TFLOP/s per GPU" + (
            " (counts recomputation)" if col.startswith("reported_hfu") else ""
        )
    pattern = (
        steps["pattern"].dropna().iloc[0] if "pattern" in steps and steps["pattern"].notna().any() else ""
    )
    conv = convention_for(pattern, col or "reported_mfu")
    if peak is not None and out["tflops_per_gpu_mean"] is not None and out["tflops_per_gpu_mean"] > peak:
        warnings.append(
            f"the log reports {out['tflops_per_gpu_mean']:.1f} TFLOP/s per GPU, above the dense {dtype} peak of "
            f"{peak:g}: implausible (wrong hardware, a patched formula, a sparse peak, or bogus timing)"
        )
    if conv is None:
        return out
    out["framework"] = conv.framework
    fw_peak = conv.peak_tflops or framework_peak or peak
    if has_mfu and out["mfu_mean"] > 1.0:
        warnings.append(
            f"the log's own MFU is {out['mfu_mean']:.0%}: impossible as a utilisation"
            + (
                f" ({conv.framework} divides by {conv.peak_tflops:g} TFLOPS whatever the GPU)"
                if conv.peak_tflops
                else ""
            )
        )
    if conv.peak_tflops is not None and (peak is None or abs(peak - conv.peak_tflops) > 0.5):
        warnings.append(
            f"{conv.framework} divides by {conv.peak_tflops:g} TFLOPS whatever the GPU: its MFU is not comparable"
            + (f" with logparse's against {peak:g}" if peak else "")
        )
    if framework_peak is not None and peak is not None and abs(framework_peak - peak) / peak > 0.01:
        warnings.append(
            f"{conv.framework} computed its MFU against {framework_peak:g} TFLOPS, logparse against {peak:g} "
            f"({dtype} dense): {'an A100 fallback for an unknown GPU' if abs(framework_peak - 312) < 1 else 'a different peak'}"
        )
    if seq_len is None or per_gpu.isna().all():
        return out
    tps = float(per_gpu.mean())
    theirs = out["tflops_per_gpu_mean"]
    candidates = []
    # a framework that counts recomputation counts the run's own; when the log does not say which,
    # both readings are tried and the one that reproduces the figure is named
    modes = (recompute,) if not conv.counts_recompute or recompute != "none" else ("none", "full")
    for formula in conv.formulas:
        for mode in modes if conv.counts_recompute else ("none",):
            try:
                model = flops.hardware_flops_per_token(dims, seq_len, formula, mode)
            except Exception:  # the log lacks a dim this formula needs
                continue
            label = formula if mode == "none" else f"{formula} with {mode} recomputation"
            candidates.append((label, model * tps / 1e12))
    if not candidates:
        return out
    if theirs is not None:
        formula, ours_theirs = min(candidates, key=lambda c: _rel(theirs, c[1]))
    else:
        formula, ours_theirs = candidates[0]
    out["framework_formula"] = formula
    out["framework_note"] = conv.note
    out["ours_under_framework_convention"] = {
        "tflops_per_gpu": ours_theirs,
        "mfu": ours_theirs / fw_peak if fw_peak else None,
        "peak_tflops": fw_peak,
    }
    if theirs is not None:
        out["agrees_within"] = _rel(theirs, ours_theirs)
    elif has_mfu and fw_peak:
        out["agrees_within"] = _rel(out["mfu_mean"], ours_theirs / fw_peak)
    if chosen_formula is not None:
        ours = flops.hardware_flops_per_token(dims, seq_len, chosen_formula, "none") * tps / 1e12
        out["ours"] = {
            "formula": chosen_formula,
            "tflops_per_gpu": ours,
            "mfu": ours / peak if peak else None,
        }
        if theirs is not None:
            out["differs_from_ours_by"] = (theirs - ours) / ours
    _explain(out, conv, warnings)
    return out


def _explain(out: dict[str, Any], conv: Convention, warnings: list[str]) -> None:
    agrees = out.get("agrees_within")
    theirs = out.get("tflops_per_gpu_mean")
    label = f"{theirs:.1f} TFLOP/s/GPU" if theirs is not None else f"MFU {out['mfu_mean']:.1%}"
    if agrees is not None and agrees > AGREE:
        warnings.append(
            f"the log's own {label} is {agrees:.1%} away from logparse's figure even under "
            f"{conv.framework}'s convention ({out['framework_formula']}): the inputs differ - check --gpus "
            "(a per-GPU figure read as the cluster's), --seq-len, the global batch and the model dims"
        )
        return
    diff = out.get("differs_from_ours_by")
    ours = out.get("ours")
    if diff is not None and ours and abs(diff) > AGREE:
        warnings.append(
            f"the log's own {label} is {diff:+.1%} against logparse's {ours['formula']} figure "
            f"({ours['tflops_per_gpu']:.1f}); under {conv.framework}'s convention ({out['framework_formula']}) "
            f"logparse gets {out['ours_under_framework_convention']['tflops_per_gpu']:.1f}, within {agrees:.1%}. "
            f"{conv.note}"
        )
