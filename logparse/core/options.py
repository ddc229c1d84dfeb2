"""What a user can tell logparse about a run: one table of the analysis options (name, kind, limits,
help), from which the CLI's flags, the Python API's keywords and a run folder's logparse.toml keys all
come, and the one check of a value given for them."""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import OptionError, flag
from .facts import Options
from .plausible import OPTION_FACTS, PLAUSIBLE, implausible, range_text
from .schema import DTYPES, FORMULA_NAMES

Given = dict[str, Any]
"""Keywords as the user gave them (CLI flags, API keywords, a run folder's logparse.toml), not yet checked:
open by nature until `options` checks each against OPTIONS."""


@dataclass(frozen=True)
class Option:
    name: str  # the keyword (Options field); the CLI flag is --name with dashes
    kind: str  # int, float, str, choice or paths
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None  # the smallest value allowed
    above: float | None = None  # values must be greater than this
    metavar: str | None = None

    @property
    def annotation(self) -> str:
        """The keyword's type, as a signature shows it."""
        if self.kind == "paths":
            return "str | os.PathLike | list[str | os.PathLike]"
        if self.kind == "choice":
            return f"Literal[{', '.join(map(repr, self.choices))}] | None"
        return f"{self.kind} | None"


OPTIONS: tuple[Option, ...] = (
    Option("gpus", "int", "GPUs (devices) in the job. Default: the log's world size.", minimum=1),
    Option("hw", "str", "Hardware name (see `logparse hw list`), e.g. h100, a100, b200."),
    Option("dtype", "choice", "Compute dtype for the peak. Default: from the log, else bf16.", DTYPES),
    Option("peak_tflops", "float", "Dense peak TFLOPS per GPU, overriding the hardware table.", above=0),
    Option("model", "str", "Model preset (see `logparse models list`)."),
    Option("params", "float", "N for 6N: parameters without the input embedding.", above=0),
    Option("layers", "int", "Transformer layers.", minimum=1),
    Option("hidden", "int", "Hidden size.", minimum=1),
    Option("heads", "int", "Attention heads.", minimum=1),
    Option("kv_heads", "int", "Key/value heads (GQA).", minimum=1),
    Option("ffn_hidden", "int", "MLP hidden size.", minimum=1),
    Option("vocab", "int", "Vocabulary size (padded).", minimum=1),
    Option("experts", "int", "Mixture of experts: routed experts per MoE layer.", minimum=1),
    Option("topk", "int", "Mixture of experts: experts each token is routed to.", minimum=1),
    Option(
        "mlp",
        "choice",
        "MLP kind: gated (SwiGLU, GeGLU: three matrices) or plain (two). Default: the --model preset's, "
        "else the log's (Megatron's swiglu), else plain.",
        ("gated", "plain"),
    ),
    Option("seq_len", "int", "Sequence length. Default: from the log.", minimum=1),
    Option("global_batch", "int", "Samples per optimizer step. Default: from the log.", minimum=1),
    Option(
        "grad_accum",
        "int",
        "Micro-batches per optimizer step, when the log counts micro-batches and does not say.",
        minimum=1,
    ),
    Option(
        "segment",
        "int",
        "Analyze only this segment (see `segments` in summary.json). Default: the file's last run.",
        minimum=0,
    ),
    Option(
        "window",
        "str",
        "Also report over steps A..B (inclusive, the log's own step numbers), as peers do: 35:44.",
        metavar="A:B",
    ),
    Option("last", "int", "Also report over the last N steps.", minimum=1, metavar="N"),
    Option("skip", "int", "Also report over every step after the first N.", minimum=0, metavar="N"),
    Option("recompute", "choice", "Activation recomputation, for HFU.", ("none", "selective", "full")),
    Option(
        "formula",
        "choice",
        "FLOPs formula. Default: palm (6n when only N is known; reported, the framework's own model "
        "TFLOP/s, when the model is unknown and the log prints it).",
        (*FORMULA_NAMES, "reported"),
    ),
    Option(
        "flops_per_token",
        "float",
        "Model FLOPs per token as you count them (a peer's FLOPs per sample / sequence length), "
        "instead of a formula.",
        above=0,
    ),
    Option(
        "flops_per_sample",
        "float",
        "Training FLOPs per sample (image, clip), forward and backward, for a run that counts samples, not "
        "tokens: 3x a forward FLOP count, 6x a multiply-add count (fvcore's, thop's and timm's GMACs). "
        "MFU = X x samples/s per GPU / peak.",
        above=0,
        metavar="X",
    ),
    Option(
        "target_tokens",
        "float",
        "Project the wall time to train this many tokens: a number, or with K, M, B or T (2T = 2e12).",
        above=0,
        metavar="TOKENS",
    ),
    Option(
        "gpu_hour_cost",
        "float",
        "The price of one GPU-hour (any currency): the goodput ledger puts a cost beside its GPU-hours.",
        above=0,
        metavar="PRICE",
    ),
    Option("format", "str", "Force a pattern set instead of detecting it."),
    Option("patterns", "paths", "Extra pattern-set folder (repeatable)."),
    Option(
        "jobs",
        "int",
        "Processes reading a large log (8 MB or more) at once. Default: the machine's cores.",
        minimum=1,
    ),
)
BY_NAME = {o.name: o for o in OPTIONS}
assert set(BY_NAME) == set(Options.__dataclass_fields__) - {"sources"}

