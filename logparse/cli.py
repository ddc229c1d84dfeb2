"""The command line: a thin shell over the Python API (logparse.api)."""

from __future__ import annotations

import atexit
import importlib
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import Any

import click

from . import __version__
from .core import collector, jsontext, options
from .core.collector import settle
from .core.errors import Interrupted, LogparseError, UsageError, cli_names, failure_text, on_sigterm
from .core.naming import run_names
from .core.options import Given
from .specs import hardware
from .specs.formulas import FORMULAS

# Memory that is new to a process is zeroed by the kernel when first written, and on this kind of machine
# (a VM; 0.2-0.3 GB/s) that was a quarter of a 1 GiB parse's CPU time. Two defaults made most of it: numpy
# asks for transparent huge pages for every array of 4 MiB or more (each first touch zeroes 2 MiB, used or
# not), and pyarrow's jemalloc pool maps its own; the system allocator reuses the freed memory of the
# columns built and dropped one after another. 1 GiB `parse`, 3 pairs: wall 0.87 (13.7 against 17.4 s),
# kernel time 6.1 against 8.7 s, peak 824 against 857 MiB; `analyze` (which keeps freed memory after the
# read: chunks.reuse_freed_memory), 4 pairs: 0.93 (29.0 against 30.4 s), the same peak. Both variables are
# read once, when numpy and pyarrow are imported (numpy's "madvise hugepage on Linux", pyarrow's default
# memory pool): set here, before either is; a user's own setting wins.
os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")


