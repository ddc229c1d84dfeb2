"""The Python API: parse a log into its step frame, analyze a run end to end.

Everything the CLI does is a call here, so a notebook gets the same answers:

    >>> import logparse
    >>> a = logparse.analyze("train.log", gpus=8, hw="h100")
    >>> a.steps[["step", "tokens_per_s_per_gpu", "mfu"]].tail()
    >>> a.summary["stable"]["mfu_mean"]
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypedDict

import pandas as pd
import regex

from .core import options as option_table
from .core.errors import LogparseError, NotATrainingLog, UnrecognisedLog, UsageError, flag
from .core.facts import Options
from .core.naming import run_name, safe_name
from .core.options import Given
from .core.summary_types import FlopsTermPart, FlopsTermsPart
from .core.warnings import RunWarning
from .frame.assemble import choose_sets, parse_log
from .frame.folder import parse_folder
from .patterns.sets import PatternSet, load_sets
from .phases.goodput import build_ledger
from .phases.phases import detect_phases
from .phases.window import check_asked, numbering_basis
from .phases.window import select as select_window
from .read.attempts import attempt_key
from .read.reader import Record
from .read.runfolder import identify
from .report.analysis import Findings, public_steps
from .report.crosscheck import cross_check
from .report.outputs import build_summary, write_outputs
from .specs import formulas as flops_mod
from .specs import hardware
from .specs.formulas import ModelDims
from .steps.run import Run, resolve_run
from .utilization.mfu import GIVEN, assess, default_formula, given_samples, refusal

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class Analysis(Findings):
    """One run, analyzed: `summary` (summary.json as a dict), `steps` (one row per optimizer step),
    `save(folder)` for the files `logparse analyze` writes, `plot()` for the report figure."""

    def save(self, folder: str | os.PathLike[str]) -> dict[str, Path]:
        """Write report.png, summary.json and steps.csv to `folder` (made if missing), as `logparse analyze
        --out folder` does; returns their paths by kind (summary, steps, report)."""
        return write_outputs(self, folder)

    def plot(self, path: str | os.PathLike[str] | None = None) -> Figure:
        """The report figure (report.png's), a matplotlib Figure; also written to `path` when one is given. In
        Jupyter it displays as the image (it has `_repr_png_`; no `%matplotlib inline` needed), and
        `fig.show()` displays it there too."""
        from .report.plots import build_report  # matplotlib loads only when a figure is asked for

        fig = build_report(self)
        if path is not None:
            fig.savefig(path, dpi=fig.dpi)
        return fig


def _options(kwargs: Given) -> Options:
    """Options from keywords, each checked (options.py): a wrong kind or a value out of range is an
    OptionError (a TypeError too) naming the keyword. `sources` (where each came from) is batch's."""
    given = dict(kwargs)
    sources = given.pop("sources", None) or {}
    opts = option_table.options(given)
    opts.sources.update(sources)
    return opts


def check_options(options: Given) -> Options:
    """The options checked as far as they can be before a log is read: each value in range (options.py), a
    `hw`, `model` and `format` that name something logparse knows, a `window` that is A:B, no two options
    that cannot go together. A UsageError (the CLI's exit 2) says what is wrong once, before the first log,
    rather than once for every log of a batch."""
    opts = _options(options)
    if opts.hw is not None:
        device = hardware.lookup(opts.hw)
        if opts.dtype is not None and opts.peak_tflops is None:
            hardware.peak_tflops(device, opts.dtype)
    if opts.model is not None:
        from .specs.models import preset

        preset(opts.model)
    if opts.format is not None:
        choose_sets((), _sets(opts), opts.format)  # a forced set is taken without reading a line
    check_asked(opts.window, opts.last, opts.skip)
    if opts.flops_per_token is not None and opts.formula not in (None, GIVEN):
        raise UsageError(f"give {flag('formula')} or {flag('flops_per_token')}, not both")
    given_samples(opts)
    return opts


def _takes_options(only: tuple[str, ...] | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Give a function's `**options` a signature and a docstring: one keyword per analysis option, named
    as the CLI's flag with `_` for `-` (help(), inspect.signature and notebooks show them)."""

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        sig = inspect.signature(fn)
        params = [p for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD]
        keywords = [
            inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=o.annotation)
            for o in option_table.OPTIONS
            if (only is None or o.name in only) and o.name not in sig.parameters
        ]
        fn.__signature__ = sig.replace(parameters=params + keywords)  # type: ignore[attr-defined]
        fn.__doc__ = f"{inspect.cleandoc(fn.__doc__ or '')}\n\n{option_table.signature_doc(only)}"
        return fn

    return decorate


def _sets(opts: Options) -> dict[str, PatternSet]:
    return load_sets(opts.patterns)


LogPath = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]


