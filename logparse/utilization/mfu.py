"""Utilization: achieved FLOP/s against the hardware's peak.

FLOPs per token x tokens/s per GPU = achieved TFLOP/s per GPU; over the dense peak, MFU (model FLOPs) or HFU
(hardware FLOPs, recomputation counted). A run that counts samples, not tokens (vision, speech, diffusion) has
its MFU the same way from training FLOPs per sample (`--flops-per-sample`) x samples/s per GPU. This module is
the only place that arithmetic is written: the per-step curve, the stable and window figures, the cross-check
under a framework's convention and the projection to a token target all call `tflops_per_gpu`, `of_peak` and
`seconds_to_train`.

`assess(run, opts)` chooses the formula, the FLOPs per token, the dtype and the peak (each with its source),
adds the `tflops_per_gpu`, `mfu` and `hfu` columns to the run's steps, flags steps whose timing cannot be
right, and returns what it assumed with the warnings it has. `refusal(...)` says why a stable figure is
impossible, when it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import regex

from ..core.errors import LogparseError, UsageError, flag
from ..core.facts import Fact, Options
from ..core.warnings import RunWarning
from ..specs import formulas as flops_mod
from ..specs import hardware
from ..specs.devices import accelerator_clue, log_device
from ..specs.formulas import ModelDims
from ..specs.models import log_dims, resolve_model
from ..steps.run import Run
from ..steps.runfacts import prefer_option
from ..steps.stepframe import add_flag

MFU_IMPOSSIBLE = 1.0
REPORTED = "reported"  # the framework's own model TFLOP/s as the numerator
GIVEN = "given"  # FLOPs per token given on the command line (--flops-per-token), as a peer states them
TOKENS, SAMPLES = "tokens", "samples"  # what a run's throughput counts (Utilization.unit)
# FLOPs per token as the log states them (nanochat's "Estimated FLOPs per token"): its own count
STATED = "log"
# a stated count and logparse's from the log's dims, within this of each other, agree (the conventions differ
# by norms, biases and the causal halving: nanochat's count is within 0.1% of palm on its own dims)
STATED_AGREES = 0.05


# ------------------------------------------------------------------------------------------------
# the arithmetic, once


def tflops_per_gpu(flops_per_token, tokens_per_s_per_gpu):  # type: ignore[no-untyped-def]
    """Achieved TFLOP/s per GPU: FLOPs per token x tokens/s per GPU (numbers or columns); likewise FLOPs per
    sample x samples/s per GPU."""
    return flops_per_token * tokens_per_s_per_gpu / 1e12


def of_peak(tflops, peak_tflops):  # type: ignore[no-untyped-def]
    """MFU or HFU: achieved TFLOP/s per GPU over the dense peak per GPU (None when either is unknown)."""
    if tflops is None or peak_tflops is None:
        return None
    return tflops / peak_tflops


def mfu(flops_per_token: float, tokens_per_s: float, peak_tflops_per_gpu: float, gpus: int = 1) -> float:
    """MFU of a cluster: `gpus` GPUs sharing `tokens_per_s`."""
    return of_peak(tflops_per_gpu(flops_per_token, tokens_per_s / gpus), peak_tflops_per_gpu)


def tokens_per_s_at(mfu_: float, flops_per_token: float, peak_tflops_per_gpu: float, gpus: int = 1) -> float:
    """The cluster's tokens/s at a given MFU: `mfu` solved for tokens/s."""
    return mfu_ * peak_tflops_per_gpu * 1e12 * gpus / flops_per_token


def seconds_to_train(tokens: float, tokens_per_s: float | None) -> float | None:
    """Wall seconds to process `tokens` at `tokens_per_s` (restarts, evals and checkpoints not counted)."""
    return tokens / tokens_per_s if tokens_per_s else None


# ------------------------------------------------------------------------------------------------
# what a run's utilization rests on


