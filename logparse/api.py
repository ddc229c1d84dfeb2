"""The Python API: parse a log into its step frame, analyze a run end to end.

Everything the CLI does is a call here, so a notebook gets the same answers:

    >>> import logparse
    >>> a = logparse.analyze("train.log", gpus=8, hw="h100")
    >>> a.steps[["step", "tokens_per_s_per_gpu", "mfu"]].tail()
    >>> a.summary["stable"]["mfu_mean"]
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import regex

from . import flops as flops_mod
from . import hardware
from .errors import LogparseError, UnrecognisedLog
from .flops import ModelDims
from .frame import parse_log
from .models import resolve_model
from .patterns import PatternSet, load_sets
from .phases import Phases, detect_phases
from .reader import Record
from .resolve import Fact, Options, Run, add_flag, resolve_run
from .window import numbering_basis
from .window import select as select_window

MFU_IMPOSSIBLE = 1.0


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


@dataclass
class Analysis:
    run: Run
    phases: Phases
    util: Utilization
    summary: dict[str, Any]

    @property
    def steps(self) -> pd.DataFrame:
        return self.run.steps


def run_name(path: str) -> str:
    name = Path(path).name
    for ext in (".gz", ".bz2", ".xz", ".zst", ".log", ".txt", ".out"):
        if name.endswith(ext):
            name = name[: -len(ext)]
    return name or "run"


def _options(kwargs: dict[str, Any]) -> Options:
    unknown = set(kwargs) - set(Options.__dataclass_fields__)
    if unknown:
        raise TypeError(f"unknown option(s): {', '.join(sorted(unknown))}")
    opts = Options(**kwargs)
    if opts.gpus is not None and opts.gpus < 1:
        raise LogparseError(f"--gpus must be at least 1 (got {opts.gpus})")
    if opts.peak_tflops is not None and opts.peak_tflops <= 0:
        raise LogparseError(f"--peak-tflops must be positive (got {opts.peak_tflops})")
    if opts.grad_accum is not None and opts.grad_accum < 1:
        raise LogparseError(f"--grad-accum must be at least 1 (got {opts.grad_accum})")
    if opts.target_tokens is not None and opts.target_tokens <= 0:
        raise LogparseError(f"--target-tokens must be positive (got {opts.target_tokens})")
    if opts.seq_len is not None and opts.seq_len < 1:
        raise LogparseError(f"--seq-len must be at least 1 (got {opts.seq_len})")
    return opts


def _sets(opts: Options) -> dict[str, PatternSet]:
    return load_sets(opts.pattern_dirs)


def resolve(
    path: str | os.PathLike[str], *, on_unmatched: Callable[[Record], None] | None = None, **options: Any
) -> Run:
    """Read and resolve a log: one row per optimizer step, every fact with its source.
    `on_unmatched` is called with every line no pattern matched."""
    opts = _options(options)
    path = str(path)
    parsed = parse_log(path, _sets(opts), opts.format, on_unmatched=on_unmatched)
    return resolve_run(parsed, opts, run_name(path))


def parse(path: str | os.PathLike[str], **options: Any) -> pd.DataFrame:
    """The resolved step frame of a log (canonical columns), without hardware assumptions: every
    row of the file, every run and attempt in the order they ran (a step logged again by a later
    attempt keeps only its later row)."""
    return file_rows(resolve(path, **options), options.get("segment"))


def file_rows(run: Run, segment: int | None = None) -> pd.DataFrame:
    """Every row of the file (all runs and attempts), or only `segment`'s when one is asked for."""
    return run.all_steps if segment is None and run.all_steps is not None else run.steps


def _dtype(opts: Options, facts: dict[str, Fact]) -> Fact:
    if opts.dtype is not None:
        return Fact(opts.dtype, "cli")
    fp8 = facts.get("fp8")
    if fp8 is not None and str(fp8.value).lower() not in ("none", "false", "0", ""):
        return Fact("fp8", "log", f"fp8 recipe {fp8.value!r}, {fp8.detail}")
    for name in ("bf16", "fp16"):
        f = facts.get(name)
        if f is not None and f.value is True:
            return Fact(name, "log", f.detail)
    return Fact("bf16", "default", "mixed-precision BF16 assumed; pass --dtype if the run computed otherwise")