def _log_path(path: LogPath) -> str | list[str]:
    """One file as a string; several (the attempts of one job, in the order they ran) as a list."""
    if isinstance(path, (str, os.PathLike)):
        return str(path)
    paths = [str(p) for p in path]
    if not paths:
        raise LogparseError("no log file given")
    return paths[0] if len(paths) == 1 else paths


def _log_name(path: str | list[str]) -> str:
    """A run's name: its file's, or for several attempts, their job's (train-0.log, train-1.log -> train)."""
    return run_name(path) if isinstance(path, str) else run_name(attempt_key(Path(path[0]))[0])


@_takes_options()
def resolve(path: LogPath, *, on_unmatched: Callable[[Record], None] | None = None, **options: Any) -> Run:
    """Read and resolve a log: one row per optimizer step, every fact with its source.
    `on_unmatched` is called with every line no pattern matched. A list of paths is read as one
    stream: the attempts of one job (restarts), in the order they ran."""
    opts = _options(options)
    log = _log_path(path)
    jobs = opts.jobs if opts.jobs is not None else os.cpu_count() or 1
    if isinstance(log, str) and os.path.isdir(
        log
    ):  # a run folder: W&B, HF output dir, Lightning, TensorBoard
        folder = identify(log)
        sets = _sets(opts)
        parsed, warnings = parse_folder(folder, sets, opts.format, on_unmatched=on_unmatched, jobs=jobs)
        run = resolve_run(parsed, opts, safe_name(folder.name))
        run.warnings[:0] = _skipped_sets(sets) + warnings
        return run
    sets = _sets(opts)
    parsed = parse_log(log, sets, opts.format, on_unmatched=on_unmatched, jobs=jobs)
    run = resolve_run(parsed, opts, _log_name(log))
    run.warnings[:0] = _skipped_sets(sets)
    return run


def _skipped_sets(sets: dict[str, PatternSet]) -> list[RunWarning]:
    """A warning for each `*.toml` of a pattern folder that was not read (load_sets: a FIFO, a folder)."""
    return [RunWarning(note, "patterns_skipped") for note in getattr(sets, "skipped", ())]


# options that only the utilization stage reads: given to `parse`, they add its columns
UTILIZATION_OPTIONS = (
    "hw", "dtype", "peak_tflops", "model", "params", "layers", "hidden", "heads", "kv_heads", "experts",
    "topk", "ffn_hidden", "vocab", "mlp", "recompute", "formula", "flops_per_token", "flops_per_sample",
)  # fmt: skip


@_takes_options()
def parse(
    path: LogPath, *, on_unmatched: Callable[[Record], None] | None = None, **options: Any
) -> pd.DataFrame:
    """The resolved step frame of a log (canonical columns): every row of the file, every run and attempt
    in the order they ran (a step logged again by a later attempt keeps only its later row). With a
    hardware or model option (`hw`, `model`, `params`, ...) the rows also get tflops_per_gpu, mfu and hfu.
    `on_unmatched` is called with every line no pattern matched."""
    return public_steps(_utilization_rows(resolve(path, on_unmatched=on_unmatched, **options), options))