@dataclass
class Utilization:
    formula: str | None
    recompute: str
    terms: flops_mod.Terms | None
    flops_per_token: float | None
    hardware_flops_per_token: float | None
    hardware: str | None
    dtype: Fact
    peak_tflops: Fact | None
    peak_source: str | None
    model: ModelDims
    model_facts: dict[str, Fact] = field(default_factory=dict)
    hardware_name: Fact | None = None  # the device's name and where it comes from (cli or log)
    unit: str | None = None  # what the throughput counts: TOKENS, SAMPLES, or None when the log gives neither
    flops_per_sample: Fact | None = None  # training FLOPs per sample, for a run whose MFU counts samples
    # the log's own FLOPs per token, and logparse's count from its dims beside it
    stated: StatedFlops | None = None

    @property
    def peak(self) -> float | None:
        return self.peak_tflops.value if self.peak_tflops is not None else None

    def figures(
        self, tokens_per_s_per_gpu: float | None, samples_per_s_per_gpu: float | None = None
    ) -> tuple[float | None, float | None, float | None]:
        """TFLOP/s per GPU, MFU and HFU at a throughput (tokens/s per GPU, or samples/s per GPU where the run's
        FLOPs are per sample), under this run's formula and peak."""
        if self.flops_per_sample is not None:  # the run counts samples, and its FLOPs are per sample
            if samples_per_s_per_gpu is None:
                return None, None, None
            tflops = tflops_per_gpu(self.flops_per_sample.value, samples_per_s_per_gpu)
            return tflops, of_peak(tflops, self.peak), of_peak(tflops, self.peak)  # model FLOPs as given
        if tokens_per_s_per_gpu is None or self.flops_per_token is None:
            return None, None, None
        tflops = tflops_per_gpu(self.flops_per_token, tokens_per_s_per_gpu)
        hw = (
            tflops_per_gpu(self.hardware_flops_per_token, tokens_per_s_per_gpu)
            if self.hardware_flops_per_token is not None
            else None
        )
        return tflops, of_peak(tflops, self.peak), of_peak(hw, self.peak)


@dataclass(frozen=True)
class StatedFlops:
    """The FLOPs per token a log states (or per step, over its tokens per step), and the cross-check against
    logparse's count from the model's dims (`formula`, `from_dims`: None when the dims do not allow one)."""

    flops_per_token: float
    detail: str
    used: bool  # whether MFU counts with it (no --formula / --flops-per-token given)
    formula: str | None = None
    from_dims: float | None = None

    @property
    def ratio(self) -> float | None:
        """The log's count over logparse's."""
        return self.flops_per_token / self.from_dims if self.from_dims else None

    def sentence(self) -> str:
        said = f"the log states {self.flops_per_token:.4g} FLOPs per token, {self.detail}"
        if self.from_dims is None:
            check = "its model dims are not all stated, so logparse cannot count them to check"
        else:
            ratio = self.ratio or 0.0
            agrees = "agrees" if abs(ratio - 1) <= STATED_AGREES else "disagrees"
            check = (
                f"logparse's {self.formula} count from the dims gives {self.from_dims:.4g}: the log's is "
                f"{ratio - 1:+.1%}, it {agrees}"
            )
        use = (
            "MFU uses the log's count (its own convention)"
            if self.used
            else "MFU uses the formula or FLOPs asked for instead"
        )
        return f"{said}; {check}; {use}"


def stated_flops(run: Run) -> tuple[float, str] | None:
    """The model FLOPs per token the log states: its own per-token figure, else its per-step figure over the
    tokens of a step. None when it states neither (or a per-step figure without tokens per step)."""
    per_token = run.facts.get("flops_per_token")
    if per_token is not None and per_token.value:
        return float(per_token.value), per_token.detail
    per_step = run.facts.get("flops_per_step")
    tokens = run.steps["tokens_per_step"].dropna() if "tokens_per_step" in run.steps else None
    if per_step is None or not per_step.value or tokens is None or not len(tokens) or tokens.median() <= 0:
        return None
    step_tokens = float(tokens.median())
    said = f"{per_step.value:.4g} per step, {per_step.detail}, over {step_tokens:,.0f} tokens per step"
    return float(per_step.value) / step_tokens, said


