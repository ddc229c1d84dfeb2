"""Run folders: the places past runs live, read for what a console log lacks.

A team's runs sit in folders that training libraries write, and those folders hold what a console log
often does not: the GPU model and count, the model's exact dimensions, every logged step with its number,
wall-clock stamps. `identify` recognises a folder's kind and gathers, without interpreting the log:

- the console log(s) in it (W&B's `files/output.log`, a `train.log` teed beside an HF output dir);
- the run facts its files state, each with its own source (`wandb-metadata`, `wandb-config`,
  `config.json`, `trainer_state.json`, `hparams.yaml`): an observation like a log line's, which loses to
  the command line and a sidecar like any other;
- its step record, when it keeps one (`trainer_state.json`'s log_history, Lightning's metrics.csv,
  TensorBoard scalars): every logged step with its number, keyed as the library wrote it.

Kinds and the files each holds (the libraries' own layouts):

| kind | recognised by | console | facts | steps |
|---|---|---|---|---|
| wandb | `files/output.log`, `run-<id>.wandb`, `files/wandb-metadata.json` | files/output.log | wandb-metadata.json (`gpu`, `gpu_count`), config.yaml | the binary run-<id>.wandb, with the `wandb` package (extra) |
| hf | `trainer_state.json` (top, or the latest `checkpoint-*/`), `config.json` | `*.log`, `*.out` beside them | config.json (dims), trainer_state.json (`train_batch_size`) | log_history |
| lightning | `metrics.csv` + `hparams.yaml` (`lightning_logs/version_N/`) | `*.log` in the run root | hparams.yaml | metrics.csv |
| tensorboard | `events.out.tfevents.*` (Megatron-LM's `--tensorboard-dir`, HF's `runs/`, NeMo, torchtitan) | `*.log` beside | | scalars, with the `tensorboard` package (extra) |

Megatron-LM's `--log-progress` file (`progress.txt`) is listed as a file of the folder. Reading the binary W&B
record and TensorBoard event files is left to their libraries (optional extras), never done by hand: without
them, the folder is read from its plain files and `RunFolder.notes` says what the extra would add.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import math
import os
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import regex

from ..core.bounded import FileRefused, check_nesting, open_bounded, read_bounded
from ..core.errors import LogparseError
from ..core.plausible import shown_value
from ..core.schema import Row
from ..core.tomlfile import Table

# a console log inside a run folder: what people tee training output to
CONSOLE_SUFFIXES = (".log", ".out", ".log.gz", ".out.gz", ".txt", ".txt.gz")
# .txt files a run folder holds that are not consoles
NOT_CONSOLE = frozenset({
    "requirements.txt", "progress.txt", "merges.txt", "vocab.txt", "README.txt",
    # NeMo's exp_manager writes these beside its console (nemo_log_globalrank-0_localrank-0.txt): the command line,
    # the git state, the error stream alone, and Lightning's own messages
    "cmd-args.log", "git-info.log", "nemo_error_log.txt", "lightning_logs.txt",
})  # fmt: skip
EVENTS_PREFIX = "events.out.tfevents."
# Megatron-LM writes each scalar twice: by iteration, and `<tag> vs samples` (and `vs tokens`) by consumed count
VERSUS = (" vs samples", " vs tokens", " vs steps")
MAX_DEPTH = 4  # how deep under a run folder its files are looked for (HF's runs/<date_host>/events...)
# A run folder's files are read whole, each within bounds (core/bounded.py); a file past them is not read, with a
# note (the run is analysed from its other files: a step record's steps from the console). A step record
# (trainer_state.json's log_history, metrics.csv, Megatron-LM's progress.txt) of ~100k logged steps is ~20 MB and
# takes ~10x its size in memory to read; 64 MiB is ~370k entries. A config or metadata file is a few kB.
MAX_RECORD_BYTES = 64 << 20
MAX_FILE_BYTES = 16 << 20
MAX_NESTING = 64  # levels of lists and tables in a JSON or YAML file (a config nests a handful)
MAX_VALUES = 1_000_000  # values a YAML file may stand for, its aliases expanded


@dataclass(frozen=True)
class FolderFact:
    """A run fact a folder's file states: the fact's name as a log line would give it (hidden_size,
    device_name, world_size), its value, the source (`config.json`, `wandb-metadata`, ...) and the key it
    was read from."""

    name: str
    value: Any
    source: str
    key: str


@dataclass
class StepRecord:
    """A library's record of the logged steps: one dict per logged step (its `step` and the keys as the
    library wrote them), from `source` (the file, relative to the folder). `clock`: the entries carry
    `wall_time` (seconds since the epoch) as the library stamped them."""

    source: str
    entries: list[Row]
    clock: bool = False
    kind: str = ""  # trainer_state | metrics_csv | tensorboard | wandb


@dataclass
class RunFolder:
    """One run's folder, as found: what it holds and what each file gave."""

    root: Path
    kind: str  # wandb | hf | lightning | tensorboard
    consoles: list[Path] = field(default_factory=list)
    facts: list[FolderFact] = field(default_factory=list)
    record: StepRecord | None = None
    # flat configs as their files state them (source, {key: value}), mapped to facts by the synonym table's
    # config keys where the folder becomes a log (frame/folder.py): wandb's config.yaml, Lightning's hparams
    configs: list[tuple[str, Table]] = field(default_factory=list)
    # event records a file states (Megatron-LM's progress.txt: job starts, saved checkpoints): event, line (in
    # that file), timestamp, step, text
    events: list[Row] = field(default_factory=list)
    # (file relative to root, what logparse took from it) in the order read, for the `read:` line
    read: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was not read, and what would read it

    @property
    def name(self) -> str:
        """The run's name: the folder's (a W&B folder's run id; `version_0`'s parent run folder)."""
        root = self.root
        if (
            self.kind == "lightning"
            and root.name.startswith("version_")
            and root.parent.name == "lightning_logs"
        ):
            root = root.parent.parent if root.parent.parent.name else root
        return root.name or "run"

    def describe(self) -> str:
        """`read: files/output.log (console), files/wandb-metadata.json (8 x NVIDIA H100 80GB HBM3)`."""
        return "read: " + ", ".join(f"{path} ({what})" for path, what in self.read)

    def fact(self, name: str) -> FolderFact | None:
        return next((f for f in self.facts if f.name == name), None)