_KIND_WORDS = {
    "int": "an integer",
    "float": "a number",
    "str": "a string",
    "paths": "a folder or a list of folders",
}


def expected(option: Option) -> str:
    """What a value of the option must be, in words."""
    if option.kind == "choice":
        return f"one of {', '.join(option.choices)}"
    return _KIND_WORDS[option.kind]


# --target-tokens' suffixes, as token counts are written (Chinchilla's "1.4T tokens"): decimal, not 2**10
TOKEN_SUFFIXES = {"k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}


def token_count(value: Any) -> float:
    """A token count from a number or from text with an optional K/M/B/T suffix (`2T`, `1.5e12`, `300B`);
    ValueError saying what is accepted when the text is neither."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value)
    text = str(value).strip().replace("_", "").replace(",", "")
    scale = TOKEN_SUFFIXES.get(text[-1:].lower(), 1.0) if text else 1.0
    try:
        return float(text[:-1] if scale != 1.0 else text) * scale
    except ValueError:
        raise ValueError(f"{value!r} is not a token count (a number, or with K, M, B or T: 2T)") from None


def convert(option: Option, value: Any) -> Any:
    """The value in the option's own type, or None when it is not of the option's kind (limits unchecked)."""
    kind = option.kind
    if option.name == "target_tokens" and isinstance(value, str):  # "2T" in a logparse.toml or the API
        try:
            return token_count(value)
        except ValueError:
            return None
    if kind == "int":
        ok = isinstance(value, numbers.Integral) and not isinstance(value, bool)
        return int(value) if ok else None
    if kind == "float":
        ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
        return float(value) if ok else None
    if kind == "str":
        return value if isinstance(value, str) else None
    if kind == "choice":
        return value if isinstance(value, str) and value in option.choices else None
    if isinstance(value, (str, os.PathLike)):  # paths: one folder or several (not a mapping's keys)
        return (os.fspath(value),)
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        items = list(value)
        if all(isinstance(v, (str, os.PathLike)) for v in items):
            return tuple(os.fspath(v) for v in items)
    return None


# the largest whole number an option may hold: counts are written to 64-bit integer columns (index.csv's
# Int64, summary.json's integers as other tools read them)
INT_MAX = 2**63 - 1


def out_of_range(option: Option, value: Any) -> str | None:
    """Why a value of the right kind is not allowed, in words that do not repeat it (the caller decides whether to
    show it: the CLI does, a logparse.toml's error never does), or None (only numbers have limits). Every number
    must be finite (an infinite peak would make MFU 0, a NaN price a bare NaN in summary.json), a whole number must
    fit in 64 bits, and an option that states a run fact must be in that fact's plausible range (core/plausible.py:
    a billion GPUs is a typo, not a job)."""
    if option.kind not in ("int", "float"):
        return None
    if not math.isfinite(value):
        return "must be a finite number"
    if option.minimum is not None and value < option.minimum:
        return f"must be at least {option.minimum:g}"
    if option.above is not None and value <= option.above:
        return "must be positive" if option.above == 0 else f"must exceed {option.above:g}"
    fact = OPTION_FACTS.get(option.name)
    if fact is not None and implausible(fact, value) is not None:
        low, high = PLAUSIBLE[fact]
        return f"must be {range_text(max(low, option.minimum or low), high)}"
    if option.kind == "int" and abs(value) > INT_MAX:
        return "is too large"
    return None


def checked(name: str, value: Any) -> Any:
    """A keyword's value checked and in its type: OptionError naming the keyword (or the CLI flag) when
    it is unknown, of the wrong kind or out of range. None passes (not said)."""
    option = BY_NAME.get(name)
    if option is None:
        raise OptionError(f"unknown option {name!r}; the options are: {', '.join(BY_NAME)}")
    if value is None:
        return None
    got = convert(option, value)
    if got is None:
        shown = f"{type(value).__name__} {value!r}" if option.kind != "choice" else repr(value)
        raise OptionError(f"{flag(name)} must be {expected(option)}, not {shown}")
    why = out_of_range(option, got)
    if why is not None:
        raise OptionError(f"{flag(name)} {why} (got {got})")
    return got


def options(given: Given) -> Options:
    """Options from keywords, each checked."""
    return Options(**{k: v for k, v in ((k, checked(k, v)) for k, v in given.items()) if v is not None})


def signature_doc(only: tuple[str, ...] | None = None) -> str:
    """The keywords' documentation, for the API's docstrings."""
    lines = ["Keywords (each is the CLI option of the same name, with `_` for `-`; None = not given):"]
    for o in OPTIONS:
        if only is None or o.name in only:
            lines.append(f"    {o.name} ({o.annotation}): {o.help}")
    return "\n".join(lines)