def assess(run: Run, opts: Options) -> Utilization:
    """Choose the formula and the peak, add tflops_per_gpu, mfu and hfu to the run's steps, flag the steps
    whose timing is impossible, and say in the run's warnings what was assumed."""
    facts, warnings, steps = run.facts, run.warnings, run.steps
    unit = throughput_unit(steps)
    per_sample = _flops_per_sample(opts, unit, warnings)
    # FLOPs given per sample need no model: what its size would say is not the run's concern
    model_warnings = warnings if per_sample is None else []
    dims, model_facts = resolve_model(opts, facts, model_warnings)
    _warn_dims_replaced(opts, model_facts, log_dims(facts), model_warnings)
    _record_mlp(dims, model_facts, facts, model_warnings)
    dtype = _dtype(opts, facts)
    recompute = _recompute(opts, facts)
    reported = _reported_model_tflops(steps)
    stated = stated_flops(run) if per_sample is None else None
    formula = (
        GIVEN if per_sample is not None else _formula(opts, dims, reported, warnings, stated is not None)
    )
    _warn_preset_matched(opts, model_facts, formula, warnings)
    seq = run.value("seq_len")
    fpt, hfpt, terms = (
        (None, None, None)
        if per_sample is not None
        else _flops_per_token(
            formula, dims, seq, recompute, opts, reported, steps, stated[0] if stated else None
        )
    )
    checked = _cross_check(stated, formula, dims, seq)
    peak, device_name, peak_source, name = _peak(opts, str(dtype.value), warnings, run.parsed.facts)
    if unit == SAMPLES:
        steps["samples_per_s_per_gpu"] = samples_per_gpu(steps, run.value("gpus"))
    if per_sample is not None:
        _fill_sample_columns(steps, per_sample, peak)
    else:
        _fill_columns(steps, formula, fpt, hfpt, reported, peak)
    _flag_impossible(steps, peak, str(dtype.value), warnings)
    return Utilization(
        formula=formula,
        recompute=recompute,
        terms=terms,
        flops_per_token=fpt,
        hardware_flops_per_token=hfpt,
        hardware=device_name,
        dtype=dtype,
        peak_tflops=peak,
        peak_source=peak_source,
        model=dims,
        model_facts=model_facts,
        hardware_name=name,
        unit=unit,
        flops_per_sample=per_sample,
        stated=checked,
    )


def throughput_unit(steps: pd.DataFrame) -> str | None:
    """What the run's throughput counts: TOKENS where the log's tokens/s (or its tokens per step over the step
    time) give them; SAMPLES where it has samples/s (images/s, samples_per_second, the global batch over the
    step time) and no token count; None when it has neither. FLOPs given per sample (a batch's default for
    every run) do not make a run that counts tokens count samples."""

    def has(col: str) -> bool:
        return col in steps and bool(steps[col].notna().any())

    if has("tokens_per_s") or has("tokens_per_s_per_gpu"):
        return TOKENS
    return SAMPLES if has("samples_per_s") or has("samples_per_s_per_gpu") else None


def given_samples(opts: Options) -> None:
    """FLOPs per sample go with no other FLOPs count: a UsageError for --formula or --flops-per-token beside it."""
    if opts.flops_per_sample is None:
        return
    for other in ("flops_per_token", "formula"):
        if getattr(opts, other) not in (None, GIVEN):
            raise UsageError(f"give {flag(other)} or {flag('flops_per_sample')}, not both")


def _flops_per_sample(opts: Options, unit: str | None, warnings: list[RunWarning]) -> Fact | None:
    """The training FLOPs per sample the user gives (--flops-per-sample, a logparse.toml's flops_per_sample),
    for a run whose throughput counts samples; a warning when the run gives no samples/s to use them with.

    The convention (the option's help): model FLOPs of one sample's training step, forward and backward, as
    FLOPs/token counts them for a transformer (6N = 2N forward + 4N backward: Kaplan et al. 2020, section 2.1):
    3x a forward FLOP count, 6x a count of multiply-adds. The usual per-image figures are forward counts of
    multiply-adds under the name FLOPs (fvcore's FlopCountAnalysis: "We count one fused multiply-add as one
    flop"; thop, ptflops, timm's GMACs), so a figure a log states (`GFLOPs: 4.1` for a ResNet-50) is not taken
    as training FLOPs: what it counts is the user's to say."""
    if opts.flops_per_sample is None:
        return None
    given_samples(opts)
    if unit != SAMPLES:
        why = (
            f"the run counts tokens: its MFU counts FLOPs per token ({flag('flops_per_token')}, or the model)"
            if unit == TOKENS
            else "the log gives no samples/s (images/s, samples_per_second, or a global batch and a step time) "
            f"to count samples by; pass {flag('global_batch')} if the log times its steps"
        )
        said = f"{opts.said('flops_per_sample')} is not used: {why}"
        warnings.append(RunWarning(said, "flops_per_sample_unused"))
        return None
    return Fact(float(opts.flops_per_sample), opts.source("flops_per_sample"), opts.said("flops_per_sample"))