def utilization(run: Run, opts: Options) -> Utilization:
    """Fill tflops_per_gpu, mfu and hfu on the steps; say which formula, peak and dtype."""
    facts, warnings, steps = run.facts, run.warnings, run.steps
    dims, model_facts = resolve_model(opts, facts, warnings)
    dtype = _dtype(opts, facts)
    recompute = opts.recompute
    if recompute is None:
        rg = facts.get("recompute_granularity")
        recompute = str(rg.value) if rg is not None and rg.value in ("full", "selective") else "none"
    seq = run.value("seq_len")

    formula = opts.formula
    reported = _reported_model_tflops(steps)
    if formula == REPORTED and reported is None:
        raise LogparseError(
            "--formula reported: the log prints no model TFLOP/s of its own (Megatron's TFLOP/s/GPU, "
            "Megatron-Bridge's MODEL_TFLOP/s/GPU, MaxText's TFLOP/s/device): pick a formula that counts from the model"
        )
    if opts.flops_per_token is not None:
        if opts.flops_per_token <= 0:
            raise LogparseError(f"--flops-per-token must be positive (got {opts.flops_per_token})")
        if formula not in (None, GIVEN):
            raise LogparseError("give --formula or --flops-per-token, not both")
        formula = GIVEN
    if formula is None:
        if dims.params is None and reported is not None:
            formula = REPORTED
            warnings.append(
                "the model size is unknown, so FLOPs are the framework's own (its model TFLOP/s per GPU, formula "
                "`reported`): pass --model or --params for logparse's count"
            )
        elif dims.params is not None and dims.layers and dims.attn_width:
            formula = "palm"
        elif dims.params is not None:
            formula = "6n"
            warnings.append(
                "only the parameter count is known, so FLOPs/token = 6N: attention's sequence-length term is "
                "not counted (MFU reads low by ~14% at 4k for a 7B model); pass --layers and --hidden for palm"
            )
        else:
            warnings.append(
                "the model size is unknown: pass --model NAME, or --params N (with --layers L --hidden D), "
                "to get FLOPs and MFU"
            )
    fpt = hfpt = terms = None
    if formula == GIVEN:
        fpt = hfpt = float(opts.flops_per_token)  # type: ignore[arg-type]
    elif formula == REPORTED:
        assert reported is not None
        # FLOPs per token as the framework counted them, for the record; the curve is its TFLOP/s itself
        per_token = reported * 1e12 / steps["tokens_per_s_per_gpu"]
        fpt = float(per_token.median()) if per_token.notna().any() else None
        hfpt = fpt
    elif formula is not None and seq is not None:
        terms = flops_mod.terms(dims, int(seq), formula)
        fpt = terms.total
        hfpt = flops_mod.hardware_flops_per_token(dims, int(seq), formula, recompute)

    peak: Fact | None = None
    device_name = None
    peak_source = None
    if opts.hw is not None:
        device = hardware.lookup(opts.hw)
        device_name = device.name
        if not device.verified:
            warnings.append(f"the {device.name} peak is unverified: {device.source}")
        if opts.peak_tflops is None:
            peak = Fact(
                hardware.peak_tflops(device, str(dtype.value)), "preset", f"{device.name} {dtype.value}"
            )
            peak_source = device.source
    if opts.peak_tflops is not None:
        peak = Fact(float(opts.peak_tflops), "cli")
        peak_source = "--peak-tflops"
        device_name = device_name or "custom"
    if peak is None:
        warnings.append(
            "the hardware is unknown: pass --hw NAME (see `logparse hw list`) or --peak-tflops to get MFU"
        )

    if formula == REPORTED:
        steps["tflops_per_gpu"] = reported
    elif fpt is not None:
        steps["tflops_per_gpu"] = fpt * steps["tokens_per_s_per_gpu"] / 1e12
    else:
        steps["tflops_per_gpu"] = np.nan
    if formula == REPORTED and peak is not None:
        steps["mfu"] = steps["tflops_per_gpu"] / peak.value
        hw_col = "reported_hfu_tflops_per_gpu"
        has_hw = hw_col in steps and steps[hw_col].notna().any()
        steps["hfu"] = steps[hw_col] / peak.value if has_hw else np.nan
    elif fpt is not None and peak is not None:
        steps["mfu"] = steps["tflops_per_gpu"] / peak.value
        steps["hfu"] = hfpt * steps["tokens_per_s_per_gpu"] / 1e12 / peak.value
    else:
        steps["mfu"] = np.nan
        steps["hfu"] = np.nan
    too_high = steps["mfu"] > MFU_IMPOSSIBLE
    if peak is None:  # no device to compare with: beyond the fastest device logparse knows is impossible
        _, top = hardware.fastest(str(dtype.value))
        too_high = steps["tflops_per_gpu"] > top if top else too_high
    if too_high.any():
        add_flag(steps, too_high, "mfu_above_100")
        warnings.append(
            f"{int(too_high.sum())} step(s) imply an MFU above 100%{'' if peak else ' on any known device'} (first at step "
            f"{int(steps.loc[too_high, 'step'].iloc[0])}): their timing cannot be right (a first step timed "
            "before the work finished, or a per-GPU figure read as the cluster's); they stay flagged in steps.csv "
            "and out of the stable averages"
        )
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
    )