class _Later:
    """A module imported on first use: `logparse --help` and `logparse hw list` answer without loading
    pandas, matplotlib or the pattern sets."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name, __package__), attr)


api = _Later(".api")
patterns = _Later(".patterns.sets")
pattern_schema = _Later(".patterns.schema")
report = _Later(".report.outputs")
drawing = _Later(".report.drawing")  # no pandas: the drawing process is forked before pandas is imported


def _fail(message: str, code: int = 1) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def friendly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """User errors become one line `error: ...`, exit 2 for a usage error (an option's value) and 1 for the
    rest; nothing prints a traceback unless LOGPARSE_DEBUG is set."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            with cli_names(), on_sigterm():
                return fn(*args, **kwargs)
        except UsageError as exc:
            _fail(str(exc), 2)
        except LogparseError as exc:
            message = str(exc)
            if fn.__name__ == "parse":  # the reader's hint names analyze; parse reads "-" too
                message = message.replace("logparse analyze - <", f"logparse {fn.__name__} - <")
            _fail(message)
        except click.ClickException:  # usage errors: click's own message and exit 2
            raise
        except Interrupted as exc:  # a SIGTERM: cleaned up on the way here; 128 + its number, as a shell says
            _fail(f"interrupted ({signal.Signals(exc.signum).name})", 128 + exc.signum)
        except KeyboardInterrupt:  # Ctrl-C (and `batch`'s SIGTERM, which it handles as Ctrl-C)
            _fail("interrupted", 130)
        except (
            BrokenPipeError
        ):  # `logparse ... | head`: the reader has gone; say nothing (Python's docs' way)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        except MemoryError:
            _fail("out of memory")
        except OSError as exc:  # an output folder that cannot be made, a full disk, a read-only path
            where = exc.filename or ""
            _fail(f"{where}: {exc.strerror or exc}" if where else str(exc))
        except Exception as exc:  # a bug: say so in one line, keep the traceback for LOGPARSE_DEBUG
            if os.environ.get("LOGPARSE_DEBUG"):
                raise
            _fail(f"internal error ({type(exc).__name__}: {exc}); rerun with LOGPARSE_DEBUG=1 and report it")

    return wrapper


_CLICK_TYPES = {"int": int, "float": float, "str": str}


class _TokenCount(click.ParamType):
    """A count of tokens: a number, or one with a K, M, B or T suffix (2T = 2e12), as options.token_count reads it."""

    name = "float"

    def convert(self, value: Any, param: Any, ctx: Any) -> float:
        try:
            return options.token_count(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


def table_option(
    name: str, param: str | None = None, help: str | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The click option of options.py's entry `name` (--name with dashes), passed as `param` (default: name),
    with `help` in place of the table's where a command uses the option differently."""
    o = options.BY_NAME[name]
    flag = "--" + name.replace("_", "-")
    text = help or o.help
    if o.kind == "paths":
        return click.option(flag, param or name, multiple=True, type=click.Path(), help=text)
    if o.kind == "choice":
        return click.option(flag, param or name, type=click.Choice(o.choices), help=text)
    kind = _TokenCount() if name == "target_tokens" else _CLICK_TYPES[o.kind]
    return click.option(flag, param or name, type=kind, metavar=o.metavar, help=text)


def analysis_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The analysis options (options.py's table, but --jobs, which each command words for itself)."""
    for o in reversed(options.OPTIONS):
        if o.name != "jobs":
            fn = table_option(o.name)(fn)
    return fn


# what parse does not use: the reporting windows and the projection are the summary's, not the step frame's
_NOT_PARSE = {"jobs", "window", "last", "skip", "target_tokens", "gpu_hour_cost"}
_PARSE_HELP = {
    "segment": "Write only this segment (see `segments` in summary.json). Default: every run in the file."
}


def parse_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The analysis options parse uses (its rows and their utilization columns), each worded for parse."""
    for o in reversed(options.OPTIONS):
        if o.name not in _NOT_PARSE:
            fn = table_option(o.name, help=_PARSE_HELP.get(o.name))(fn)
    return fn


def _output_folder(out_dir: str) -> None:
    """A clear sentence when --out names something that is not a folder (mkdir said `File exists`)."""
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise UsageError(f"--out {out_dir}: that is a file; --out takes a folder (made if missing)")


def reading_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Options of the commands that read one log."""
    return click.option(
        "--jobs",
        type=click.IntRange(min=1),
        help="Processes reading a large log (8 MB or more) at once. Default: the machine's cores.",
    )(fn)


@contextmanager
def _stdin_spooled(logs: tuple[str, ...]) -> Iterator[list[str]]:
    """The logs, with `-` (a log on standard input) written to a temporary `stdin.log` first: a log is
    read more than once (detection, then the values)."""
    if "-" not in logs:
        yield list(logs)
        return
    if logs.count("-") > 1:
        raise click.UsageError("standard input (-) can be given once")
    with tempfile.TemporaryDirectory(prefix="logparse-") as tmp:
        spooled = Path(tmp) / "stdin.log"
        with open(spooled, "wb") as fh:
            shutil.copyfileobj(sys.stdin.buffer, fh, 1 << 20)
        yield [str(spooled) if log == "-" else log for log in logs]


class _OneLine(click.ClickException):
    """A usage error click found (an unknown option, a value of the wrong kind, a missing argument), said as
    logparse's own are: one line `error: ...` on stderr, exit 2."""

    exit_code = 2

    def __init__(self, exc: click.UsageError) -> None:
        message = exc.format_message()
        if exc.ctx is not None:
            message += f" (see {exc.ctx.command_path} --help)"
        super().__init__(message)

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


class _Commands(click.Group):
    """logparse's commands, whose usage errors are one line (_OneLine); a group called without a command
    still prints its help."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as exc:
            raise _one_line(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise _one_line(exc) from None


def _one_line(exc: click.UsageError) -> click.ClickException:
    # (click 8.2+: a group without its command is this error, which shows the group's help)
    return exc if isinstance(exc, getattr(click.exceptions, "NoArgsIsHelpError", ())) else _OneLine(exc)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="logparse")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Honest throughput, MFU/HFU, stable phase and dips from LLM training logs."""
    if ctx.invoked_subcommand != "analyze":  # analyze turns the collector on once imported (settle)
        collector.resume()


@cli.command()
@click.argument("logs", nargs=-1, required=True)
@analysis_options
@reading_options
@click.option("--out", "out_dir", type=click.Path(), help="Output folder. Default: ./logparse-out/<run>/.")
@click.option("--json", "as_json", is_flag=True, help="Print only the summary JSON on stdout.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors (the files are still written).")
@friendly
def analyze(logs: tuple[str, ...], out_dir: str | None, as_json: bool, quiet: bool, **kw: Any) -> None:
    """Analyze training log(s): write report.png, summary.json and steps.csv. `-` reads a log from
    standard input. A folder is read as a run folder: a W&B run, a Hugging Face output dir, a Lightning
    version_N, TensorBoard event files (the files it reads are named on the `read:` line).

    Example: logparse analyze train.log --gpus 8 --hw h100

    Every log is analyzed even when one fails; each failure is one `error: LOG: ...` line on stderr, and the
    exit code is 1 when any log failed."""
    if out_dir is not None:
        _output_folder(out_dir)
    with _stdin_spooled(logs) as paths:
        _analyze_each(paths, out_dir, as_json, quiet, kw)


def _analyze_each(logs: list[str], out_dir: str | None, as_json: bool, quiet: bool, kw: Given) -> None:
    summaries = []
    failed = 0
    # one log: its report's drawing code is imported in a forked process while pandas is and the log is read
    drawer = drawing.Drawer.start() if len(logs) == 1 else None
    try:
        api.check_options(kw)  # a bad option is refused once, not by every log
    except BaseException:
        if drawer is not None:
            drawer.close()
        raise
    for log, name in zip(logs, run_names(list(logs)), strict=True):
        if out_dir is None:
            target = report.default_out_dir(name)
        else:
            target = Path(out_dir) / name if len(logs) > 1 else Path(out_dir)
        # a large run's steps.csv is written by a forked process from when its step frame is final
        ahead = report.StepsAhead(target) if len(logs) == 1 else None
        try:
            run = (
                api.analysis_of
            )  # (imports the analysis: what they made is frozen out of the collector's passes)
            settle()
            analysis = run(log, kw, None if ahead is None else ahead.start)
            paths = report.write_outputs(analysis, target, drawer, ahead=ahead)
        except (LogparseError, OSError) as exc:
            if len(logs) == 1:
                raise
            failed += 1
            message = failure_text(exc, log)
            click.echo(f"error: {message if message.startswith(log) else f'{log}: {message}'}", err=True)
            continue
        finally:
            if ahead is not None:  # (first: the writer it forked holds the drawer's pipe open too)
                ahead.close()
            if drawer is not None:
                drawer.close()
        summaries.append(analysis.summary)
        if not as_json and not quiet:
            click.echo(report.text_summary(analysis, paths))
    if as_json and summaries and not quiet:
        click.echo(jsontext.dumps(summaries[0] if len(logs) == 1 else summaries, indent=2))
    if failed:
        click.echo(f"error: {failed} of {len(logs)} logs failed", err=True)
        sys.exit(1)


@cli.command()
@click.argument("log")
@click.option(
    "-o",
    "--output",
    type=click.Path(),
    help="FILE.csv, FILE.parquet or FILE.jsonl, .csv.gz or .jsonl.gz written gzipped (default: CSV on stdout).",
)
@click.option(
    "--unmatched",
    type=click.Path(),
    help="Write the lines no pattern matched, with their numbers, to this file (`-`: standard output).",
)
@parse_options
@reading_options
@friendly
def parse(log: str, output: str | None, unmatched: str | None, **kw: Any) -> None:
    """Write the resolved step frame of a log: one row per optimizer step, every run and attempt in the
    file in the order they ran (--segment N: only that segment).

    \b
    Examples:
      logparse parse train.log > steps.csv
      logparse parse train.log -o steps.parquet --hw h100 --gpus 8 --model llama2-7b"""
    if unmatched == "-" and output is None:
        raise click.UsageError(
            "--unmatched - and the step CSV would both go to standard output; pass -o FILE"
        )
    api.check_options(kw)
    if output is not None:  # a bad -o is refused before anything (the --unmatched file) is written
        try:
            report.steps_kind(output)
            if not os.path.lexists(Path(output).parent):  # made if missing, as analyze's --out
                Path(output).parent.mkdir(parents=True)
            report.check_steps_path(output)
        except LogparseError as exc:
            raise UsageError(str(exc)) from None
    listing = api.unmatched_listing(sys.stdout if unmatched == "-" else unmatched)
    with _stdin_spooled((log,)) as (path,), listing as on_unmatched:
        frame = api.parse(path, on_unmatched=on_unmatched, **kw)
    if output is None:
        report.write_steps(frame, sys.stdout, kind=".csv")
        return
    report.write_steps(frame, output)
    click.echo(f"wrote {len(frame)} steps to {output}", err=True)


@cli.command()
@click.argument("directory", type=click.Path())
@analysis_options
@click.option("--out", "out_dir", type=click.Path(), help="Output folder. Default: ./logparse-out/batch/.")
@click.option(
    "--jobs", type=click.IntRange(min=1), help="Runs analyzed at once. Default: the machine's cores."
)
@click.option(
    "--executor",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="Where runs are analyzed: processes here, or a Dask cluster.",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="A running Dask scheduler (tcp://host:8786) for --executor dask. Default: a local cluster.",
)
@click.option(
    "--force", is_flag=True, help="Analyze every run again, even those unchanged since the last batch."
)
@click.option(
    "--no-stitch",
    "no_stitch",
    is_flag=True,
    help="Analyze each log on its own, not the attempts of one job (train-0.log, train-1.log) as one run.",
)
@click.option("--json", "as_json", is_flag=True, help="Print only the index (one record per run) on stdout.")
@friendly
def batch(
    directory: str,
    out_dir: str | None,
    jobs: int | None,
    executor: str,
    scheduler: str | None,
    force: bool,
    no_stitch: bool,
    as_json: bool,
    **kw: Any,
) -> None:
    """Analyze every run under DIRECTORY with the same defaults (a run folder's logparse.toml overrides
    them); write index.csv, index.json and a folder per run. Exit 1 when any run failed.

    \b
    Example:
      logparse batch runs/ --hw h100 --out report/"""
    from .batch.engine import index_json, run_batch
    from .batch.page import visible

    if scheduler is not None and executor != "dask":
        raise click.UsageError("--scheduler needs --executor dask")
    out = Path(out_dir) if out_dir else Path("logparse-out") / "batch"
    api.check_options(kw)  # the batch's own options: refused once, not as every run's error

    def bar(results, total):
        with click.progressbar(results, length=total, label="analyzing", file=sys.stderr) as items:
            yield from items

    try:
        index = run_batch(
            directory,
            out,
            kw,
            jobs=jobs,
            progress=bar if sys.stderr.isatty() else None,
            executor=executor,
            scheduler=scheduler,
            force=force,
            stitch=not no_stitch,
        )
    except LogparseError as exc:
        lost = getattr(exc, "index", None)
        if lost is not None:  # the index could not be written (a full disk): name the failures here
            for _, row in lost[lost["status"] != "ok"].iterrows():
                click.echo(f"error: {row['run']}: {row['error']}", err=True)
        raise
    failed = index[index["status"] != "ok"]
    if as_json:
        click.echo(index_json(index))
    else:
        for _, row in index[index["status"] == "ok"].iterrows():
            mfu = "n/a" if pd_isna(row["mfu"]) else f"{row['mfu']:.1%}"
            click.echo(
                f"ok     {visible(row['run'])}: {row['format']}, stable MFU {mfu}, {report.plural(int(row['dips']), 'dip')}, "
                f"{report.plural(int(row['restarts']), 'restart')}{' (cached)' if row['cached'] else ''}"
            )
        click.echo(f"{len(index) - len(failed)} of {len(index)} runs analyzed; index: {out / 'index.csv'}")
        for line in index.attrs.get("skipped_lines", []):
            click.echo(visible(line))
    for (
        _,
        row,
    ) in failed.iterrows():  # names and errors as the page shows them: a U+202E reverses no terminal line
        click.echo(f"error: {visible(row['run'])}: {visible(str(row['error']))}", err=True)
    if len(failed):
        sys.exit(1)


@cli.command()
@click.argument("runs", nargs=-1, required=True)
@click.option(
    "--x",
    "x_axis",
    type=click.Choice(["step", "tokens", "time"]),
    default="step",
    show_default=True,
    help="x axis: optimizer step, cumulative tokens (each run's own tokens per step) or wall time.",
)
@click.option(
    "--metric",
    "metrics",
    multiple=True,
    type=click.Choice(["mfu", "tokens_per_s_per_gpu", "step_time_s", "loss", "grad_norm", "lr"]),
    help="A panel per metric (repeatable). Default: mfu and loss.",
)
@click.option(
    "--smooth",
    "smoothing",
    type=click.FloatRange(0, 1, max_open=True),
    default=0.6,
    show_default=True,
    help="TensorBoard's smoothing weight (debiased EMA); 0 draws the raw values.",
)
@click.option("--label", "labels", multiple=True, help="A run's label (repeatable, in RUN order).")
@click.option(
    "--ref",
    default=None,
    help="The reference run for the table's changes: its label, the RUN as you gave it, or its position (1 = the "
    "table's first run). Default: the first run that has the figure.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(),
    default="compare.png",
    show_default=True,
    help="The figure (FILE.png); the table is written beside it as FILE.csv.",
)
@analysis_options
@friendly
def compare(
    runs: tuple[str, ...],
    x_axis: str,
    metrics: tuple[str, ...],
    smoothing: float,
    labels: tuple[str, ...],
    ref: str | None,
    output: str,
    **kw: Any,
) -> None:
    """Plot runs together: logs, `analyze` folders, batch folders or their index.csv (its ok runs).

    Writes FILE.png and the table beside it as FILE.csv, and prints the table.

    \b
    Examples:
      logparse compare baseline.log tuned.log --hw h100 --x tokens -o compare.png
      logparse compare logparse-out/batch --metric mfu --target-tokens 1e12"""
    from .batch.compare import compare_runs, format_table

    api.check_options(kw)
    result = compare_runs(
        list(runs), x_axis, output, kw, metrics=metrics, smoothing=smoothing, labels=labels, ref=ref
    )
    click.echo(format_table(result.table))
    click.echo(f"wrote {result.png} and {result.csv}")


def pd_isna(x: Any) -> bool:
    return x is None or (isinstance(x, float) and x != x)


@cli.group("patterns")
def patterns_group() -> None:
    """List, test, explain and write pattern sets.

    \b
    Examples:
      logparse patterns list
      logparse patterns explain train.log"""


@patterns_group.command("list")
@table_option("patterns", "pattern_dirs")
@friendly
def patterns_list(pattern_dirs: tuple[str, ...]) -> None:
    """The pattern sets logparse knows, and where each comes from.

    Example: logparse patterns list --patterns my_patterns/"""
    sets = sorted(patterns.load_sets(pattern_dirs, check_samples=False).items())
    name_w = max((len(name) for name, _ in sets), default=0)  # columns as wide as their longest entry
    title_w = max((len(ps.title) for _, ps in sets), default=0)
    for name, ps in sets:
        click.echo(
            f"{name:{name_w}s}  {ps.title:{title_w}s} {_counted(len(ps.lines), 'line')} "
            f"{_counted(len(ps.samples), 'sample')}  {ps.source_file}"
        )


def _counted(n: int, word: str) -> str:
    """`  1 line `, ` 12 lines`: a count and its word, as wide whatever the count, for a column."""
    return f"{n:3d} {word if n == 1 else word + 's':{len(word) + 1}s}"


@patterns_group.command("test")
@click.argument("directory", required=False)
@friendly
def patterns_test(directory: str | None) -> None:
    """Check every sample of every set (in DIRECTORY, or the shipped ones).

    Example: logparse patterns test my_patterns/"""
    folder = Path(directory) if directory else patterns.shipped_dir()
    files = sorted(folder.glob("*.toml"))
    if not files:
        raise LogparseError(f"{folder}: no pattern files (*.toml) here")
    failed = 0
    for path in files:
        try:
            ps = patterns.load_file(path)
        except LogparseError as exc:
            failed += 1
            click.echo(f"FAIL {exc}")
            continue
        problems = patterns.sample_failures(ps, whole_numbers=True)  # values from whole numbers too
        if problems:
            failed += 1
            for p in problems:
                click.echo(f"FAIL {path}: {p}")
        else:
            click.echo(f"ok   {path}: {len(ps.samples)} samples")
    if failed:
        raise LogparseError(f"{failed} pattern file(s) have failing samples")


@patterns_group.command("schema")
@click.option(
    "-o", "--output", type=click.Path(), help="Copy the schema here: a file, or a folder of pattern sets."
)
@friendly
def patterns_schema(output: str | None) -> None:
    """Where the pattern-set JSON Schema is (for an editor); with -o, copy it beside your pattern sets.

    Example: logparse patterns schema -o my_patterns/pattern_set.schema.json"""
    source = pattern_schema.SCHEMA_FILE
    if output is None:
        click.echo(str(source))
        return
    dest = Path(output)
    if dest.is_dir():
        dest = dest / source.name
    dest.write_bytes(source.read_bytes())
    click.echo(f"wrote {dest}; a pattern file beside it starts with:  #:schema ./{dest.name}")


@patterns_group.command("explain")
@click.argument("log")
@table_option("patterns", "pattern_dirs")
@table_option("format", "format_")
@friendly
def patterns_explain(log: str, pattern_dirs: tuple[str, ...], format_: str | None) -> None:
    """Which set a log uses, how many lines each pattern matched, and the commonest unmatched shapes.

    Example: logparse patterns explain train.log"""
    click.echo(api.explain(log, patterns=pattern_dirs, format=format_))


@patterns_group.command("new")
@click.argument("log")
@click.option(
    "-o", "--output", type=click.Path(), required=True, help="The pattern file to write (NAME.toml)."
)
@click.option("--name", help="The set's name (default: the file's stem).")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
@table_option("patterns", "pattern_dirs")
@friendly
def patterns_new(log: str, output: str, name: str | None, force: bool, pattern_dirs: tuple[str, ...]) -> None:
    """Write a starting pattern set for LOG from its most common line shapes, with real sample lines.

    Example: logparse patterns new train.log -o my_patterns/mine.toml"""
    out = Path(output)
    if out.suffix != ".toml":
        raise UsageError(f"-o {output}: a pattern file must end in .toml")
    if out.is_dir():
        raise UsageError(f"-o {output}: is a folder; -o takes the pattern file's name (NAME.toml)")
    if out.exists() and not force:
        raise UsageError(f"-o {output} exists; pass --force to overwrite it")
    set_name = name or out.stem.lower().replace(" ", "_")
    text, notes = api.new_pattern_set(log, set_name, patterns=pattern_dirs)
    out.parent.mkdir(parents=True, exist_ok=True)  # my_patterns/mine.toml: the folder of a new set
    out.write_text(text, encoding="utf-8")
    click.echo(f"wrote {output} (pattern set {set_name!r}):")
    for note in notes:
        click.echo(f"  {note}")
    folder = out.parent if str(out.parent) else Path(".")
    click.echo(f"check it:  logparse patterns test {folder}")
    click.echo(f"use it:    logparse analyze {log} --patterns {folder} --format {set_name}")


@cli.group("hw")
def hw_group() -> None:
    """The hardware peak table.

    Example: logparse hw list"""


@hw_group.command("list")
@click.option(
    "--json", "as_json", is_flag=True, help="Print each device with its aliases and sources as JSON."
)
def hw_list(as_json: bool) -> None:
    """Dense peak TFLOPS per device and dtype (--json: with each figure's source).

    Example: logparse hw list --json"""
    devs = hardware.devices().values()
    if as_json:
        click.echo(
            json.dumps(
                [
                    {
                        "name": d.name,
                        "aliases": list(d.aliases),
                        "peak_tflops": d.peak_tflops,
                        "source": d.source,
                        "verified": d.verified,
                    }
                    for d in devs
                ],
                indent=2,
            )
        )
        return
    names = [d.name if d.verified else d.name + "*" for d in devs]
    width = max([len("name"), *map(len, names)])
    click.echo(f"{'name':{width}s} " + " ".join(f"{t:>7s}" for t in hardware.DTYPES) + "  aliases")
    for d, name in zip(devs, names, strict=True):
        vals = " ".join(
            f"{d.peak_tflops[t]:7g}" if t in d.peak_tflops else f"{'-':>7s}" for t in hardware.DTYPES
        )
        click.echo(f"{name:{width}s} {vals}  {', '.join(d.aliases)}")
    if any(not d.verified for d in devs):
        click.echo("* not checked against the vendor's datasheet; pass --peak-tflops if you know better")
    click.echo("Each figure's source: logparse hw list --json")


@cli.command("flops")
@click.option("--model", help="Model preset (see `logparse models list`).")
@click.option("--params", type=float, help="N: parameters without the input embedding.")
@click.option("--layers", type=int, help=options.BY_NAME["layers"].help)
@click.option("--hidden", type=int, help=options.BY_NAME["hidden"].help)
@click.option("--heads", type=int, help=options.BY_NAME["heads"].help)
@click.option("--kv-heads", type=int, help=options.BY_NAME["kv_heads"].help)
@click.option("--ffn-hidden", type=int, help=options.BY_NAME["ffn_hidden"].help)
@click.option("--vocab", type=int, help=options.BY_NAME["vocab"].help)
@table_option(
    "mlp",
    help="MLP kind: gated (SwiGLU, GeGLU: three matrices) or plain (two). Default: the preset's, else plain.",
)
@click.option("--swiglu/--no-swiglu", default=None, hidden=True)  # the older spelling of --mlp gated|plain
@click.option("--seq-len", type=int, required=True, help="Sequence length (tokens per sample).")
@click.option(
    "--formula",
    type=click.Choice(list(FORMULAS)),
    help="Default: palm when the layers and hidden size are known, else 6n (as analyze chooses).",
)
@click.option(
    "--recompute",
    type=click.Choice(["none", "selective", "full"]),
    default="none",
    show_default=True,
    help=options.BY_NAME["recompute"].help,
)
@click.option("--json", "as_json", is_flag=True, help="Print the breakdown as JSON.")
@friendly
def flops_cmd(as_json: bool, **kw: Any) -> None:
    """FLOPs per token of a model, with its terms (dense matmuls, attention, logits) and their shares.

    \b
    Examples:
      logparse flops --model llama2-7b --seq-len 4096
      logparse flops --layers 32 --hidden 4096 --heads 32 --vocab 32000 --seq-len 4096 --json"""
    swiglu = kw.pop("swiglu")
    if swiglu is not None:
        said = "--swiglu" if swiglu else "--no-swiglu"
        if kw["mlp"] is not None:
            raise UsageError(f"give --mlp or {said}, not both")
        kw["mlp"] = "gated" if swiglu else "plain"
        click.echo(f"warning: {said} is deprecated; use --mlp {kw['mlp']}, as analyze takes it", err=True)
    result = api.flops(**kw)
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(
        f"{result['model'] or 'model'}: N = {result['params']:.4g} (without input embedding), "
        f"seq len {result['seq_len']}, formula {result['formula']}"
    )
    for name, t in result["terms"].items():
        click.echo(f"  {name:10s} {t['flops']:12.4e} FLOPs/token  {t['share']:6.1%}")
    click.echo(f"  {'total':10s} {result['flops_per_token']:12.4e} FLOPs/token")
    if result["recompute"] != "none":
        click.echo(f"  with {result['recompute']} recomputation (HFU): {result['hfu_flops_per_token']:.4e}")
    if result["other_formulas"]:
        click.echo("  other formulas (against this one):")
        width = max(map(len, result["other_formulas"]))
        for name, v in result["other_formulas"].items():
            click.echo(
                f"    {name:{width}s} {v:.4e} FLOPs/token  {(v / result['flops_per_token'] - 1):+6.1%}"
            )
    for warning in result["warnings"]:
        click.echo(f"warning: {warning}", err=True)


@cli.group("models")
def models_group() -> None:
    """Model presets for --model.

    Example: logparse models list"""


@models_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the presets as JSON.")
def models_list(as_json: bool) -> None:
    """Model presets: their dimensions and N (parameters without the input embedding).

    Example: logparse models list --json"""
    from .specs.formulas import ModelDims, params_from_dims
    from .specs.models import presets

    rows = []
    for name, p in presets().items():
        dims = ModelDims(**{k: v for k, v in p.items() if k in ModelDims.__dataclass_fields__})
        rows.append((name, p, p.get("params") or params_from_dims(dims)))
    if as_json:
        click.echo(json.dumps([{"name": name, **p, "params": n} for name, p, n in rows], indent=2))
        return
    width = max((len(name) for name, _, _ in rows), default=0)  # as wide as the longest name
    for name, p, n in rows:
        click.echo(
            f"{name:{width}s} L={p['layers']:<3d} d={p['hidden']:<5d} heads={p['heads']:<3d} "
            f"kv={p.get('kv_heads', p['heads']):<3d} ffn={p['ffn_hidden']:<6d} V={p['vocab']:<6d} N={n:.4g}"
        )


def _without_3d() -> None:
    """matplotlib imports its 3D toolkit (mpl_toolkits.mplot3d) to register the '3d' projection, which no
    logparse figure uses: 15-20 ms of every drawing process's start, on the README sample's critical path (the
    report is drawn once that import is done). In a logparse command's own process, never in a library
    caller's, the toolkit is marked absent; matplotlib then leaves the projection out, with a warning that is
    silenced here (matplotlib/projections/__init__.py: `except Exception: warnings.warn("Unable to import
    Axes3D. ...")`)."""
    sys.modules.setdefault("mpl_toolkits.mplot3d", None)  # type: ignore[arg-type]
    warnings.filterwarnings("ignore", message="Unable to import Axes3D")


def _small_pages() -> None:
    """numpy asks the kernel for transparent huge pages for every array of 4 MB or more (madvise). Where the
    kernel then compacts memory to find them (/sys/kernel/mm/transparent_hugepage/defrag: madvise, as on the
    machines logparse is measured on), a large log's frame pays for it on every column it makes: a 2.4 M-row
    column concatenated in 38 ms against 11 ms, 0.6 s of a 1 GiB `parse` and 0.8 s of its `analyze`. In a
    logparse command's own process, before numpy is imported, and only where the caller has not set it, numpy's
    own switch (NUMPY_MADVISE_HUGEPAGE) turns the request off; its worker processes inherit it."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")


def main() -> None:
    """The `logparse` command. In a process started for it (not main() called by runpy or a test), the
    collector is paused while the command imports (core/collector.py), matplotlib comes without its 3D
    toolkit, numpy without huge pages (_small_pages), and the process ends without tearing the interpreter down
    (_leave)."""
    if not _started_for_logparse():
        cli(prog_name="logparse")
        return
    collector.pause()
    _without_3d()
    _small_pages()
    try:
        cli(prog_name="logparse")
    except SystemExit as done:
        _leave(done.code)
    _leave(0)


def _started_for_logparse() -> bool:
    """This process was started to run logparse: the `logparse` script, or `python -m logparse`."""
    started = sys.modules.get("__main__")
    spec = getattr(started, "__spec__", None)
    if spec is not None:
        return spec.name == "logparse.__main__"
    return Path(getattr(started, "__file__", None) or "").stem == "logparse"


def _leave(code: object) -> None:
    """End the command's process without tearing the interpreter down: its exit handlers run and its output
    is flushed, then the process ends (os._exit). Python's own exit frees every object one by one first (the
    imported pandas and matplotlib: 25-30 ms, medians of 6, of the README sample's run), which the end of
    the process does at once. With another thread running, or output that cannot be flushed (a reader gone),
    the usual exit."""
    if threading.active_count() > 1:
        sys.exit(code)
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message"): the message on stderr, exit 1, as Python does
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(code)
    os._exit(code)


if __name__ == "__main__":
    main()