def samples_per_gpu(steps: pd.DataFrame, gpus: Any) -> pd.Series:
    """Samples/s per GPU of each step: the log's own per-GPU figure (torchvision's img/s), else the cluster's
    samples/s over the GPUs (NaN where the GPU count is unknown)."""
    if "samples_per_s_per_gpu" in steps and steps["samples_per_s_per_gpu"].notna().any():
        return steps["samples_per_s_per_gpu"]
    if "samples_per_s" in steps and gpus:
        return steps["samples_per_s"] / float(gpus)
    return pd.Series(np.nan, index=steps.index)


def _fill_sample_columns(steps: pd.DataFrame, per_sample: Fact, peak: Fact | None) -> None:
    """A run that counts samples, with its FLOPs per sample: TFLOP/s, MFU and HFU from its samples/s per GPU.
    The FLOPs are the model's as given: HFU is MFU."""
    steps["tflops_per_gpu"] = tflops_per_gpu(per_sample.value, steps["samples_per_s_per_gpu"])
    p = peak.value if peak is not None else None
    steps["mfu"] = of_peak(steps["tflops_per_gpu"], p) if p is not None else np.nan
    steps["hfu"] = steps["mfu"]


def _cross_check(
    stated: tuple[float, str] | None, formula: str | None, dims: ModelDims, seq: Any
) -> StatedFlops | None:
    """The log's FLOPs per token beside logparse's palm count from the same log's dims, where both are known."""
    if stated is None:
        return None
    value, detail = stated
    from_dims = None
    if seq and dims.params is not None and dims.layers and dims.attn_width:
        from_dims = flops_mod.flops_per_token(dims, int(seq), "palm")
    return StatedFlops(value, detail, formula == STATED, "palm" if from_dims is not None else None, from_dims)


def _dim(field: str, value: Any) -> str:
    """A model dim in words: `ffn_hidden 11008`, `a gated MLP`."""
    if field == "swiglu":
        return "a gated MLP" if value else "a plain MLP"
    return f"{field} {value}"


def _warn_dims_replaced(
    opts: Options, chosen: dict[str, Fact], stated: dict[str, Fact], warnings: list[RunWarning]
) -> None:
    """Each dim an option (--ffn-hidden, ...) or the --model preset puts in place of the one the log states,
    through prefer_option: an `option_differs` warning naming both values; a preset's in one sentence."""
    by_preset: list[RunWarning] = []
    for dim, fact in chosen.items():
        log = stated.get(dim)
        if log is None or fact.source in ("log", "derived"):
            continue
        if fact.source == "preset":
            prefer_option(
                fact,
                log,
                by_preset,
                lambda o, lg, d=dim: f"{_dim(d, o.value)} (the log: {lg.value}, {lg.detail})",
            )
        else:
            prefer_option(
                fact,
                log,
                warnings,
                lambda o, lg, d=dim: (
                    f"{o.detail} but the log states {_dim(d, lg.value)} ({lg.detail}); using {o.detail}"
                ),
            )
    if by_preset:
        warnings.append(
            RunWarning(
                f"{opts.said('model')} replaces dims the log states: {'; '.join(by_preset)}; using the "
                f"preset's (drop {flag('model')} if the log's are the model that trained)",
                "option_differs",
            )
        )


def _record_mlp(
    dims: ModelDims, chosen: dict[str, Fact], facts: dict[str, Fact], warnings: list[RunWarning]
) -> None:
    """The MLP's kind (gated: SwiGLU, GeGLU, three matrices; plain: two) in the run's facts, with where it
    came from, when FLOPs count it from the MLP's width; assumed plain (with a warning when the width is
    the user's) when neither an option, a preset nor the log says."""
    if dims.ffn_hidden is None:
        return
    kind = "gated" if dims.swiglu else "plain"
    said = chosen.get("swiglu")
    if said is not None:
        facts["mlp"] = Fact(kind, said.source, said.detail)
        return
    facts["mlp"] = Fact(
        kind, "default", f"no MLP kind stated: plain assumed; pass {flag('mlp', 'gated')} if it is gated"
    )
    width = chosen.get("ffn_hidden")
    if width is not None and width.source not in ("log", "preset", "derived"):
        warnings.append(
            RunWarning(
                f"{width.detail}: the MLP is counted as plain (two matrices), as nothing says it is gated; "
                f"pass {flag('mlp', 'gated')} for a SwiGLU / GeGLU MLP (three matrices: Llama, Mistral, Grok, ...)",
                "mlp_assumed",
            )
        )