# ------------------------------------------------------------------------------------------------ finding


def is_run_folder(path: str | os.PathLike[str]) -> bool:
    """Whether a folder is one run's folder of a kind logparse reads."""
    return _kind(Path(path)) is not None


def run_folders(root: str | os.PathLike[str]) -> list[Path]:
    """The run folders under `root` (itself included), outermost first, none inside another: a batch's
    runs. W&B's `latest-run` link is skipped (it names a run that is listed anyway)."""
    found: list[Path] = []
    top = Path(root)
    stack = [top]
    while stack:
        here = stack.pop()
        if here.name == "latest-run" and here.is_symlink():
            continue
        if _kind(here) is not None:
            found.append(here)
            continue  # a run's own subfolders (checkpoints, files/, runs/) are the run's
        try:  # a link to a folder is not followed (a link back up would loop; W&B's latest-run names a listed run)
            subs = sorted((p for p in here.iterdir() if p.is_dir() and not p.is_symlink()), reverse=True)
        except OSError:
            continue
        stack.extend(subs)
    return sorted(found)


def _kind(d: Path) -> str | None:
    try:
        if not d.is_dir():
            return None
        names = {p.name for p in d.iterdir()}
    except OSError:
        return None
    if "files" in names and (
        (d / "files" / "output.log").is_file() or (d / "files" / "wandb-metadata.json").is_file()
    ):
        return "wandb"
    if any(n.startswith("run-") and n.endswith(".wandb") for n in names):
        return "wandb"
    if "trainer_state.json" in names or any(
        n.startswith("checkpoint-") and (d / n / "trainer_state.json").is_file() for n in names
    ):
        return "hf"
    if "metrics.csv" in names and ("hparams.yaml" in names or d.name.startswith("version_")):
        return "lightning"
    if "lightning_logs" in names:
        versions = _versions(d / "lightning_logs")
        if len(versions) == 1:
            return "lightning"
    if (
        any(n.startswith(EVENTS_PREFIX) for n in names)
        or (_has_events(d, 2) and _consoles(d))
        or (_has_events(d, 3) and (_consoles(d / "logs") or _progress_path(d) is not None))
    ):
        # event files below a folder that also holds the run's console or Megatron-LM's progress.txt (directly, or
        # in logs/ and checkpoints/: Megatron's --tensorboard-dir, --save and a launcher's log folder side by side)
        return "tensorboard"
    return None


def _versions(d: Path) -> list[Path]:
    try:
        return sorted(p for p in d.iterdir() if p.is_dir() and p.name.startswith("version_"))
    except OSError:
        return []


def _has_events(d: Path, depth: int) -> bool:
    """TensorBoard event files in `d` (depth 1) or up to `depth` levels below it."""
    return any(p.name.startswith(EVENTS_PREFIX) for p in _files_below(d, depth))


def _files_below(d: Path, depth: int = MAX_DEPTH) -> Iterator[Path]:
    try:
        entries = sorted(d.iterdir())
    except OSError:
        return
    for p in entries:
        if p.is_symlink() and p.is_dir():
            continue
        if p.is_file():
            yield p
        elif p.is_dir() and depth > 1:
            yield from _files_below(p, depth - 1)


def _consoles(d: Path) -> list[Path]:
    """The console logs directly in `d`: *.log, *.out, a .txt that is not a known non-log."""
    try:
        files = sorted(p for p in d.iterdir() if p.is_file())
    except OSError:
        return []
    return [p for p in files if p.name.endswith(CONSOLE_SUFFIXES) and p.name not in NOT_CONSOLE]


# ------------------------------------------------------------------------------------------------ reading


def identify(path: str | os.PathLike[str]) -> RunFolder:
    """The run folder at `path`: its kind, consoles, facts and step record. A LogparseError that says
    what was looked for when the folder is of no kind logparse reads."""
    d = Path(path)
    kind = _kind(d)
    if kind is None:
        inside = run_folders(d) if d.is_dir() else []
        if len(inside) == 1:
            return identify(inside[0])
        if len(inside) > 1:
            raise LogparseError(
                f"{d} holds {len(inside)} runs ({', '.join(p.name for p in inside[:4])}"
                f"{', ...' if len(inside) > 4 else ''}): analyze one of them, or run `logparse batch {d}`"
            )
        logs = _logs_in(d) if d.is_dir() else []
        if logs:
            shown = ", ".join(str(p.relative_to(d)) for p in logs[:3]) + (", ..." if len(logs) > 3 else "")
            raise LogparseError(
                f"{d} is a folder of logs ({shown}), not one run's folder: analyze every run in it with "
                f"`logparse batch {shlex.quote(str(d))}`, or give a log itself "
                f"(logparse analyze {shlex.quote(str(logs[0]))})"
            )
        raise LogparseError(
            f"{d} is a folder, but not a run folder logparse reads: no W&B run (files/output.log, run-<id>.wandb), "
            "no Hugging Face output dir (trainer_state.json), no Lightning log (metrics.csv, hparams.yaml), no "
            "TensorBoard event file; give the log file itself"
        )
    folder = RunFolder(root=d, kind=kind)
    _take_consoles(folder)
    {"wandb": _wandb, "hf": _hf, "lightning": _lightning, "tensorboard": _tensorboard}[kind](folder)
    _progress_file(folder)
    if not folder.consoles and folder.record is None:
        missing = " ".join(folder.notes) or "it holds no console log and no step record logparse can read"
        raise LogparseError(f"{d}: a {kind} run folder with nothing to analyze: {missing}")
    return folder