def _utilization_rows(run: Run, options: Given) -> pd.DataFrame:
    """The file's rows; with a hardware or model option, with the utilization columns as analyze makes them."""
    rows = file_rows(run, options.get("segment"))
    if not any(options.get(k) is not None for k in UTILIZATION_OPTIONS):
        return rows
    whole = replace(run, steps=rows.copy())
    assess(whole, _options(options))
    return whole.steps


def file_rows(run: Run, segment: int | None = None) -> pd.DataFrame:
    """Every row of the file (all runs and attempts), or only `segment`'s when one is asked for."""
    return run.all_steps if segment is None and run.all_steps is not None else run.steps


@_takes_options()
def analyze(path: LogPath, **options: Any) -> Analysis:
    """The whole pipeline on one log (or the attempts of one job, in the order they ran, as a list):
    resolve, utilization, phases, the framework's own figures, summary."""
    return analysis_of(path, options)


def analysis_of(
    path: LogPath, options: Given, steps_ready: Callable[[pd.DataFrame], None] | None = None
) -> Analysis:
    """`analyze(path, **options)`; `steps_ready` is called with the run's step frame (run.steps) as soon as it is
    final, after the phases (what follows only reads it): the CLI starts writing steps.csv then
    (outputs.StepsAhead), while the ledger and the summary are built."""
    opts = _options(options)
    run = resolve(path, **options)
    util = assess(run, opts)
    phases = detect_phases(run.steps, run.parsed.events, run.parsed.windows, run.throughput)
    if steps_ready is not None:
        steps_ready(run.steps)
    reported, notes = cross_check(run, util, phases)
    run.warnings.extend(notes)
    basis = numbering_basis(run.all_steps if run.all_steps is not None else run.steps)
    every = run.cadence or 1
    window = select_window(run.steps, opts.window, opts.last, opts.skip, every)
    analysis = Analysis(run, phases, util, reported, window, basis, build_ledger(run, phases, util))
    analysis.summary = build_summary(analysis)
    why = refusal(
        analysis.summary["stable"]["mfu_mean"], analysis.summary["stable"]["tflops_per_gpu"], run, util
    )
    if why is not None:
        raise LogparseError(why)
    return analysis


@contextmanager
def unmatched_listing(
    out: str | os.PathLike[str] | TextIO | None,
) -> Iterator[Callable[[Record], None] | None]:
    """An `on_unmatched` callback that writes every line no pattern matched to `out` (a file name, or an
    open text stream such as standard output) as `<line number>\t<text>` (None when `out` is None)."""
    if out is None:
        yield None
        return
    if not isinstance(out, (str, os.PathLike)):
        yield lambda rec: out.write(f"{rec.line}\t{rec.text}\n")
        return
    with open(out, "w", encoding="utf-8") as fh:
        yield lambda rec: fh.write(f"{rec.line}\t{rec.text}\n")


_SHAPE_NUM = regex.compile(r"\d+(?:[.,:]\d+)*(?:[eE][-+]?\d+)?")


def line_shape(text: str) -> str:
    """A line with its numbers masked, for grouping similar lines."""
    return _SHAPE_NUM.sub("#", text.strip())[:160]