def _warn_preset_matched(
    opts: Options, model_facts: dict[str, Fact], formula: str | None, warnings: list[RunWarning]
) -> None:
    """Say that the model's dims are a preset's because the log's parameter count is exactly its count
    (specs.models.preset_of_count), and what they are used for."""
    params = model_facts.get("params")
    if opts.model or params is None or params.source != "preset":
        return
    use = "its dims are the model's"
    if formula in flops_mod.FORMULAS:
        use = f"its dims used for the {formula} formula"
    warnings.append(
        RunWarning(
            f"{params.detail}: {use} (pass {flag('model')} or {flag('params')} if the run trained another model)",
            "params_preset",
        )
    )


def _dtype(opts: Options, facts: dict[str, Fact]) -> Fact:
    if opts.dtype is not None:
        return Fact(opts.dtype, opts.source("dtype"))
    fp8 = facts.get("fp8")
    if fp8 is not None and str(fp8.value).lower() not in ("none", "false", "0", ""):
        return Fact("fp8", "log", f"fp8 recipe {fp8.value!r}, {fp8.detail}")
    for name in ("bf16", "fp16"):
        f = facts.get(name)
        if f is not None and f.value is True:
            return Fact(name, "log", f.detail)
    return Fact(
        "bf16", "default", f"mixed-precision BF16 assumed; pass {flag('dtype')} if the run computed otherwise"
    )


def _recompute(opts: Options, facts: dict[str, Fact]) -> str:
    if opts.recompute is not None:
        return opts.recompute
    rg = facts.get("recompute_granularity")
    return str(rg.value) if rg is not None and rg.value in ("full", "selective") else "none"


def _reported_model_tflops(steps: pd.DataFrame) -> pd.Series | None:
    """The framework's own model TFLOP/s per GPU at each step, when the log prints it."""
    col = "reported_tflops_per_gpu"
    if col in steps and steps[col].notna().any():
        return steps[col]
    return None


def _formula(
    opts: Options,
    dims: ModelDims,
    reported: pd.Series | None,
    warnings: list[RunWarning],
    stated: bool = False,
) -> str | None:
    formula = opts.formula
    if formula == REPORTED and reported is None:
        raise LogparseError(
            f"{flag('formula')} reported: the log prints no model TFLOP/s of its own (Megatron's TFLOP/s/GPU, "
            "Megatron-Bridge's MODEL_TFLOP/s/GPU, MaxText's TFLOP/s/device): pick a formula that counts from the model"
        )
    if opts.flops_per_token is not None:
        if opts.flops_per_token <= 0:
            raise LogparseError(f"{flag('flops_per_token')} must be positive (got {opts.flops_per_token})")
        if formula not in (None, GIVEN):
            raise UsageError(f"give {flag('formula')} or {flag('flops_per_token')}, not both")
        return GIVEN
    if formula is not None:
        return formula
    if stated:  # the training code's own count of its model's FLOPs per token: the log's convention
        return STATED
    if dims.params is None and reported is not None:
        warnings.append(
            RunWarning(
                "the model size is unknown, so FLOPs are the framework's own (its model TFLOP/s per GPU, formula "
                f"`reported`): pass {flag('model')} or {flag('params')} for logparse's count",
                "flops_reported",
            )
        )
        return REPORTED
    return default_formula(dims, warnings)


def default_formula(dims: ModelDims, warnings: list[RunWarning]) -> str | None:
    """The formula the model's known dims allow when none is asked for: palm with the layers and the
    attention width, 6N (with a warning) from the parameter count alone, None (with a warning) without it.
    `analyze` and `flops` both choose this way."""
    if dims.params is not None and dims.layers and dims.attn_width:
        return "palm"
    if dims.params is not None:
        warnings.append(
            RunWarning(
                "only the parameter count is known, so FLOPs/token = 6N: attention's sequence-length term is "
                f"not counted (MFU reads low by ~14% at 4k for a 7B model); pass {flag('layers')} and {flag('hidden')} for palm",
                "flops_6n",
            )
        )
        return "6n"
    warnings.append(
        RunWarning(
            f"the model size is unknown: pass {flag('model')} NAME, or {flag('params')} N (with {flag('layers')} L {flag('hidden')} D), to get FLOPs and MFU",
            "model_unknown",
        )
    )
    return None