# how far _logs_in looks: a hint, not a listing (a tree of thousands of files is not walked to its end)
_LOOK_AT = 2000


def _logs_in(d: Path) -> list[Path]:
    """Files under `d` named like console logs (train.log, slurm-1.out, run.txt, compressed or not), in name
    order: what `logparse batch` would take as runs."""
    found: list[Path] = []
    seen = 0
    for here, dirs, files in os.walk(d):
        dirs.sort()
        for name in sorted(files):
            seen += 1
            ext = Path(name).suffix
            plain = name[: -len(ext)] if ext in (".gz", ".bz2", ".xz", ".zst") else name
            if plain.endswith((".log", ".out", ".txt")) and name not in NOT_CONSOLE:
                found.append(Path(here) / name)
        if seen > _LOOK_AT:
            break
    return found


def _rel(folder: RunFolder, p: Path) -> str:
    try:
        return p.relative_to(folder.root).as_posix()
    except ValueError:  # the run's console beside lightning_logs/ when version_N is given: ../../train.log
        return Path(os.path.relpath(p, folder.root)).as_posix()


def run_consoles(path: str | os.PathLike[str]) -> list[Path]:
    """The files the reader of the run folder at `path` takes as its run's console: those `identify` reads,
    and the copy of them it knows (a W&B run's output as the terminal got it, beside its `wandb/` folder).
    Found from the folder's names and a candidate copy's first and last lines, without reading the folder's
    other files: a batch reads each of them as part of this run, never as a run of its own. [] for a folder
    of no kind."""
    d = Path(path)
    kind = _kind(d)
    if kind is None:
        return []
    choice = _console_choice(d, kind)
    return [*choice.read, *choice.copies]


@dataclass
class _Consoles:
    """A run folder's console files: those read, in order; each place's logs of other jobs (not read) with the
    console they lost to; copies of the console kept elsewhere (not read again)."""

    read: list[Path] = field(default_factory=list)
    others: list[tuple[list[Path], Path]] = field(default_factory=list)
    copies: list[Path] = field(default_factory=list)


def _console_choice(d: Path, kind: str) -> _Consoles:
    """Where each kind keeps its console (the module's table), and which files there are the run's: in a
    place that holds several jobs' logs, the largest job's (its attempts, in the order they ran)."""
    choice = _Consoles()
    if kind == "wandb":
        output = d / "files" / "output.log"
        if output.is_file():
            choice.read.append(output)
            choice.copies = _terminal_copies(d)
        return choice
    if kind == "lightning" and d.name.startswith("version_") and d.parent.name == "lightning_logs":
        places = [d.parent.parent, d]  # the run's console beside lightning_logs/, when version_N is given
    elif kind == "tensorboard":
        places = [d if _consoles(d) else d / "logs"]
    else:
        places = [d]
    from .attempts import group_attempts

    for where in places:
        found = _consoles(where)
        if not found:
            continue
        groups = group_attempts(found)
        chosen = max(groups, key=lambda g: sum(_size(p) for p in g))
        choice.read.extend(chosen)
        others = [p for g in groups if g is not chosen for p in g]
        if others:
            choice.others.append((others, chosen[0]))
    return choice


def _take_consoles(folder: RunFolder) -> None:
    """The folder's consoles (_console_choice), with what was not read said in its notes."""
    choice = _console_choice(folder.root, folder.kind)
    for p in choice.read:
        folder.consoles.append(p)
        folder.read.append((_rel(folder, p), "console"))
    for others, chosen in choice.others:
        folder.notes.append(
            f"{', '.join(_rel(folder, p) for p in others)} not read: another log than the run's console "
            f"({_rel(folder, chosen)}, the largest); analyze it on its own"
        )
    for p in choice.copies:
        read_as = _rel(folder, choice.read[0])
        folder.read.append((_rel(folder, p), f"the console as the terminal got it: read as {read_as}"))


# wandb prints the run's folder when it starts and ends, to the terminal only (wandb/sdk/wandb_run.py,
# Run._header_sync_info: "Run data is saved locally in {sync_dir}"; _footer_sync_info: "wandb sync
# {sync_dir}", "Find logs at: {log_dir}"), and files/output.log holds what the script printed: the terminal's
# file is the same run's console with those lines around it. wandb writes its runs into `<dir>/wandb/`
# (`.wandb/` where that name is taken).
#
# a line wandb prints to the terminal (`wandb: `, perhaps coloured, perhaps after a launcher's prefix) that
# names a run folder
_WANDB_RUN_DIR = regex.compile(
    r"(?m)^[^\n]*?\bwandb(?:\x1b\[[\d;]*m)*: [^\n]*?(?<![\w.-])\.?wandb[/\\]([\w.-]+)"
)
COPY_TAIL_BYTES = 64 * 1024  # how far from a candidate copy's end wandb's footer is looked for


def _terminal_copies(d: Path) -> list[Path]:
    """Console files beside the W&B run folder `d` or beside its `wandb/` folder that name `d` as their run's
    folder (by its name, or by the run id wandb ends it with, `run-<date>-<id>`, which the run's own
    `run-<id>.wandb` keeps when the folder is renamed): the terminal's copy of its files/output.log."""
    ids = tuple(f"-{p.name[4:-6]}" for p in d.glob("run-*.wandb"))
    places = [d.parent] + ([d.parent.parent] if d.parent.name in ("wandb", ".wandb") else [])
    return [
        p
        for where in places
        for p in _consoles(where)
        if any(n == d.name or (ids and n.endswith(ids)) for n in _wandb_runs_named(p))
    ]