@_takes_options(only=("format", "patterns"))
def explain(path: str | os.PathLike[str], **options: Any) -> str:
    """How a log is read: the detection scores, matches per pattern, commonest unmatched shapes."""
    from collections import Counter

    from .patterns import shapes as shapes_mod

    opts = _options(options)
    shapes: Counter[str] = Counter()
    sets = _sets(opts)
    try:
        parsed = parse_log(
            str(path), sets, opts.format, on_unmatched=lambda r: shapes.update([line_shape(r.text)])
        )
    except UnrecognisedLog as exc:
        reason = (
            exc.reason
            if isinstance(exc, NotATrainingLog)
            else f"no pattern set recognises it (tried {', '.join(sorted(n for n, s in sets.items() if s.role != 'common'))})"
        )
        return shapes_mod.explain_unrecognised(str(path), sets, reason)
    out = [
        f"{path}: {parsed.lines['total']:,} lines; format {', '.join(parsed.formats)} "
        + (
            "(forced by --format, not detected)"
            if opts.format is not None
            else f"(detection scores: {', '.join(f'{k} {v}' for k, v in sorted(parsed.detection.scores.items(), key=lambda kv: -kv[1]))})"
        )
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


@_takes_options(only=("patterns",))
def new_pattern_set(path: str | os.PathLike[str], name: str, **options: Any) -> tuple[str, list[str]]:
    """A starting pattern set (TOML text) for a log from its most common line shapes, and notes on what
    each of its lines reads."""
    from .patterns import shapes as shapes_mod

    opts = _options(options)
    return shapes_mod.new_pattern_set(str(path), name, _sets(opts))


class FlopsBreakdown(TypedDict):
    """What `flops` returns: FLOPs per token under the chosen formula, by term, and under the others."""

    model: str | None
    params: float | None
    seq_len: int
    formula: str
    flops_per_token: float
    terms: FlopsTermsPart
    recompute: str
    hfu_flops_per_token: float
    hfu_convention: str
    other_formulas: dict[str, float]  # keyed by formula: the ones these dims allow
    warnings: list[RunWarning]


def _term(flops: float, total: float) -> FlopsTermPart:
    return {"flops": flops, "share": flops / total}


def flops(
    seq_len: int,
    formula: str | None = None,
    recompute: str = "none",
    model: str | None = None,
    params: float | None = None,
    mlp: str | None = None,
    **dims: Any,
) -> FlopsBreakdown:
    """FLOPs per token of a model (a preset and/or dims), by term, under one formula and the others. `mlp`
    is analyze's: "gated" (SwiGLU, three matrices) or "plain" (two); default the preset's, else plain."""
    from .specs.models import preset_dims

    given = {k: v for k, v in dims.items() if v is not None}
    unknown = set(given) - set(ModelDims.__dataclass_fields__)
    if unknown:
        raise TypeError(f"unknown dim(s): {', '.join(sorted(unknown))}")
    # the checks analyze makes, on every value that is one of its options
    table = {"seq_len": seq_len, "params": params, "model": model, "mlp": mlp, "recompute": recompute}
    _options({**table, **{k: v for k, v in given.items() if k in option_table.BY_NAME}})
    if mlp is not None:
        gated = mlp == "gated"
        if given.get("swiglu", gated) != gated:
            raise UsageError(f"{flag('mlp', mlp)} and swiglu={given['swiglu']} disagree; give one of them")
        given["swiglu"] = gated
    base = preset_dims(model) if model else ModelDims()
    d = replace(base, **given)
    # dims given, or the preset's MLP changed: N follows from the dims, not the preset's
    reshaped = bool(set(given) - {"swiglu"}) or d.swiglu != base.swiglu
    d = replace(d, params=params) if params is not None else replace(d, params=None if reshaped else d.params)
    d = d.with_params()
    warnings: list[RunWarning] = []
    if formula is None:  # as analyze chooses: palm from the dims, else 6N from N alone
        formula = default_formula(d, warnings)
    if formula is None or (d.params is None and formula in ("palm", "6n")):
        dims_named = ", ".join(map(flag, ("layers", "hidden", "heads", "vocab")))
        raise LogparseError(f"give {flag('model')}, or {flag('params')}, or the dims ({dims_named}, ...)")
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
            "dense": _term(t.dense, t.total),
            "attention": _term(t.attention, t.total),
            "logits": _term(t.logits, t.total),
        },
        "recompute": recompute,
        "hfu_flops_per_token": flops_mod.hardware_flops_per_token(d, seq_len, formula, recompute),
        "hfu_convention": flops_mod.HFU_CONVENTION[recompute],
        "other_formulas": others,
        "warnings": warnings,
    }