def _flops_per_token(
    formula: str | None,
    dims: ModelDims,
    seq: int | None,
    recompute: str,
    opts: Options,
    reported: pd.Series | None,
    steps: pd.DataFrame,
    stated: float | None = None,
) -> tuple[float | None, float | None, flops_mod.Terms | None]:
    """Model and hardware FLOPs per token, and the model's split into terms. FLOPs given (--flops-per-token) or
    stated by the log count recomputation no more than they say: their HFU is their MFU."""
    if formula == GIVEN:
        return float(opts.flops_per_token), float(opts.flops_per_token), None  # type: ignore[arg-type]
    if formula == STATED:
        return stated, stated, None
    if formula == REPORTED:
        assert reported is not None
        # FLOPs per token as the framework counted them, for the record; the curve is its TFLOP/s itself
        per_token = reported * 1e12 / steps["tokens_per_s_per_gpu"]
        fpt = float(per_token.median()) if per_token.notna().any() else None
        return fpt, fpt, None
    if formula is None or seq is None:
        return None, None, None
    terms = flops_mod.terms(dims, int(seq), formula)
    return terms.total, flops_mod.hardware_flops_per_token(dims, int(seq), formula, recompute), terms


def _peak(
    opts: Options, dtype: str, warnings: list[RunWarning], logged: Mapping[str, Sequence[Any]] | None = None
) -> tuple[Fact | None, str | None, str | None, Fact | None]:
    """The dense peak per GPU, the device's name, where the peak comes from and where the name comes
    from: --hw / --peak-tflops, else the device the log names (`logged`: the parse's fact observations)."""
    peak: Fact | None = None
    device_name = peak_source = None
    name: Fact | None = None
    cli = opts.hw is not None or opts.peak_tflops is not None
    from_log = log_device(logged or {}, [] if cli else warnings)
    hw = opts.hw
    if hw is None and opts.peak_tflops is None and from_log is not None:
        hw, name = str(from_log.value), from_log
    if hw is not None:
        device = hardware.lookup(hw)
        device_name = device.name
        if name is None:
            name = prefer_option(
                Fact(device.name, opts.source("hw"), opts.said("hw")),  # the command line's or a sidecar's
                from_log,
                warnings,
                lambda o, log: f"{o.detail} ({o.value}) but the log names {log.detail}; using {o.detail}",
            )
        if not device.verified:
            warnings.append(
                RunWarning(f"the {device.name} peak is unverified: {device.source}", "peak_unverified")
            )
        if opts.peak_tflops is None and name.source == "log" and dtype not in device.peak_tflops:
            has = ", ".join(device.peak_tflops)
            warnings.append(
                RunWarning(
                    f"the log's GPU {device.name} has no published dense {dtype} peak (it has: {has}): "
                    f"pass {flag('dtype')}, {flag('hw')} or {flag('peak_tflops')} to get MFU",
                    "peak_no_dtype",
                )
            )
        elif opts.peak_tflops is None:
            peak = Fact(hardware.peak_tflops(device, dtype), "preset", f"{device.name} {dtype}")
            peak_source = device.source
    if opts.peak_tflops is not None:
        peak = Fact(float(opts.peak_tflops), opts.source("peak_tflops"))
        peak_source = (
            f"{flag('peak_tflops')}" if opts.source("peak_tflops") == "cli" else "logparse.toml peak_tflops"
        )
        device_name = device_name or "custom"
        by = opts.source("peak_tflops")
        name = name or Fact(device_name, by, flag("peak_tflops") if by == "cli" else opts.said("peak_tflops"))
    if peak is None and not (logged or {}).get("device_name"):  # else log_device or the dtype said why
        warnings.append(
            RunWarning(
                f"the hardware is unknown: pass {flag('hw')} NAME (see `logparse hw list`) or {flag('peak_tflops')} to get MFU"
                + accelerator_clue(logged or {}),
                "hw_unknown",
            )
        )
    return peak, device_name, peak_source, name


def _fill_columns(
    steps: pd.DataFrame,
    formula: str | None,
    fpt: float | None,
    hfpt: float | None,
    reported: pd.Series | None,
    peak: Fact | None,
) -> None:
    per_gpu = steps["tokens_per_s_per_gpu"]
    if formula == REPORTED:
        steps["tflops_per_gpu"] = reported
        hw_col = "reported_hfu_tflops_per_gpu"
        hw = steps[hw_col] if hw_col in steps and steps[hw_col].notna().any() else np.nan
    elif fpt is not None:
        steps["tflops_per_gpu"] = tflops_per_gpu(fpt, per_gpu)
        hw = tflops_per_gpu(hfpt, per_gpu)
    else:
        steps["tflops_per_gpu"] = np.nan
        hw = np.nan
    p = peak.value if peak is not None else None
    steps["mfu"] = of_peak(steps["tflops_per_gpu"], p) if p is not None else np.nan
    steps["hfu"] = of_peak(hw, p) if p is not None else np.nan