def _wandb_runs_named(p: Path) -> frozenset[str]:
    """The W&B run folders a console names in its first chunk and its last COPY_TAIL_BYTES (the header and
    footer wandb prints); read once per version of the file (a batch asks for every run beside it)."""
    try:
        st = p.stat()
    except OSError:
        return frozenset()
    return _runs_named(str(p), st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=65536)
def _runs_named(path: str, size: int, mtime_ns: int) -> frozenset[str]:
    from .reader import compression, open_checked

    try:
        fh, text, _ = open_checked(path)  # (its first chunk: a MiB at most)
        with fh:
            if size > len(text) + COPY_TAIL_BYTES and compression(path) is None:
                fh.seek(size - COPY_TAIL_BYTES)
                text += b"\n" + fh.read(COPY_TAIL_BYTES)
    except (OSError, EOFError, ValueError, LogparseError):
        return frozenset()
    return frozenset(_WANDB_RUN_DIR.findall(text.decode("utf-8", "replace")))


def _size(p: Path) -> int:
    try:
        return p.stat().st_size
    except OSError:
        return 0


def _read_text(folder: RunFolder, p: Path, limit: int = MAX_FILE_BYTES) -> str | None:
    """A run folder's file as UTF-8 text, within bounds (a regular file, at most `limit` bytes), or None with a
    note saying why it was not read."""
    try:
        return read_bounded(p, limit).decode("utf-8")
    except FileRefused as exc:
        folder.notes.append(f"{_rel(folder, p)} not read: {exc.reason}")
    except (OSError, UnicodeDecodeError) as exc:
        folder.notes.append(f"{_rel(folder, p)} not read ({type(exc).__name__}: {exc})")
    return None


def _load_json(folder: RunFolder, p: Path, limit: int = MAX_FILE_BYTES) -> Any:
    """A JSON file's content, or None with a note when it cannot be read (a cut file, a bad byte, over `limit`
    bytes, nested deeper than MAX_NESTING)."""
    text = _read_text(folder, p, limit)
    if text is None:
        return None
    try:
        data = json.loads(text)
        check_nesting(data, MAX_NESTING, len(text) + 1)
        return data
    except ValueError as exc:
        folder.notes.append(f"{_rel(folder, p)} not read ({type(exc).__name__}: {exc})")
    except (RecursionError, FileRefused):  # (json's reader raises RecursionError a thousand levels down)
        folder.notes.append(f"{_rel(folder, p)} not read: nested deeper than {MAX_NESTING} levels")
    return None


def _load_yaml(folder: RunFolder, p: Path) -> Any:
    """A YAML file's content, or None with a note when it cannot be read: as _load_json, and a file whose
    aliases repeat more than MAX_VALUES values (a few lines can stand for billions)."""
    import yaml

    text = _read_text(folder, p)
    if text is None:
        return None
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # (libyaml's, where PyYAML was built with it)
    try:
        _yaml_within(yaml, loader, text)
        data = yaml.load(text, Loader=loader)
        check_nesting(data, MAX_NESTING, MAX_VALUES)  # (its aliases expanded, as a walk of it meets them)
        return data
    except yaml.YAMLError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        folder.notes.append(f"{_rel(folder, p)} not read ({first})")
    except ValueError:  # an integer of thousands of digits: int()'s limit, raised through yaml's constructor
        folder.notes.append(f"{_rel(folder, p)} not read (a number too long to read)")
    except RecursionError:  # yaml composes nested nodes recursively
        folder.notes.append(f"{_rel(folder, p)} not read: nested deeper than {MAX_NESTING} levels")
    except FileRefused as exc:
        folder.notes.append(f"{_rel(folder, p)} not read: {exc.reason}")
    return None


def _yaml_within(yaml: Any, loader: Any, text: str) -> None:
    """FileRefused when a YAML text nests deeper than MAX_NESTING or holds more than MAX_VALUES nodes, told from
    its stream of parse events before a node is built: building a deeply nested document costs time that grows
    faster than its size (3,000 lists nested 990 deep, 6 MB, took 190 s to load) and recursion."""
    starts = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    depth = nodes = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, starts):
            depth += 1
            if depth > MAX_NESTING:
                raise FileRefused(f"nested deeper than {MAX_NESTING} levels")
        elif isinstance(event, ends):
            depth -= 1
            continue
        elif not isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
            continue
        nodes += 1
        if nodes > MAX_VALUES:
            raise FileRefused(f"more than {MAX_VALUES:,} values")


def _scalar(v: Any) -> bool:
    return isinstance(v, (int, float, str, bool)) and not (isinstance(v, float) and not math.isfinite(v))


# ---- facts: the keys libraries write for what logparse calls a run fact

# HF config.json (PretrainedConfig) and its older GPT-2 names -> the fact a log line would give
HF_CONFIG_FACTS = {
    "hidden_size": "hidden_size", "n_embd": "hidden_size", "d_model": "hidden_size",
    "num_hidden_layers": "num_layers", "n_layer": "num_layers", "num_layers": "num_layers",
    "num_attention_heads": "num_attention_heads", "n_head": "num_attention_heads",
    "num_key_value_heads": "num_query_groups",
    "intermediate_size": "ffn_hidden_size", "n_inner": "ffn_hidden_size", "ffn_dim": "ffn_hidden_size",
    "vocab_size": "vocab_size",
    "num_local_experts": "num_experts", "num_experts": "num_experts", "n_routed_experts": "num_experts",
    "num_experts_per_tok": "moe_router_topk",
}  # fmt: skip
# HF model types by their MLP (transformers' modeling_<type>.py): three matrices (gate_proj, up_proj, down_proj, or
# Phi-3's gate_up_proj: SwiGLU/GeGLU) or two (GPT-2's c_fc/c_proj, GPT-NeoX's dense_h_to_4h, Phi's fc1/fc2,
# StarCoder2's c_fc); a type in neither list states nothing
GATED_MODEL_TYPES = frozenset(
    "llama mistral mixtral qwen2 qwen2_moe qwen3 qwen3_moe gemma gemma2 gemma3 phi3 olmo olmo2 deepseek_v2 "
    "deepseek_v3 granite cohere internlm2".split()
)
PLAIN_MODEL_TYPES = frozenset(
    "gpt2 gpt_neox gptj opt bloom falcon gpt_bigcode phi codegen starcoder2".split()
)