REPORTED = "reported"  # the formula that takes the framework's own model TFLOP/s as the numerator
GIVEN = "given"  # FLOPs per token given on the command line (--flops-per-token), as a peer states them


def _reported_model_tflops(steps: pd.DataFrame) -> pd.Series | None:
    """The framework's own model TFLOP/s per GPU at each step, when the log prints it."""
    col = "reported_tflops_per_gpu"
    if col in steps and steps[col].notna().any():
        return steps[col]
    return None


def analyze(path: str | os.PathLike[str], **options: Any) -> Analysis:
    """The whole pipeline on one log: resolve, FLOPs and MFU, phases, summary."""
    from .report import build_summary

    opts = _options(options)
    run = resolve(path, **options)
    util = utilization(run, opts)
    phases = detect_phases(run.steps, run.parsed.events, run.parsed.windows, run.throughput_source)
    basis = numbering_basis(run.all_steps if run.all_steps is not None else run.steps)
    window = select_window(run.steps, opts.window, opts.last, opts.skip)
    summary = build_summary(run, util, phases, window, basis)
    stable_mfu = summary["stable"]["mfu_mean"]
    if stable_mfu is not None and stable_mfu > MFU_IMPOSSIBLE:
        raise LogparseError(impossible_mfu_message(stable_mfu, run, util))
    tflops = summary["stable"]["tflops_per_gpu"]
    if tflops is not None and util.peak_tflops is None:
        fastest, top = hardware.fastest(str(util.dtype.value))
        if fastest is not None and tflops > top:
            raise LogparseError(
                f"stable throughput would be {tflops:,.0f} TFLOP/s per GPU, above the dense {util.dtype.value} peak "
                f"of every device logparse knows (the fastest, {fastest}, has {top:g}), which is impossible: "
                + _causes(run, util)
            )
    return Analysis(run, phases, util, summary)


def impossible_mfu_message(mfu: float, run: Run, util: Utilization) -> str:
    peak = util.peak_tflops
    p = f"{peak.value:g} TFLOPS {util.dtype.value} on {util.hardware}" if peak else "the peak"
    return f"stable MFU would be {mfu:.0%}, which is impossible: " + _causes(run, util, p)


def _causes(run: Run, util: Utilization, peak: str | None = None) -> str:
    """The usual causes of an impossible figure, with the values this run assumed."""
    gpus = run.facts.get("gpus")
    g = f"--gpus {gpus.value} ({gpus.source})" if gpus else "the GPU count"
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
    clues = [k for k in ("num_experts", "moe_router_topk", "expert_parallel_size") if k in run.facts]
    clues = [k for k in clues if run.facts[k].value not in (None, 0, 1, False)]
    named = _MOE_NAME.search(run.name) or _MOE_NAME.search(str(util.model_facts.get("params", "")))
    if not clues and not named:
        return ""
    why = f"the log sets {', '.join(clues)}" if clues else f"the run's name {run.name!r} suggests experts"
    return (
        f"; a mixture-of-experts model is likely ({why}): if N counts every expert, pass --experts E --topk K "
        "(or an MoE --model preset) so that 6N counts only the active parameters"
    )


def write_unmatched(path: str | os.PathLike[str], out: str | os.PathLike[str], **options: Any) -> Run:
    """Resolve a log and write every line no pattern matched to `out` as `<line number>\\t<text>`."""
    with open(out, "w", encoding="utf-8") as fh:
        return resolve(path, on_unmatched=lambda rec: fh.write(f"{rec.line}\t{rec.text}\n"), **options)


_SHAPE_NUM = regex.compile(r"\d+(?:[.,:]\d+)*(?:[eE][-+]?\d+)?")


def line_shape(text: str) -> str:
    """A line with its numbers masked, for grouping similar lines."""
    return _SHAPE_NUM.sub("#", text.strip())[:160]