def _flag_impossible(steps: pd.DataFrame, peak: Fact | None, dtype: str, warnings: list[RunWarning]) -> None:
    too_high = steps["mfu"] > MFU_IMPOSSIBLE
    if peak is None:  # no device to compare with: beyond the fastest device logparse knows is impossible
        _, top = hardware.fastest(dtype)
        too_high = steps["tflops_per_gpu"] > top if top else too_high
    if not too_high.any():
        return
    add_flag(steps, too_high, "mfu_above_100")
    warnings.append(
        RunWarning(
            f"{int(too_high.sum())} step(s) imply an MFU above 100%{'' if peak else ' on any known device'} (first at "
            f"step {int(steps.loc[too_high, 'step'].iloc[0])}): their timing cannot be right (a first step timed "
            "before the work finished, or a per-GPU figure read as the cluster's); they stay flagged in steps.csv "
            "and out of the stable averages",
            "mfu_impossible",
            step=steps.loc[too_high, "step"].iloc[0],
        )
    )


# ------------------------------------------------------------------------------------------------
# impossible results


def refusal(stable_mfu: float | None, stable_tflops: float | None, run: Run, util: Utilization) -> str | None:
    """Why the stable figures are impossible (MFU above 100%, or TFLOP/s beyond every known device when no
    peak was given), or None when they are possible."""
    if stable_mfu is not None and stable_mfu > MFU_IMPOSSIBLE:
        peak = util.peak_tflops
        p = f"{peak.value:g} TFLOPS {util.dtype.value} on {util.hardware}" if peak else "the peak"
        return f"stable MFU would be {stable_mfu:.0%}, which is impossible: " + _causes(run, util, p)
    if stable_tflops is not None and util.peak_tflops is None:
        fastest, top = hardware.fastest(str(util.dtype.value))
        if fastest is not None and stable_tflops > top:
            return (
                f"stable throughput would be {stable_tflops:,.0f} TFLOP/s per GPU, above the dense "
                f"{util.dtype.value} peak of every device logparse knows (the fastest, {fastest}, has {top:g}), "
                "which is impossible: " + _causes(run, util)
            )
    return None


def _causes(run: Run, util: Utilization, peak: str | None = None) -> str:
    """The usual causes of an impossible figure, with the values this run assumed."""
    gpus = run.facts.get("gpus")
    g = f"{flag('gpus', gpus.value)} ({gpus.source})" if gpus else "the GPU count"
    causes = f"check {g} (a per-GPU figure read as the cluster's, or too few GPUs), "
    if peak is not None:
        causes += f"the peak {peak} (a sparse or wrong-dtype figure), "
    causes += (
        "the sequence length and global batch (gradient accumulation counted twice), and the model size "
        f"({util.formula})"
    )
    return causes + _moe_hint(run, util)


_MOE_NAME = regex.compile(r"moe|mixtral|grok|deepseek|qwen\d?-?moe|\d+x\d+b|-a\d+b", regex.IGNORECASE)


def _moe_hint(run: Run, util: Utilization) -> str:
    """A mixture-of-experts model counted with all its experts is the likeliest cause when anything
    suggests experts and logparse is not counting the active ones."""
    if util.model.moe:
        return ""
    # not moe_router_topk alone: Megatron's argument dump prints it (2) for dense models too
    clues = [k for k in ("num_experts", "expert_parallel_size") if k in run.facts]
    clues = [k for k in clues if run.facts[k].value not in (None, 0, 1, False)]
    named = _MOE_NAME.search(run.name) or _MOE_NAME.search(str(util.model_facts.get("params", "")))
    if not clues and not named:
        return ""
    why = f"the log sets {', '.join(clues)}" if clues else f"the run's name {run.name!r} suggests experts"
    return (
        f"; a mixture-of-experts model is likely ({why}): if N counts every expert, pass "
        f"{flag('experts', 'E')} and {flag('topk', 'K')} (or an MoE {flag('model')} preset) so that 6N counts "
        "only the active parameters"
    )