def _hf_model_facts(folder: RunFolder, cfg: Any, source: str) -> int:
    if not isinstance(cfg, dict):
        return 0
    n = 0
    for key, fact in HF_CONFIG_FACTS.items():
        v = cfg.get(key)
        if isinstance(v, int) and not isinstance(v, bool) and v > 0 and folder.fact(fact) is None:
            folder.facts.append(FolderFact(fact, v, source, key))
            n += 1
    embd = cfg.get("n_embd")
    if (
        cfg.get("n_inner") is None
        and isinstance(embd, int)
        and not isinstance(embd, bool)
        and folder.fact("ffn_hidden_size") is None
    ):
        # GPT-2's MLP is 4 x n_embd when n_inner is null (GPT2MLP: inner_dim = n_inner or 4 * hidden_size)
        folder.facts.append(FolderFact("ffn_hidden_size", 4 * embd, source, "4 x n_embd (n_inner null)"))
    mtype = str(cfg.get("model_type", ""))
    if mtype in GATED_MODEL_TYPES:
        folder.facts.append(FolderFact("swiglu", True, source, f"model_type {mtype} (a gated MLP)"))
    elif mtype in PLAIN_MODEL_TYPES:
        folder.facts.append(FolderFact("swiglu", False, source, f"model_type {mtype} (a two-matrix MLP)"))
    tied = cfg.get("tie_word_embeddings")
    if isinstance(tied, bool):
        folder.facts.append(FolderFact("untie_embeddings", not tied, source, "tie_word_embeddings"))
    return n


def _flatten(d: Any, prefix: str = "") -> Table:
    """A nested config as dotted keys, and each leaf also under its last key when that is unambiguous
    (`model.hidden_size` is also `hidden_size`)."""
    out: Table = {}
    leaves: dict[str, list[Any]] = {}

    def walk(x: Any, pre: str) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, f"{pre}{k}.")
        else:
            out[pre[:-1]] = x
            leaves.setdefault(pre[:-1].rsplit(".", 1)[-1], []).append(x)

    walk(d, prefix)
    for k, vs in leaves.items():
        if k not in out and len(vs) == 1:
            out[k] = vs[0]
    return out


# ---- W&B

# wandb's own system-metadata keys (wandb/sdk/internal/system/system_info.py, the `gpu`, `gpu_count` and
# `gpu_nvidia` entries its GPU probe writes into files/wandb-metadata.json)


def _wandb(folder: RunFolder) -> None:
    files = folder.root / "files"
    meta_path = files / "wandb-metadata.json"
    if meta_path.is_file():
        meta = _load_json(folder, meta_path)
        if isinstance(meta, dict):
            folder.read.append((_rel(folder, meta_path), _wandb_meta(folder, meta)))
    cfg_path = files / "config.yaml"
    if cfg_path.is_file():
        raw = _load_yaml(folder, cfg_path)
        if isinstance(raw, dict):
            flat = {
                k: (v.get("value") if isinstance(v, dict) and "value" in v else v)
                for k, v in raw.items()
                if not str(k).startswith("_")
            }
            if "model_type" in flat:
                _hf_model_facts(folder, flat, "wandb-config")
            folder.configs.append(("wandb-config", _flatten(flat)))
            folder.read.append((_rel(folder, cfg_path), f"config, {len(flat)} keys"))
    summary_path = files / "wandb-summary.json"
    if summary_path.is_file():
        summary = _load_json(folder, summary_path)
        if isinstance(summary, dict) and isinstance(summary.get("_runtime"), (int, float)):
            folder.read.append((_rel(folder, summary_path), f"runtime {float(summary['_runtime']):.0f} s"))
    binaries = sorted(folder.root.glob("run-*.wandb"))
    if binaries:
        _wandb_binary(folder, binaries[0])


def _wandb_meta(folder: RunFolder, meta: Table) -> str:
    """Facts from wandb-metadata.json; returns what was taken, for the read line."""
    name = meta.get("gpu")
    nvidia = meta.get("gpu_nvidia")
    if not isinstance(name, str) and isinstance(nvidia, list) and nvidia and isinstance(nvidia[0], dict):
        name = nvidia[0].get("name")
    count = meta.get("gpu_count")
    if isinstance(count, float) and count.is_integer():  # (`1e20`: a count JSON reads as a float)
        count = int(count)
    if not isinstance(count, int) or isinstance(count, bool):
        count = len(nvidia) if isinstance(nvidia, list) else None
    said = []
    if isinstance(name, str) and name.strip():
        folder.facts.append(FolderFact("device_name", name.strip(), "wandb-metadata", "gpu"))
    if isinstance(count, int) and count > 0:
        # the GPUs of the machine rank 0 ran on (wandb probes its own node): the job's count on one node
        folder.facts.append(FolderFact("world_size", count, "wandb-metadata", "gpu_count"))
    if isinstance(count, int) and abs(count) >= 10**15:  # (said as 1e+20, not as its digits)
        count = shown_value(count)  # type: ignore[assignment]
    if isinstance(name, str) and isinstance(count, (int, str)):
        said.append(f"{count} x {name.strip()}")
    elif isinstance(name, str):
        said.append(name.strip())
    elif isinstance(count, (int, str)):
        said.append(f"{count} GPUs")
    return ", ".join(said) or "no GPU fields"