def explain(path: str | os.PathLike[str], **options: Any) -> str:
    """How a log is read: the detection scores, matches per pattern, commonest unmatched shapes."""
    from collections import Counter

    from . import shapes as shapes_mod

    opts = _options(options)
    shapes: Counter[str] = Counter()
    sets = _sets(opts)
    try:
        parsed = parse_log(
            str(path), sets, opts.format, on_unmatched=lambda r: shapes.update([line_shape(r.text)])
        )
    except UnrecognisedLog:
        return shapes_mod.explain_unrecognised(
            str(path), sets, f"no pattern set recognises it (tried {', '.join(sorted(sets))})"
        )
    out = [
        f"{path}: {parsed.lines['total']:,} lines; format {', '.join(parsed.formats)} "
        f"(detection scores: {', '.join(f'{k} {v}' for k, v in sorted(parsed.detection.scores.items(), key=lambda kv: -kv[1]))})"
    ]
    per_pattern: Counter[str] = Counter()
    if not parsed.rows.empty:
        per_pattern.update(parsed.rows["pattern"])
    if not parsed.events.empty:
        per_pattern.update(parsed.events["pattern"])
    config_lines = Counter(o.pattern for obs in parsed.facts.values() for o in obs)
    out.append(
        f"matched {parsed.lines['matched']:,}, unmatched {parsed.lines['unmatched']:,}, "
        f"malformed {parsed.lines['malformed']:,}"
    )
    out.append("lines per pattern (config/summary patterns count the values they gave):")
    for name, n in (per_pattern + config_lines).most_common():
        out.append(f"  {n:8,d}  {name}")
    if shapes:
        out.append("most common unmatched line shapes (# = a number):")
        for shape, n in shapes.most_common(15):
            out.append(f"  {n:8,d}  {shape}")
    if parsed.keymap:  # the generic reading: say what it made of the keys, and how to do better
        for what, title in (
            ("mapped", "step keys"),
            ("facts", "config keys"),
            ("kept", "kept as extra columns"),
        ):
            got = parsed.keymap.get(what)
            if got:
                out.append(
                    f"{title} (logparse/synonyms.toml): " + ", ".join(f"{k} -> {v}" for k, v in got.items())
                )
        out.append(
            f"read generically; for a set of your own (exact regexes, your names): "
            f"logparse patterns new {path} -o mine.toml"
        )
    return "\n".join(out)


def new_pattern_set(path: str | os.PathLike[str], name: str, **options: Any) -> tuple[str, list[str]]:
    """A starting pattern set (TOML text) for a log from its most common line shapes, and notes on what
    each of its lines reads."""
    from . import shapes as shapes_mod

    opts = _options(options)
    return shapes_mod.new_pattern_set(str(path), name, _sets(opts))


def flops(
    seq_len: int,
    formula: str = "palm",
    recompute: str = "none",
    model: str | None = None,
    params: float | None = None,
    swiglu: bool | None = None,
    **dims: Any,
) -> dict[str, Any]:
    """FLOPs per token of a model (a preset and/or dims), by term, under one formula and the others."""
    from .models import preset_dims

    base = preset_dims(model) if model else ModelDims()
    given = {k: v for k, v in dims.items() if v is not None}
    unknown = set(given) - set(ModelDims.__dataclass_fields__)
    if unknown:
        raise TypeError(f"unknown dim(s): {', '.join(sorted(unknown))}")
    d = replace(base, **given, **({"swiglu": swiglu} if swiglu is not None else {}))
    d = replace(d, params=params) if params is not None else replace(d, params=None if given else d.params)
    d = d.with_params()
    if d.params is None and formula in ("palm", "6n"):
        raise LogparseError("give --model, or --params, or the dims (--layers --hidden --heads --vocab ...)")
    t = flops_mod.terms(d, seq_len, formula)
    others = {}
    for name in flops_mod.FORMULAS:
        if name != formula:
            try:
                others[name] = flops_mod.flops_per_token(d, seq_len, name)
            except LogparseError:
                continue
    return {
        "model": model,
        "params": d.params,
        "seq_len": seq_len,
        "formula": formula,
        "flops_per_token": t.total,
        "terms": {
            n: {"flops": v, "share": v / t.total}
            for n, v in (("dense", t.dense), ("attention", t.attention), ("logits", t.logits))
        },
        "recompute": recompute,
        "hfu_flops_per_token": flops_mod.hardware_flops_per_token(d, seq_len, formula, recompute),
        "hfu_convention": flops_mod.HFU_CONVENTION[recompute],
        "other_formulas": others,
    }