def _wandb_binary(folder: RunFolder, path: Path) -> None:
    """The binary run-<id>.wandb (history, config, GPU metadata), through the wandb package's own reader;
    without it, a note saying what it would add."""
    rel = _rel(folder, path)
    synced = (folder.root / "files" / "wandb-metadata.json").is_file()  # its config and GPUs are in files/
    try:
        import wandb  # type: ignore[import-not-found]  # noqa: F401
    except Exception:  # noqa: BLE001 - not installed (or broken)
        folder.notes.append(
            f"{rel} not read: pip install 'logparse[wandb]' reads the run's logged history (each step's wall time)"
            + (
                " from it"
                if synced
                else ", config and GPUs from it (or `wandb sync` the run: it writes the config and GPUs as "
                "files/config.yaml and files/wandb-metadata.json)"
            )
        )
        return
    try:
        from wandb.sdk.internal import datastore  # type: ignore[import-not-found]
    except Exception:  # noqa: BLE001 - wandb 0.19+: its reader moved into wandb-core, with no Python API
        folder.notes.append(
            f"{rel} not read: this wandb has no Python reader for it; `wandb sync` the run (it writes its config "
            "and GPUs as files/config.yaml and files/wandb-metadata.json, which logparse reads)"
        )
        return
    scanned = _wandb_scan(datastore, path)
    if scanned is None:
        folder.notes.append(f"{rel} not read (wandb's reader failed on it)")
        return
    entries, config, gpu, count = scanned
    said = []
    if entries and folder.record is None:
        folder.record = StepRecord(rel, entries, clock=all("wall_time" in e for e in entries), kind="wandb")
        said.append(f"history, {len(entries)} steps")
    if config:
        folder.configs.append(("wandb-config", _flatten(config)))
        said.append(f"config, {len(config)} keys")
    if gpu:
        folder.facts.append(FolderFact("device_name", gpu, "wandb-metadata", "gpu_type (run-<id>.wandb)"))
    if count:
        folder.facts.append(
            FolderFact(
                "world_size",
                count,
                "wandb-metadata",
                "gpu_count (run-<id>.wandb), the GPUs of rank 0's machine",
            )
        )
    if gpu or count:
        said.append(f"{count} x {gpu}" if gpu and count else gpu or f"{count} GPUs")
    folder.read.append((rel, ", ".join(said) or "nothing logparse reads"))


def _wandb_scan(datastore: Any, path: Path) -> tuple[list[Row], Table, str, int] | None:
    """The history rows, the config and the GPU (name, count) of a run-<id>.wandb, read by wandb's DataStore
    (wandb/sdk/internal/datastore.py, in wandb up to 0.29) as wandb's own `wandb sync` reads it."""
    try:
        from wandb.proto import wandb_internal_pb2  # type: ignore[import-not-found]

        ds = datastore.DataStore()
        ds.open_for_scan(str(path))
        entries: list[Row] = []
        config: Table = {}
        gpu, count = "", 0
        while True:
            data = ds.scan_data()
            if data is None:
                break
            rec = wandb_internal_pb2.Record()
            rec.ParseFromString(data)
            kind = rec.WhichOneof("record_type")
            if kind == "run":
                config.update(_json_items(rec.run.config.update))
            elif kind == "config":
                config.update(_json_items(rec.config.update))
            elif kind == "environment" and rec.environment.gpu_count:
                gpu, count = rec.environment.gpu_type or gpu, int(rec.environment.gpu_count)
            elif kind == "history":
                entry = _history_entry(rec.history)
                if entry is not None:
                    entries.append(entry)
        return entries, {k: v for k, v in config.items() if not k.startswith("_")}, gpu, count
    except Exception:  # noqa: BLE001 - a cut or newer-format file: said, not raised
        return None


def _json_items(items: Any) -> Table:
    out: Table = {}
    for item in items:
        key = item.key or "/".join(item.nested_key)
        try:
            value = json.loads(item.value_json)
            check_nesting(value, MAX_NESTING, MAX_VALUES)
        except (ValueError, RecursionError, FileRefused):  # (a value nested too deep is left out)
            continue
        out[key] = value
    return out


def _history_entry(history: Any) -> Row | None:
    row = _json_items(history.item)
    step = row.pop("_step", None)
    if history.HasField("step"):
        step = history.step.num
    if not isinstance(step, (int, float)):
        return None
    entry: Row = {"step": int(step)}
    if isinstance(row.get("_timestamp"), (int, float)):
        entry["wall_time"] = float(row["_timestamp"])
    entry.update({k: v for k, v in row.items() if not k.startswith("_") and _scalar(v)})
    return entry


# ---- Hugging Face output dirs


def _latest_checkpoint(d: Path) -> Path | None:
    best: tuple[int, Path] | None = None
    for p in d.glob("checkpoint-*"):
        tail = p.name.rsplit("-", 1)[-1]
        if tail.isdigit() and (p / "trainer_state.json").is_file() and (best is None or int(tail) > best[0]):
            best = (int(tail), p)
    return None if best is None else best[1]


def _hf(folder: RunFolder) -> None:
    d = folder.root
    latest = _latest_checkpoint(d)  # what the top level lacks (save_state() never called) is read there
    state_path = d / "trainer_state.json"
    if not state_path.is_file() and latest is not None:
        state_path = latest / "trainer_state.json"
    cfg_path = d / "config.json"
    if not cfg_path.is_file() and latest is not None and (latest / "config.json").is_file():
        cfg_path = latest / "config.json"
    if cfg_path.is_file():
        cfg = _load_json(folder, cfg_path)
        n = _hf_model_facts(folder, cfg, "config.json")
        mtype = cfg.get("model_type") if isinstance(cfg, dict) else None
        folder.read.append((_rel(folder, cfg_path), f"{mtype or 'model'} dims, {n} fact{'s' * (n != 1)}"))
    if state_path.is_file():
        state = _load_json(folder, state_path, MAX_RECORD_BYTES)
        if isinstance(state, dict):
            folder.read.append(
                (_rel(folder, state_path), _trainer_state(folder, state, _rel(folder, state_path)))
            )
    _events(folder, d)


HF_FINAL_FACTS = {
    "train_runtime": "final_runtime_s", "train_samples_per_second": "final_samples_per_s",
    "train_steps_per_second": "final_steps_per_s", "train_tokens_per_second": "final_tokens_per_s_per_gpu",
    "train_loss": "final_loss", "total_flos": "total_flos", "epoch": "final_epoch",
}  # fmt: skip


def _trainer_state(folder: RunFolder, state: Table, rel: str) -> str:
    """Facts and the step record of a trainer_state.json (TrainerState: log_history, train_batch_size,
    max_steps, logging_steps, global_step)."""
    for key, fact in (("train_batch_size", "micro_batch_size"), ("max_steps", "train_iters"),
                      ("logging_steps", "log_interval")):  # fmt: skip
        v = state.get(key)
        if isinstance(v, int) and not isinstance(v, bool) and v > 0:
            folder.facts.append(FolderFact(fact, v, "trainer_state.json", key))
    history = state.get("log_history")
    for item in history if isinstance(history, list) else ():
        # the end of training's totals (Trainer.train's metrics, logged once): the facts the console's final dict
        # gives (patterns/hf_trainer.toml final_dict)
        if isinstance(item, dict) and "train_runtime" in item:
            for key, fact in HF_FINAL_FACTS.items():
                v = item.get(key)
                if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                    folder.facts.append(FolderFact(fact, float(v), "trainer_state.json", key))
    entries: list[Row] = []
    if isinstance(history, list):
        for item in history:
            if not isinstance(item, dict) or not isinstance(item.get("step"), int):
                continue
            entries.append({k: v for k, v in item.items() if _scalar(v) or v is None})
    train = [e for e in entries if "loss" in e or "eval_loss" in e]
    if train and folder.record is None:
        folder.record = StepRecord(rel, entries, kind="trainer_state")
    return f"log_history, {len(entries)} entries" + (
        f" to step {state['global_step']}" if isinstance(state.get("global_step"), int) else ""
    )


# ---- Lightning


def _lightning(folder: RunFolder) -> None:
    d = folder.root
    version = d
    if (d / "lightning_logs").is_dir():
        version = _versions(d / "lightning_logs")[0]
    if (version / "hparams.yaml").is_file():
        _hparams(folder, version / "hparams.yaml")
    metrics = version / "metrics.csv"
    if metrics.is_file():
        entries = _metrics_csv(folder, metrics)
        if entries:
            folder.record = StepRecord(_rel(folder, metrics), entries, kind="metrics_csv")
        folder.read.append((_rel(folder, metrics), f"metrics, {len(entries)} steps"))
    _events(folder, version)


def _metrics_csv(folder: RunFolder, p: Path) -> list[Row]:
    """Lightning CSVLogger's metrics.csv: a row per log call, a column per metric ever logged, `step` the
    trainer's global step when it was logged; the rows of one step (train and validation logged apart)
    merged."""
    by_step: dict[int, Row] = {}
    try:
        with io.TextIOWrapper(open_bounded(p, MAX_RECORD_BYTES), encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                step = row.get("step")
                if step is None or not step.strip().lstrip("-").isdigit() or len(step.strip()) > 18:
                    continue  # (more digits than a step counter has: no step)
                # CSVLogger writes trainer.global_step as it was when the metric was logged: the steps done
                # before this one (0 for the first); logparse counts steps from 1
                n = int(step) + 1
                entry = by_step.setdefault(n, {"step": n})
                for k, v in row.items():
                    if k in (None, "step") or v is None or not v.strip():
                        continue
                    try:
                        entry[k] = float(v)
                    except ValueError:
                        continue
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        folder.notes.append(f"{_rel(folder, p)} not read ({type(exc).__name__}: {exc})")
        return []
    except FileRefused as exc:
        folder.notes.append(f"{_rel(folder, p)} not read: {exc.reason}")
        return []
    return [by_step[s] for s in sorted(by_step)]


# ---- TensorBoard


def _tensorboard(folder: RunFolder) -> None:
    _events(folder, folder.root)
    # Lightning's TensorBoardLogger (NeMo's exp dirs too) writes the run's hyperparameters beside its events
    hp = next((p.parent / "hparams.yaml" for p in _files_below(folder.root) if p.name.startswith(EVENTS_PREFIX)
               and (p.parent / "hparams.yaml").is_file()), None)  # fmt: skip
    if hp is not None:
        _hparams(folder, hp)


def _hparams(folder: RunFolder, hp: Path) -> None:
    """Lightning's hparams.yaml (its loggers write it; NeMo's exp dirs too): a flat config, read as facts later."""
    raw = _load_yaml(folder, hp)
    if isinstance(raw, dict):
        folder.configs.append(("hparams.yaml", _flatten(raw)))
    folder.read.append(
        (_rel(folder, hp), f"hyperparameters, {len(raw) if isinstance(raw, dict) else 0} keys")
    )


def _events(folder: RunFolder, d: Path) -> None:
    """TensorBoard event files under `d`: their scalars, through the tensorboard package's own reader;
    without it, a note saying what it would add."""
    files = [p for p in _files_below(d) if p.name.startswith(EVENTS_PREFIX)]
    if not files:
        return
    rels = ", ".join(_rel(folder, p) for p in files[:3]) + (", ..." if len(files) > 3 else "")
    try:
        from tensorboard.backend.event_processing import event_file_loader  # type: ignore[import-not-found]
    except Exception:  # noqa: BLE001 - not installed
        folder.notes.append(
            f"{rels} not read: pip install 'logparse[tensorboard]' reads their scalars (every logged step, "
            "with wall times)"
        )
        return
    # Lightning's TensorBoardLogger (Lightning's own runs, NeMo's) writes hparams.yaml beside its event files and
    # steps them with trainer.global_step as it was when logged, from 0, as its metrics.csv: from 1 here
    lightning = folder.kind == "lightning" or any((p.parent / "hparams.yaml").is_file() for p in files)
    entries = _tb_scalars(event_file_loader, files, offset=1 if lightning else 0)
    if entries is None:
        folder.notes.append(f"{rels} not read (tensorboard's reader failed on them)")
        return
    record = folder.record
    if record is not None and not record.clock and entries:
        # the library's own record numbers the steps; the event files add when each was written
        stamps = {e["step"]: e["wall_time"] for e in entries}
        timed = [e for e in record.entries if e["step"] in stamps]
        for e in timed:
            e["wall_time"] = stamps[e["step"]]
        record.clock = len(timed) == len(record.entries)
        what = f"wall times of {len(timed)} of {record.source}'s {len(record.entries)} entries"
    else:
        what = f"scalars, {len(entries)} steps"
        if entries and record is None:
            folder.record = StepRecord(rels, entries, clock=True, kind="tensorboard")
    for p in files:
        folder.read.append((_rel(folder, p), f"TensorBoard {what}"))


def _tb_scalars(loader: Any, files: list[Path], offset: int = 0) -> list[Row] | None:
    """Every scalar of the event files, by step: {step, wall_time (the step's latest stamp), tag: value}."""
    from tensorboard.util import tensor_util  # type: ignore[import-not-found]

    by_step: dict[int, Row] = {}
    try:
        for p in files:
            for event in loader.EventFileLoader(str(p)).Load():
                if not event.HasField("summary"):
                    continue
                for value in event.summary.value:
                    if value.tag.endswith(VERSUS):
                        continue  # Megatron-LM's `lm loss vs samples`: its step is a sample count, not a step
                    if value.HasField("simple_value"):
                        v = float(value.simple_value)
                    elif value.HasField("tensor"):
                        arr = tensor_util.make_ndarray(value.tensor)
                        if arr.size != 1 or arr.dtype.kind not in "fiu":
                            continue
                        v = float(arr.reshape(-1)[0])
                    else:
                        continue
                    n = int(event.step) + offset
                    entry = by_step.setdefault(n, {"step": n})
                    entry[value.tag] = v
                    entry["wall_time"] = max(float(event.wall_time), entry.get("wall_time", 0.0))
    except Exception:  # noqa: BLE001 - a cut or corrupt file: said, not raised
        return None
    return [by_step[s] for s in sorted(by_step)]


# ---- Megatron-LM's progress log


# megatron/training/utils/log_utils.py append_to_progress_log (:114-136 at d98e8a64): f"{time}\tJob ID: {job_id}\t#
# GPUs: {num_gpus}\t{string}\n", time as "%Y-%m-%d %H:%M:%S"; string "Starting job" (training.py:1605-1606) or
# "Saved checkpoint\tIteration: {iteration}\tJob throughput: ... TFLOP/s/GPU\tCumulative throughput: ..."
# (training.py:3722-3754, after each save)
_PROGRESS_TIME = "%Y-%m-%d %H:%M:%S"


def _progress_path(d: Path) -> Path | None:
    """Megatron-LM writes progress.txt into its --save folder: the run folder itself, or its checkpoints/."""
    for p in (d / "progress.txt", d / "checkpoints" / "progress.txt"):
        if p.is_file():
            return p
    return None


def _counter(text: str) -> bool:
    """Whether `text` is a count as a counter prints it: digits, no more than an int64 has (a longer run of digits
    is no count, and past 4,300 of them int() refuses it)."""
    t = text.strip()
    return t.isdigit() and len(t) <= 18


def _progress_file(folder: RunFolder) -> None:
    """Megatron-LM's `--log-progress` file: each job's start (a restart boundary), each saved checkpoint with
    its iteration, the GPU count."""
    p = _progress_path(folder.root)
    if p is None:
        return
    from datetime import datetime, timezone

    starts = saves = 0
    gpus = None
    try:
        text = read_bounded(p, MAX_RECORD_BYTES).decode("utf-8", errors="replace")
    except OSError as exc:
        folder.notes.append(f"{_rel(folder, p)} not read ({exc.strerror})")
        return
    except FileRefused as exc:
        folder.notes.append(f"{_rel(folder, p)} not read: {exc.reason}")
        return
    for n, line in enumerate(text.splitlines(), start=1):
        parts = line.split("\t")
        if len(parts) < 4:
            continue
        try:
            stamp = (
                datetime.strptime(parts[0].strip(), _PROGRESS_TIME).replace(tzinfo=timezone.utc).timestamp()
            )
        except ValueError:
            continue
        fields = dict(f.split(": ", 1) for f in parts[1:] if ": " in f)
        what = next((f for f in parts[1:] if ": " not in f), "")
        if _counter(fields.get("# GPUs", "")):
            gpus = int(fields["# GPUs"])
        if what == "Starting job":
            folder.events.append({"event": "start", "line": n, "timestamp": stamp, "text": line[:200]})
            starts += 1
        elif what.startswith("Sav") and "checkpoint" in what and _counter(fields.get("Iteration", "")):
            # "Saved checkpoint", "Saving async checkpoint", "Saved async (local) checkpoint" (checkpointing.py)
            folder.events.append(
                {
                    "event": "checkpoint_save",
                    "line": n,
                    "timestamp": stamp,
                    "step": float(fields["Iteration"]),
                    "text": line[:200],
                }  # fmt: skip
            )
            saves += 1
    if gpus is not None:
        folder.facts.append(FolderFact("world_size", gpus, "progress.txt", "# GPUs"))
    said = f"{starts} job start{'s' * (starts != 1)}, {saves} saved checkpoint{'s' * (saves != 1)}"
    folder.read.append((_rel(folder, p), said + (f", {gpus} GPUs" if gpus is not None else "")))
