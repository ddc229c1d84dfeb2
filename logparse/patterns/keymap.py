"""Key maps: the key model (data, ``logparse/synonyms.toml``) that says what the keys training code prints
mean: a canonical step column or run fact, the unit and scale of the value, and the rule that said so.

A ``[[line]]`` with ``keymap = "builtin"`` (or a path to a table of the same shape, relative to its
pattern file) maps every key its ``key``/``value`` groups or ``pairs`` find that ``fields`` does not
name: ``tok/s`` -> tokens_per_s, ``dt_ms`` -> step_time_s x 0.001, ``mfu 41.2%`` -> 0.412,
``train/lr-pg_0`` -> lr, ``total_loss`` beside ``loss_cls`` -> loss. With ``extra = "x_"`` a step line keeps a
numeric key the table does not know as a column ``x_<key>``.

The rules a key is read by (``KeyMap.lookup``, one key; ``KeyMap.line``, the rules that look at a whole line:
which key is the loss, which parameter group is the learning rate) are named in synonyms.toml; what a key became
and by which rule travels with its column's name as a ``KeyUse`` into summary.json's ``generic`` block.
``KeyMap.read`` answers for one printed key and value, with the line's other keys as its context.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import unicodedata
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import regex

from ..core.bounded import FileRefused, read_bounded
from ..core.errors import PatternError
from ..core.tomlfile import MAX_TOML_BYTES, Table, parse_toml

BUILTIN = Path(__file__).resolve().parent / "synonyms.toml"
UNITS = ("time", "percent", "memory", "count")
TYPES = ("float", "int", "bool")

# a number, optionally with thousands separators, then a unit glued on or after one space
_QUANTITY = regex.compile(
    r"""^\s*['"]?\s*(?P<num>[-+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d*)?|\d{1,3}(?:_\d{3})+(?:\.\d*)?|\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)
    \s*(?P<unit>µs|us|ms|secs?|seconds?|s|mins?|m|hrs?|h|%|[KMGTPkmgtp]i?[Bb]|B|[KMGBT]|百万|千万|十亿|亿|万)?\s*['"]?
    (?:\s*\(\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*(?P=unit)?\s*\))?\s*$""",
    regex.VERBOSE,
)
# a value printed with its total and the unit of both (`5.2/23.7 GiB`: used of the device's memory): the first
_OF_TOTAL = regex.compile(
    r"""^\s*['"]?\s*(?P<num>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*/\s*(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?
    \s*(?P<unit>µs|us|ms|secs?|s|mins?|[KMGTPkmgtp]i?[Bb]|[KMGT])\s*['"]?\s*$""",
    regex.VERBOSE,
)
_NONFINITE = regex.compile(r"^\s*['\"]?\s*(?P<sign>[-+]?)(?P<what>nan|inf(?:inity)?)\s*['\"]?\s*$", regex.I)
# a unit at the end of a key: dt_ms, time(ms), mfu_%, mem_gb, "step time (s)", "Time (mins)"
_KEY_UNIT = regex.compile(
    r"^(?P<base>.+?)(?:_\(?|\()(?P<unit>ms|us|s|sec|secs|seconds?|min|mins|minutes?|h|hrs?|hours?|%|pct|percent|[kmgt]i?b)\)?$"
    r"|^(?P<base>.+?)_?\((?P<unit>[kmgt])\)$"  # peak_mem(M): a one-letter unit only in brackets
)
# the words that name one step, before a time unit in a key (`step_seconds`, `iter_ms`, `batch_time_s` is a time's)
_ONE_STEP = frozenset({"step", "iter", "iteration", "batch", "update"})
# a key between bars is the norm of what it names (`|g|`, `||grad||`): the mathematician's notation
_BARS = regex.compile(r"^(?P<bars>\|{1,2})(?P<inner>[A-Za-z_][\w.]*)(?P=bars)$")
# a bracket after a key that says what it is (`tgs (tokens/gpu/second)`, `train_speed(s/it)`, `loss (avg)`):
# the bracket is looked up as a key, else the key before it
_GLOSS = regex.compile(r"^(?P<base>[^()]+?)[\s_]*\((?P<inner>[^()]+)\)$")
# camelCase words (`MaxMemAllocated`) and dots between words (`Grad. Norm`, `Peak Mem.`)
_CAMEL = regex.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_DOTS = regex.compile(r"\.(?=\s|$)|(?<=[A-Za-z])\.(?=[A-Za-z])")
# a `/` between a setting's words, spaced: `per` (`Tokens / optimizer step : 32,768`)
_SLASH_PER = regex.compile(r"[ \t]+/[ \t]+")
# the words after a setting that say it is the training's (CoreNet's `Max. epochs for training: 2`)
_PURPOSE = regex.compile(
    # (or the model's: liguodongiot/llm-action's pipeline-parallel script logs "Total parameters in model: {n:,}")
    r"[ \t]+(?:for|during|in|of)[ \t]+(?:the[ \t]+)?(?:training|train|run|model)[ \t]*$",
    regex.I,
)
# a key's last word after a separator (`gpu` of tok/sec/gpu, `per device` of samples per device)
_LAST_DEVICE = regex.compile(r"^(?P<rest>.*[A-Za-z/])[\s_\-./]+(?:per[\s_\-]+)?(?P<word>[A-Za-z]+)$")
# the rates a device word after them makes one device's (core/schema.py SCOPED_COLUMNS, scope per_gpu)
_PER_DEVICE = {"tokens_per_s": "tokens_per_s_per_gpu", "samples_per_s": "samples_per_s_per_gpu"}
# a word before a rate that says it is the whole job's (`Global Tokens/s`, `cluster samples/s`): the rate the rest
# names, of every device (linskybing/LLM run/pretrain.py prints f'Global Tokens/s: {tokens_per_sec:.2f}' of the
# tokens all-reduced over the ranks)
_WHOLE_JOB = regex.compile(r"^(?i:global|cluster|aggregate|job|world)[\s_\-]+(?P<rest>[A-Za-z].*)$")
# a namespace before a key (`perf/`, `throughput.`): one word, then the rest
_NAMESPACE = regex.compile(r"^(?P<space>[A-Za-z][A-Za-z_-]*)[/.](?P<rest>[A-Za-z].*)$")
# a word of a key with the separator after it (`gpu-` of peak-gpu-memory, `GPU ` of GPU Max Mem), standing before
# another word: never a key's last word (tok/s/gpu)
_DEVICE_WORD = regex.compile(r"(?<![A-Za-z0-9])(?P<word>[A-Za-z]+)[\s_\-./]+(?=[A-Za-z])")
# a parameter group or a dict's group after a key: lr-pg_0, lr/pg1, lr_group0, lr-AdamW (Lightning's
# LearningRateMonitor: lr-<optimizer>[/pg<N>]), grad_norm/total, grad_norm.model
_GROUP = regex.compile(
    r"^(?P<base>[^-/.]+?)(?:-(?P<tail>[a-z][a-z0-9_]*(?:/[\w.-]+)?)|[/.](?P<tail>[a-z0-9][\w-]*)"
    r"|_(?P<tail>(?:pg|group|param_group)?_?\d+))$"
    # ... or before it: scepter's pg0_lr
    r"|^(?P<tail>(?:pg|group|param_group)_?\d+)_(?P<base>[a-z][\w]*)$"
)
# a learning rate named by the parameter group's module: lr_swin, lr_bert (not lr_0: _GROUP reads numbered ones)
_NAMED_LR = regex.compile(r"lr_[a-z][a-z]+")
# the words of an evaluation's stage, as keys name them (one_stage_apart; a training stage's: TRAIN_WORDS)
_EVALUATION_WORDS = frozenset({"val", "valid", "validation", "eval", "evaluation", "test", "dev"})
_INDEX = regex.compile(r"(\d+)$")
# a whole number as printed (no decimal point, no exponent, no unit)
_WHOLE = regex.compile(r"^\s*['\"]?[-+]?\d[\d,]*['\"]?\s*$")
# a time unit per step as the key (what a value-then-unit pair gives: `2862.9 ms/step`, `0.097s/it`), or a
# bare time unit (`| 12.34 ms |`, llm.c's train_gpt2.py): read as the key `s/<per>` (or `time`) in that unit
# (HiFi-GAN's train.py and its many forks print "s/b : {:4.3f}", time.time() - start_b: seconds per batch)
# The same with the word `time` for its unit, joined by `/` or `per` (karpathy/char-rnn train.lua and
# sherjilozair/char-rnn-tensorflow train.py print "train_loss = %6.8f, ..., time/batch = %.4fs": the batch's seconds,
# the unit after the value or none)
_PER_UNIT = regex.compile(
    r"^(?P<unit>µs|us|ms|s|sec|secs|seconds?|min|time)"
    r"(?:(?:/|_per_)(?P<per>step|it|iter|iteration|batch|b|update))?$"
)
# a key printed with the scale its value is printed in: verl's `lr(1e-4):0.010` is lr = 0.010 x 1e-4
_SCALED = regex.compile(r"^(?P<base>.+?)\s*\(\s*(?P<factor>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*\)$")

CJK_LETTERS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"  # kana, Han, Hangul

# a number: not glued to a word before it (fp16, v2) nor to one by an `@` (a metric at k, `Acc@1`, `recall@10`, is
# one key), a sign only after a separator, units may follow; thousands separators are part of it (22,892 is one
# number), except where a pair of counts fills a bracket (`[3,199][1,445]`: ChangeFormer's '[%d,%d][%d,%d]' of the
# epoch, the last epoch, the batch and the batches), but for one bracket that opens the line, its counter (river's
# progressive_val_score prints `[1,000] Accuracy: 86.59% – ...`). This tokenizer is also the reading that `patterns new`'s (shapes.py)
# sample values come from and that `patterns test` holds every sample to (whole_numbers), independent of the
# regex it writes.
NUMBER_TOKEN = regex.compile(
    rf"(?<![^\W{CJK_LETTERS}])(?<!\.)(?<!\w@)"  # (after a CJK letter too: CJK text spaces no number, `第3轮`)
    r"(?:(?<=^|[\s=:(\[,{|;])[-+])?"
    r"(?:(?!(?<=[\[(])(?:(?<!^[\[(])|(?=\d{1,3},\d{3}[\])][\[(]))\d{1,3},\d{3}[\])])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d|,\d)|\d{1,3}(?:_\d{3})+(?:\.\d+)?(?![\d_])"
    r"|\d+(?:\.\d*)?|\.\d+)"
    r"(?:[eE][-+]?\d+)?(?!\d)"
)

# The unit a value carries where a line prints it after the value, as the generic reading takes it (its `pairs`,
# patterns/generic.toml, spells the same two lists): a word unit glued on or after one space (`12.3ms`,
# `61.2 GB`, `106.07 seconds`: hongzimao/deeprm pg_re_single_core.py `print "Elapsed time\t %s" % t, "seconds"`),
# a one-letter one glued on (`1.2s`, `41%`, `12K`), and nothing of a word after it. `patterns new` (shapes.py)
# reads a line's units with it, so the set it writes converts a value as the generic reading does.
WORD_UNITS = r"ms|us|µs|seconds?|secs?|mins?|[KMGTkmgt]i?[Bb]"
LETTER_UNITS = r"s|m|h|%|[KMGBT]"
# (a letter unit after a blank only where a bracket closes on it: THUwangcy/ReChorus's '[{:<3.1f} s]'; a unit word
# after a blank that a colon or an equals sign follows is the next key: MedicalDataAugmentationTool's
# 'gradient_norm: 681.6187 seconds: 137.668')
UNIT_AFTER = regex.compile(
    rf"^(?:(?P<unit>{WORD_UNITS})|\s(?P<unit>{WORD_UNITS})(?!\s*[:=])|(?P<unit>{LETTER_UNITS})"
    rf"|\s(?P<unit>[smh])(?=[\])]))(?![\w%/]|\.\w)"
)


def number_spans(text: str) -> list[tuple[int, int]]:
    """Where the numbers of a line are, each whole (`22,892`, `1.5e-04`, `-3`), found by the tokenizer alone;
    a trailing dot ends a sentence or a dotted leader (`1000.`, `44......`), not the number."""
    return [(m.start(), m.end() - m.group().endswith(".")) for m in NUMBER_TOKEN.finditer(text)]


TIME = {
    "µs": 1e-6,
    "us": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
    "sec": 1.0,
    "secs": 1.0,
    "second": 1.0,
    "seconds": 1.0,
    "m": 60.0,
    "min": 60.0,
    "mins": 60.0,
    "minute": 60.0,
    "minutes": 60.0,
    "h": 3600.0,
    "hr": 3600.0,
    "hrs": 3600.0,
    "hour": 3600.0,
    "hours": 3600.0,
}
# the units of a time shorter than a minute (a step's own word before one names its time: `step_seconds`, `iter_ms`)
_UNDER_A_MINUTE = frozenset(unit for unit, seconds in TIME.items() if seconds < 60.0)
GIB = 2.0**30
# Bytes per unit; the column is GiB. K/KB, M/MB, G/GB, T/TB are binary: training code that prints them divides by
# 1024 (the sources are cited in synonyms.toml, [rules] memory); a set whose log means 10^9 says so with `scale`.
MEMORY = {
    "b": 1.0,
    "k": 2.0**10,
    "kb": 2.0**10,
    "m": 2.0**20,
    "mb": 2.0**20,
    "g": GIB,
    "gb": GIB,
    "t": 2.0**40,
    "tb": 2.0**40,
    "kib": 2.0**10,
    "mib": 2.0**20,
    "gib": GIB,
    "tib": 2.0**40,
}
# the SI reading, for the keys whose printing code divides by 10**k (synonyms.toml [decimal])
MEMORY_SI = {"b": 1.0, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12}
COUNT = {
    "k": 1e3,
    "m": 1e6,
    "b": 1e9,
    "g": 1e9,
    "t": 1e12,
    # the Chinese counts a number is said in (`28.976 百万`, millions: jingyaogong/minimind's trainers print
    # Logger(f'LLM总参数量：{total / 1e6:.3f} 百万'), copied by many Chinese small-LLM loops)
    "万": 1e4,
    "百万": 1e6,
    "千万": 1e7,
    "亿": 1e8,
    "十亿": 1e9,
}


class UnitError(ValueError):
    """A value whose unit does not fit its column (raised as a malformed value)."""


def _singular(key: str) -> str:
    """A loss word's plural as its singular (`losses` -> `loss`), any other key as it is."""
    return key[:-2] if key.endswith("sses") else key


@functools.lru_cache(maxsize=65_536)  # (printed keys repeat line after line, log after log)
def normalize(key: str) -> str:
    """The form keys are looked up in: lower case, spaces and dashes as underscores, no brackets or
    trailing colon around it ("Grad-Norm:" -> grad_norm, "Tokens per Sec" -> tokens_per_sec); a key written in
    Chinese, Japanese or Korean in the table's words ("当前损失值：" -> current_loss, `english`)."""
    k = english(key).strip().strip("'\"[]{}:=,;|").strip().lower()
    k = regex.sub(r"\s*/\s*", "/", k)  # "Tokens / Sec" (the Annotated Transformer) is tokens/sec
    k = regex.sub(r"[\s-]+", "_", k)
    # a rate per second in another language's word for it: Danish, Norwegian, Swedish and German `sek`
    # (dichev/deep-learning-from-scratch's GPT-2 reproduction logs `tok/sek=56718.7`), Spanish and Portuguese `seg`
    return _SECOND_WORD.sub("sec", k) if "/se" in k else k


_SECOND_WORD = regex.compile(r"(?<=/)(?:sek|seg)(?=$|/)")


# Keys written in Chinese, Japanese or Korean: training loops print them as often as English ones (davidsongtao/
# Medical_QA_System_GPT2 train.py: f"当前Batch：{i}/{n} | 当前epoch:{e}/{E} | 当前损失值：{loss} | 当前准确率：{acc:.2f}%"),
# with no space between the words of a key and full-width punctuation between key and value. Such a key is read
# as the English words of the table's [words] (longest first; a word the table does not know is kept as printed),
# and its full-width punctuation as ASCII, so every rule of the key model reads it as it reads an English key.
_CJK_RUN = regex.compile(f"[{CJK_LETTERS}]+")
FULL_WIDTH = str.maketrans(
    {
        "：": ":",
        "，": ",",
        "；": ";",
        "｜": "|",
        "（": "(",
        "）": ")",
        "【": "[",
        "】": "]",
        "［": "[",
        "］": "]",
    }
    | {"＝": "=", "％": "%", "／": "/", "\u3000": " ", "、": ","}
)
_WORDS: dict[str, str] | None = None  # the builtin table's [words], read on first use
_LONGEST = 1
_SPELLED: regex.Pattern[str] | None = None  # its words in Latin or Cyrillic letters, whole words of a key
_SPELLED_WORDS: dict[str, str] = {}
# letters with a mark (é, ç, ñ, ã, ß aside) read as the letter alone: a key written in Spanish, Portuguese, French
# or German (`loss validación`) reads as the word the table spells without its accent
_MARKED = regex.compile(r"[\u00c0-\u024f]")


def english(text: str) -> str:
    """A key with its CJK words in English (`当前损失值` -> `current loss`), its words in another language the table
    knows too (`loss entrenamiento` -> `loss train`, `Эпоха` -> `epoch`), its letters without their accents and its
    full-width punctuation in ASCII; any other text as it is."""
    if not text.isascii():
        text = _MARKED.sub(_unmarked, text.translate(FULL_WIDTH))
        if _CJK_RUN.search(text) is not None:
            text = _CJK_RUN.sub(_english_run, text)
    spelled = _word_tables()
    return spelled.sub(lambda m: _SPELLED_WORDS[m.group().lower()], text) if spelled.search(text) else text


def _unmarked(m: regex.Match[str]) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", m.group()) if not unicodedata.combining(c))


def _word_tables() -> regex.Pattern[str]:
    """The builtin table's [words], read on first use (its CJK words, _WORDS, and its spelled ones, whose pattern
    this returns)."""
    global _SPELLED, _SPELLED_WORDS, _WORDS, _LONGEST
    if _SPELLED is None:
        _SPELLED = regex.compile("(?!)")  # (while the table loads: its own keys are English)
        table = load(BUILTIN)
        _WORDS, _SPELLED_WORDS = table.words, table.spelled_words
        _LONGEST = max(map(len, _WORDS), default=1)
        alternatives = "|".join(sorted(map(regex.escape, _SPELLED_WORDS), key=len, reverse=True)) or "(?!)"
        _SPELLED = regex.compile(rf"(?i)(?<![^\W\d_])(?:{alternatives})(?![^\W\d_])")
    return _SPELLED


def _english_run(m: regex.Match[str]) -> str:
    if _WORDS is None:
        _word_tables()
    words = _WORDS or {}  # (none while the table itself loads)
    run, out, i, unknown = m.group(), [], 0, ""
    while i < len(run):
        for n in range(min(_LONGEST, len(run) - i), 0, -1):
            word = words.get(run[i : i + n])
            if word is not None:
                break
        else:
            unknown += run[i]
            i += 1
            continue
        if unknown:
            out.append(unknown)
            unknown = ""
        if word:  # (a word the table reads as nothing: a measure word, `值` value)
            out.append(word)
        i += n
    if unknown:
        out.append(unknown)
    text, a, b = m.string, m.start(), m.end()
    before = " " if a > 0 and text[a - 1].isalnum() else ""  # (spaced from an ASCII word it is glued to only)
    after = " " if b < len(text) and text[b].isalnum() else ""
    return f"{before}{' '.join(out)}{after}"


def scaled_key(key: str) -> tuple[str, float]:
    """(base key, factor) of a key that names the scale of its value: 'lr(1e-4)' -> ('lr', 1e-4); any other
    key -> (key, 1.0). A unit in brackets (`time(ms)`) is not a scale."""
    m = _SCALED.match(key.strip())
    if m is None:
        return key, 1.0
    factor = float(m.group("factor"))
    return (m.group("base"), factor) if factor not in (0.0, 1.0) else (key, 1.0)


def column_name(prefix: str, key: str, unit: str | None = None) -> str:
    """The column a kept (unknown) key fills: x_<key>, with any unit it carried."""
    base = regex.sub(r"[^a-z0-9]+", "_", normalize(key)).strip("_") or "value"
    if unit:
        base += "_" + regex.sub(r"[^a-z0-9]+", "pct" if unit == "%" else "_", unit.lower()).strip("_")
    return prefix + base


def split_quantity(text: str) -> tuple[float, str | None]:
    """(number, unit) of a printed value: '12.3ms' -> (12.3, 'ms'), '123,456' -> (123456.0, None)."""
    m = _QUANTITY.match(text) or _OF_TOTAL.match(text)
    if m is None:
        n = _NONFINITE.match(text)
        if n is None:
            raise ValueError(f"not a number: {text!r}")
        v = math.nan if n.group("what").lower() == "nan" else math.inf
        return (-v if n.group("sign") == "-" else v), None
    return float(m.group("num").replace(",", "")), m.group("unit")


def to_quantity(text: str, units: str | None, key_unit: str | None = None) -> float:
    """The canonical value of a printed quantity: seconds, fractions, GiB, plain counts."""
    return _to_quantity(text, units, key_unit)[0]


def _to_quantity(text: str, units: str | None, key_unit: str | None = None) -> tuple[float, str | None]:
    """(to_quantity's value, the unit the text printed)."""
    try:
        value, unit = float(text), None  # the common case, fast
    except ValueError:
        value, unit = split_quantity(text)
    u = unit or key_unit
    if units == "time":
        if u is None:
            return value, unit
        scale = TIME.get(u) or TIME.get(u.lower())
        if scale is None:
            raise UnitError(f"{text!r} is not a duration")
        return value * scale, unit
    if units == "percent":
        if u in ("%", "pct", "percent"):
            return value * 0.01, unit
        if u is not None:
            raise UnitError(f"{text!r} is not a percentage or fraction")
        return (value * 0.01 if value > 1 else value), unit  # a bare number above 1 is a percentage
    if units in ("memory", "memory_si"):
        if u is None:
            return value, unit  # GiB unless the value or the key says otherwise
        per = (MEMORY_SI if units == "memory_si" else MEMORY).get(u.lower()) or MEMORY.get(u.lower())
        if per is None:
            raise UnitError(f"{text!r} is not an amount of memory")
        return value * per / GIB, unit
    if u is not None:
        per = COUNT.get(u.lower()) if units == "count" else None
        if per is None:
            raise UnitError(f"unexpected unit in {text!r}")
        return value * per, unit
    return value, unit


# The rules a key is read by, as summary.json's generic block names them (synonyms.toml says each in words).
RULES = (
    "name",  # one of a table's keys
    "scale",  # the key names the scale of its value: lr(1e-4)
    "unit",  # the key names its value's unit: dt_ms, time (ms), memory(GiB), peak_mem(M)
    "gloss",  # a bracket after the key says what it is: tgs (tokens/gpu/second), train_speed(s/it)
    "spelling",  # camelCase or dots: MaxMemAllocated, Grad. Norm
    "bars",  # a key between bars is the norm of what it names: |g|, ||grad||
    "units",  # a key spelled in units names their quantity: tok/gpu/s, s/stp
    "device",  # a device word says where (GPU Max Mem) or whose rate (tok/s/gpu) it is
    "scope",  # a word before a rate says it is the whole job's: Global Tokens/s
    "beside",  # a rate of no scope beside the whole job's on its line is one device's: Tokens per second
    "prefix",  # the training step's namespace before it: train/grad_norm, train_lr, metrics/loss
    "suffix",  # the step's own value after it: Lightning's loss_step (self.log(..., on_step=True, on_epoch=True))
    "group",  # a parameter group or a dict's one group after it: lr-pg_0, lr/pg1, grad_norm/total
    "eval",  # an evaluation's namespace before a loss name: val/lm_loss
    "known",  # a quantity with no step column, kept under a fixed name in its canonical unit: data_time
    "loss",  # which key of a line is the loss when none is named so ([loss])
    "values",  # read by what it prints: a time rising line after line a clock, else the step's (the longest of
    # several the step's); the one item of a printed list holding steady below 1 the learning rate
    "kept",  # any other numeric key of a step line: x_<key>
    "skipped",  # said, not read ([skip], [ignore]), or its column given already by another key of the line
)


@dataclass(frozen=True)
class Mapping:
    """Where one printed key goes, and by which rule."""

    column: str
    kind: str  # "step" (a step column), "config" (a run fact) or "known" (an x_ column of a known quantity)
    units: str | None = None
    type: str = "float"
    key_unit: str | None = None  # a unit the key itself names (dt_ms, mem_gb, mfu_%)
    invert: bool = False  # the key is a rate whose inverse is the column (`1.2 it/s` -> 0.833 s a step)
    factor: float = 1.0  # the scale the key names (`lr(1e-4)`)
    rule: str = "name"  # the rules that read the key, outermost first, joined by "+" (RULES)
    via: str = ""  # what those rules read, in words ("train/ stripped; pg_0, the first parameter group's")

    def convert(self, text: str) -> Any:
        return self.convert_unit(text)[0]

    def convert_unit(self, text: str) -> tuple[Any, str | None]:
        """(the column's value, the unit the value printed) of a printed value."""
        t = text.strip().strip("'\"`")  # (quoted as a string, or in backticks as Markdown prints code)
        if t in ("None", "null", "", "N/A", "n/a", "-"):
            return None, None
        if self.type == "bool":
            low = t.lower()
            if low in ("true", "1", "yes", "on"):
                return True, None
            if low in ("false", "0", "no", "off"):
                return False, None
            raise ValueError(f"not a boolean: {text!r}")
        value, unit = _to_quantity(t, self.units, None if self.invert else self.key_unit)
        if self.invert:
            value = 1.0 / value if value else math.nan
        value *= self.factor
        if self.type == "int":
            if not math.isfinite(value) or abs(value - round(value)) > 1e-9 * max(1.0, abs(value)):
                raise ValueError(f"not an integer: {text!r}")
            return int(round(value)), unit
        return value, unit

    def for_value(self, text: str) -> Mapping:
        """The mapping a printed value is read by: a bare whole number on a memory column is MiB (mmengine's
        `memory: 7657`, torchvision's MetricLogger `max mem: 5004`: both print the integer count of 1024**2
        bytes); so is a bare number of 1024 or more however printed (I-JEPA's train.py logs `[mem: %.2e]` of
        max_memory_allocated() / 1024.**2: `4.92e+04`; as GiB it would be 48 TiB, more than any device holds); a
        smaller bare decimal stays GiB. Any other value: this mapping."""
        if self.units != "memory" or self.key_unit is not None:
            return self
        if _WHOLE.match(text) is None and not _at_least_a_tib(text):
            return self
        return _bare_mib(self)

    def kept_as(self, extra: str) -> Mapping:
        """A known quantity's mapping on a line that keeps extra columns as `extra`<name> (cached)."""
        key = (id(self), extra)
        hit = _KEPT_AS.get(key)
        if hit is None or hit[0] is not self:
            hit = _KEPT_AS[key] = (self, replace(self, column=extra + self.column))
        return hit[1]

    def use(self, unit: str | None) -> KeyUse:
        """What the key became, for a value printed with `unit` (cached: a line's keys repeat)."""
        key = (id(self), unit)
        hit = _USES.get(key)
        if hit is None or hit[0] is not self:
            if len(_USES) > 100_000:
                _USES.clear()
            hit = _USES[key] = (self, _describe(self, unit))
        return hit[1]


_USES: dict[tuple[int, str | None], tuple[Mapping, KeyUse]] = {}
_BARE: dict[int, tuple[Mapping, Mapping]] = {}
_KEPT_AS: dict[tuple[int, str], tuple[Mapping, Mapping]] = {}


def _at_least_a_tib(text: str) -> bool:
    """Whether a bare memory figure (no unit printed) read as GiB would be a TiB or more."""
    try:
        value, unit = split_quantity(text)
    except ValueError:
        return False
    return unit is None and value >= 1024


def _bare_mib(m: Mapping) -> Mapping:
    hit = _BARE.get(id(m))
    if hit is None or hit[0] is not m:
        via = "; ".join(
            v for v in (m.via, "a bare whole number, or one of 1024 or more: MiB (rules.memory)") if v
        )
        hit = _BARE[id(m)] = (m, replace(m, key_unit="mib", via=via))
    return hit[1]


_VALUE_WORD = regex.compile(r"(?i)^(?P<rest>.*[A-Za-z].*?)[ _-]values?$")
# why a loss-like key is no loss of the training step's: its words name an evaluation
EVALUATION_LOSS = "an evaluation's loss, not the training step's"
# why a loss-like key was kept where several are printed and none is their total
LOSS_UNDECIDED = "the loss the code optimizes is not printed"


class KeyUse(str):
    """What one printed key became: the column's (or fact's) name is the str itself; `rule` and `why` say how,
    `unit` is the unit the value printed or the key named, `scale` the factor from the printed number to the
    column's value (None where it is not one factor: an inverted rate, a bare percentage). A str, so the
    summary's `mapped`/`kept` write only the name; pickled whole (the parallel reader's workers)."""

    rule: str
    why: str
    unit: str | None
    scale: float | None

    def __new__(
        cls, column: str, rule: str, why: str = "", unit: str | None = None, scale: float | None = 1.0
    ) -> KeyUse:
        self = super().__new__(cls, column)
        self.rule, self.why, self.unit, self.scale = rule, why, unit, scale
        return self

    def __getnewargs__(self) -> tuple[str, str, str, str | None, float | None]:
        return (str(self), self.rule, self.why, self.unit, self.scale)

    def __repr__(self) -> str:
        return f"KeyUse({str.__repr__(self)}, {self.rule!r})"


def _scale_of(m: Mapping, unit: str | None) -> float | None:
    """The factor from a number printed in `unit` (or the key's) to the column's value; None when the
    conversion is not one factor."""
    if m.invert:
        return None
    u = unit or m.key_unit
    if m.units == "time":
        per = 1.0 if u is None else (TIME.get(u) or TIME.get(u.lower()))
    elif m.units == "percent":
        per = 0.01 if u in ("%", "pct", "percent") else None  # bare: a value above 1 is a percentage
    elif m.units in ("memory", "memory_si"):
        table = MEMORY_SI if m.units == "memory_si" else MEMORY
        per = 1.0 if u is None else (None if table.get(u.lower()) is None else table[u.lower()] / GIB)
    elif m.units == "count" and u is not None:
        per = COUNT.get(u.lower())
    else:
        per = 1.0
    return None if per is None else per * m.factor


def _describe(m: Mapping, unit: str | None) -> KeyUse:
    u = unit or m.key_unit
    why = [m.via] if m.via else [_RULE_WORDS.get(m.rule.split("+")[-1], m.rule)]
    if m.units == "memory" and u is not None and u.lower() in ("k", "kb", "m", "mb", "g", "gb", "t", "tb"):
        why.append(f"{u} read as {u[0].upper()}iB (binary: see rules.memory)")
    if m.units == "memory_si" and u is not None and u.lower() in MEMORY_SI:
        why.append(f"{u} read as 10**{round(math.log10(MEMORY_SI[u.lower()]))} bytes")
    if m.invert:
        why.append("a rate: the column is its inverse")
    if m.units == "percent" and u is None:
        why.append("a bare value above 1 is a percentage")
    return KeyUse(m.column, m.rule, "; ".join(why), u, _scale_of(m, unit))


_RULE_WORDS = {
    "name": "a name in the synonym table",
    "scale": "the key names the scale of its value",
    "unit": "the key names its unit",
    "gloss": "the bracket after the key says what it is",
    "spelling": "read with its words apart",
    "bars": "a key between bars is the norm of what it names",
    "prefix": "the training step's prefix stripped",
    "suffix": "the step's own value (a suffix stripped)",
    "group": "a group of the quantity",
    "eval": "an evaluation's loss",
    "known": "a known quantity with no step column",
    "loss": "the line's loss by the loss rule (see rules.loss)",
    "interval": "the time of the whole log interval ([interval])",
    "units": "a key spelled in units names their quantity ([units])",
}


@dataclass(frozen=True)
class LineKeys:
    """What the key model makes of one line's keys together: the mapped ones, and why the others are kept as x_
    columns or skipped (KeyMap.line)."""

    mapped: dict[str, Mapping]
    kept: dict[str, tuple[str, str]]  # printed key -> (the rule, why) it is kept rather than mapped
    skipped: dict[str, str]  # printed key -> why it is not read


@dataclass(frozen=True)
class Meaning:
    """KeyMap.read's answer for one printed key and value: the column (a step column, a fact, an x_ column, or
    None when the key is skipped or its value is no number), how to convert a printed value to it, and why."""

    key: str
    column: str | None
    kind: str  # "column", "fact", "kept" or "skipped"
    use: KeyUse
    mapping: Mapping | None = None
    factor: float = 1.0  # a kept key's scale (`kl(1e-3)`)

    @property
    def noted(self) -> tuple[str, str, KeyUse]:
        """The note the frame keeps of this key (sets.LineSpec.key_uses): (its group in ParsedLog.keymap, the
        key as printed, what it became)."""
        group = {"column": "mapped", "fact": "facts"}.get(self.kind, self.kind)
        return group, self.key.strip(), self.use

    def convert(self, text: str) -> Any:
        """The column's value of a printed value (ValueError when it is no number, UnitError when its unit
        does not fit the column)."""
        if self.mapping is not None:
            return self.mapping.for_value(text).convert(text)
        return split_quantity(text)[0] * self.factor


@dataclass
class LossRule:
    """Which key of a step line is the loss when none is named so: the data of synonyms.toml's [loss]."""

    words: frozenset[str] = frozenset()  # a key is loss-like when one of its words is one of these,
    total: frozenset[str] = frozenset()  # the total of the line's losses when it also has one of these,
    unlike: frozenset[str] = frozenset()  # and no loss when it has one of these (loss_scale, loss_weight)
    auxiliary: frozenset[str] = frozenset()  # a term added to the objective (load balancing, z-loss), not it
    running: frozenset[str] = frozenset()  # a statistic over earlier steps of the same loss (average, mean)


@dataclass
class KeyMap:
    """The key model: normalized key -> Mapping, per line kind, and the rules around the names."""

    source: str
    step: dict[str, Mapping] = field(default_factory=dict)
    config: dict[str, Mapping] = field(default_factory=dict)
    ignore: frozenset[str] = frozenset()
    inverse: dict[str, Mapping] = field(default_factory=dict)  # rates whose inverse is a step column
    known: dict[str, Mapping] = field(default_factory=dict)  # quantities with no step column (x_<name>)
    skip: dict[str, str] = field(default_factory=dict)  # normalized key -> why it is not read
    train_prefixes: tuple[str, ...] = ()
    eval_prefixes: tuple[str, ...] = ()
    step_suffixes: tuple[str, ...] = ()  # the step's own value after the key: Lightning's loss_step
    namespaces: tuple[str, ...] = ()  # a word joined by `_` that groups metrics: throughput_samples_per_sec
    phrase_unlike: frozenset[str] = frozenset()  # a word before a fact's name that makes it another's
    device_words: frozenset[str] = frozenset()  # the device a memory figure is measured on (`gpu`, `cuda`)
    decimal: frozenset[str] = frozenset()  # memory keys whose printing code divides by 10**k
    decimal_why: str = ""
    # memory keys SI on a known printer's line: (key, the line's other keys that name the printer, why)
    decimal_printers: tuple[tuple[str, frozenset[str], str], ...] = ()
    interval: frozenset[str] = frozenset()  # step-time keys whose value covers the steps since the last print
    interval_why: str = ""
    unit_words: dict[str, str] = field(default_factory=dict)  # a unit key's abbreviations -> the table's word
    units_why: str = ""
    group_first: frozenset[str] = frozenset()  # columns a group gives: the first group of several
    group_only: frozenset[str] = frozenset()  # ... only when it is the line's one group (or its total)
    group_total: frozenset[str] = frozenset()
    group_unlike: frozenset[str] = frozenset()  # a word that makes the tail no group (lr-SGD/momentum)
    loss: LossRule = field(default_factory=LossRule)
    eval_metrics: frozenset[str] = frozenset()  # words that name an evaluation's metric ([evaluation])
    rules: dict[str, str] = field(default_factory=dict)  # rule -> its statement, for the summary
    words: dict[str, str] = field(default_factory=dict)  # a CJK word -> its English words ([words])
    # a word in Latin or Cyrillic letters -> its English words ([words])
    spelled_words: dict[str, str] = field(default_factory=dict)
    _seen: dict[tuple[str, bool], Mapping | None] = field(default_factory=dict, repr=False)
    _ignored: dict[str, bool] = field(default_factory=dict, repr=False)
    _lines: dict[tuple[tuple[str, ...], bool], LineKeys] = field(default_factory=dict, repr=False)
    _joined: dict[str, str] | None = field(default=None, repr=False)

    def lookup(self, key: str, kind: str) -> Mapping | None:
        """The mapping of a printed key for a step (or progress/event) line or a config line, by the rules that
        read one key (the line's rules: `line`)."""
        config = kind in ("config", "summary")
        try:
            return self._seen[(key, config)]
        except KeyError:
            pass
        # a capital letter alone is the printer's own abbreviation, no unit: YOLACT's train.py prints its losses as
        # ' B: %.3f | C: %.3f | M: %.3f | S: %.3f | T: %.3f' (box, class, mask, semantic, total), S no seconds
        found = None if _CAPITAL.fullmatch(key.strip()) else self._lookup(english(key), config, 0)
        if found is not None and found.units == "memory" and normalize(key) in self.decimal:
            found = replace(
                found, units="memory_si", via="; ".join(v for v in (found.via, self.decimal_why) if v)
            )
        if len(self._seen) < 100_000:  # printed keys repeat line after line
            self._seen[(key, config)] = found
        return found

    def _evaluation_mean(self, k: str, depth: int) -> Mapping | None:
        """An evaluation's loss named with the statistic it is over the evaluated batches (`eval mean loss`,
        `val_avg_loss`, `avg val loss`): an evaluation's loss is always such a mean, the word says nothing more
        (a distillation demo's "eval mean loss: %f" beside its "mean loss: %f", tf.logging-era loops)."""
        words = k.split("_")
        kept = [w for w in words if w not in self.loss.running]
        if len(kept) == len(words) or len(kept) < 2 or not set(kept) & STAGE_WORDS - TRAIN_WORDS:
            return None
        hit = self._lookup("_".join(kept), False, depth + 1)
        if hit is None or hit.column != "eval_loss":
            hit = self._lookup("_".join(sorted(kept, key=lambda w: w not in STAGE_WORDS)), False, depth + 1)
        if hit is None or hit.column != "eval_loss":
            return None
        return _ruled(hit, "spelling", f"{k}: the evaluation's loss, a mean over its batches as every one is")

    def _lookup(self, key: str, config: bool, depth: int) -> Mapping | None:
        base, factor = scaled_key(key)
        if factor != 1.0:
            hit = self._lookup(base, config, depth + 1)
            return (
                None
                if hit is None
                else _ruled(
                    replace(hit, factor=hit.factor * factor), "scale", f"printed in units of {factor:g}"
                )
            )
        k = normalize(key)
        hit = self._named(k, config)
        if hit is not None or depth > 3:
            return hit
        counted = _NUMBER_OF.match(k)
        if counted is not None:
            # `Number of training steps`, `number of epochs`, `nb_epochs`: the count a `num_` key names
            # (num_train_steps)
            hit = self._lookup("num_" + _TRAINING.sub("train", counted.group("what")), config, depth + 1)
            if hit is not None:
                return _ruled(hit, "spelling", f"{key.strip()}: the count of {counted.group('what')}")
        bars = _BARS.match(key.strip())
        if bars is not None and not config:
            hit = self._lookup(f"{bars.group('inner')}_norm", config, depth + 1)
            if hit is not None:
                return _ruled(hit, "bars", f"{key.strip()}: the norm of {bars.group('inner')}")
        m = _GLOSS.match(key.strip())
        if m is not None:
            # `(t)` names a time: open_clip's "Batch (t)" and "Data (t)" are the batch's and the data's seconds
            inner = m.group("inner").strip().lower()
            timed = (f"{m.group('base')}_time",) if inner in _TIME_GLOSS else ()
            # `(val)` says whose the base is, not what: `loss(val)` is val_loss, `Epoch(val)` an epoch
            parts = (f"{inner}_{m.group('base')}",) if inner in STAGE_WORDS else (m.group("inner"), *timed)
            for part in (*parts, m.group("base")):
                hit = self._lookup(part, config, depth + 1)
                if hit is not None:
                    return _ruled(hit, "gloss", f"the bracket ({m.group('inner').strip()}) says what it is")
        if not config:
            hit = self._around(key, k, depth)
            if hit is not None:
                return hit
            hit = self._evaluation_mean(k, depth)
            if hit is not None:
                return hit
        else:
            hit = self._phrase(key, depth)
            if hit is not None:
                return hit
            hit = self._other_number(k)
            if hit is not None:
                return hit
            if _SLASH_PER.search(key):  # `Tokens / optimizer step`: tokens per optimizer step
                hit = self._lookup(_SLASH_PER.sub(" per ", key), config, depth + 1)
                if hit is not None:
                    return _ruled(hit, "spelling", "read with its `/` as `per`")
            purpose = _PURPOSE.search(key)
            if purpose is not None and purpose.start() > 0:
                hit = self._lookup(key[: purpose.start()], config, depth + 1)
                if hit is not None:
                    return _ruled(hit, "phrase", f"{purpose.group(0).strip()!r} says whose setting it is")
        loose = _DOTS.sub(" ", _CAMEL.sub("_", key)).strip()
        if normalize(loose) != k:
            hit = self._lookup(loose, config, depth + 1)
            if hit is not None:
                return _ruled(hit, "spelling", f"read as {normalize(loose)}")
        if not config:
            name = self._joined_names().get(k)
            if name is not None:
                return _ruled(self.step[name], "spelling", f"read as {name}")
            if k in self.known:  # (a known quantity's own name before the rules that read a key's words)
                return self.known[k]
            hit = (
                self._on_device(key, depth)
                or self._per_device(key, depth)
                or self._whole_job(key, depth)
                or self._count_scaled(k, depth)
            )
            if hit is not None:
                return hit
            hit = self._valued(key, depth)
            if hit is not None:
                return hit
        return None if config else self.known.get(k)

    def _valued(self, key: str, depth: int) -> Mapping | None:
        """A key that ends in the word `value` (`Lr_value`, `loss_value`): the quantity the rest names, the word
        saying only that a number follows (3D-Speaker's trainers print 'train Avg_loss: ..., train Lr_value: ...')."""
        m = _VALUE_WORD.match(key.strip())
        if m is None:
            return None
        hit = self._lookup(m.group("rest"), False, depth + 1)
        return None if hit is None else _ruled(hit, "spelling", f"read as {normalize(m.group('rest'))}")

    def _count_scaled(self, k: str, depth: int) -> Mapping | None:
        """A rate key led by the letter of the scale it is printed in (`mtps`, `ktok/s`, `Mtokens/s`): the rate the
        rest names, times a thousand (k), a million (m) or a billion (g) (saforem2/ezpz's trainers print `mtps`,
        tokens per second in millions). Only a count's rate: `ms` is no mega-second."""
        scale = COUNT.get(k[:1]) if k[:1] in _RATE_SCALES else None
        if scale is None or len(k) < 4:
            return None
        hit = self._lookup(k[1:], False, depth + 1)
        if hit is None or hit.column not in _SCALED_RATES:
            return None
        return _ruled(
            replace(hit, factor=hit.factor * scale),
            "scale",
            f"read as {k[1:]} in units of {scale:g}: its first letter",
        )

    def _on_device(self, key: str, depth: int) -> Mapping | None:
        """A memory key that names the device it is measured on among its words (`peak-gpu-memory`, `GPU Max Mem`,
        `cuda_max_memory_allocated`): the device says where, not what; read without it. Only a memory column: a
        device word after a rate (`tok/s/gpu`) makes it another quantity."""
        if not self.device_words:
            return None
        rest = _DEVICE_WORD.sub(
            lambda m: "" if m.group("word").lower() in self.device_words else m.group(0), key
        ).strip(" _-./")
        if not rest or rest == key.strip():
            return None
        hit = self._lookup(rest, False, depth + 1)
        if hit is None or hit.units != "memory":
            return None
        return _ruled(hit, "device", f"read as {normalize(rest)}: the device word names where it is measured")

    def _per_device(self, key: str, depth: int) -> Mapping | None:
        """A rate whose last word is a device (`tok/sec/gpu`, `samples per device`, `tokens_per_s_gpu`): the rate of
        one device, the per-GPU scope of the rate the rest of the key names."""
        m = _LAST_DEVICE.match(key.strip())
        if m is None or m.group("word").lower() not in self.device_words:
            return None
        hit = self._lookup(m.group("rest"), False, depth + 1)
        if hit is None or hit.column not in _PER_DEVICE:
            return None
        return _ruled(
            replace(hit, column=_PER_DEVICE[hit.column]),
            "device",
            f"read as {normalize(m.group('rest'))} of one {m.group('word').lower()}: the device word after the rate",
        )

    def _whole_job(self, key: str, depth: int) -> Mapping | None:
        """A rate led by a word that says it is the whole job's (`Global Tokens/s`): the rate the rest names, as a
        rate of all devices is read; only a rate (`global_step` is no step of another kind)."""
        m = _WHOLE_JOB.match(key.strip())
        if m is None:
            return None
        hit = self._lookup(m.group("rest"), False, depth + 1)
        if hit is None or hit.column not in _PER_DEVICE:
            return None
        return _ruled(
            hit, "scope", f"read as {normalize(m.group('rest'))}: the word before it says all devices'"
        )

    def _joined_names(self) -> dict[str, str]:
        """The step table's names of several words written as one (`gpumem` for gpu_mem: NVlabs/stylegan2-ada
        training/training_loop.py prints f"gpumem {...:<5.1f}"), where the names so written agree on the column; a word
        of one letter (`tok_s`) is too short to be told apart once glued (`toks`)."""
        if self._joined is None:
            joined: dict[str, str | None] = {}
            for name in self.step:
                words = name.split("_")
                if len(words) > 1 and "/" not in name and min(map(len, words)) > 1:
                    glued = "".join(words)
                    same = joined.get(glued, name)
                    agree = same is not None and self.step[same].column == self.step[name].column
                    joined[glued] = name if agree else None
            self._joined = {g: n for g, n in joined.items() if n is not None and g not in self.step}
        return self._joined

    def _phrase(self, key: str, depth: int) -> Mapping | None:
        """A fact's name at the end of a sentence's words (`Distributed world size`, `effective global batch size`):
        the longest tail of two words or more that the table names (one word alone, `epochs` of `warmup epochs`,
        says too little), unless a word left out makes it another quantity's ([prefixes] phrase_unlike: `eval
        sequence length`, `warmup steps`)."""
        if _SLASH_PER.search(key):
            return None  # (`Tokens / micro-batch`: a count per micro-batch, not the micro-batch's size)
        words = key.split()
        for start in range(1, len(words)):
            if _words(words[start - 1]) & self.phrase_unlike:
                return None
            tail = " ".join(words[start:])
            if "_" not in normalize(tail):
                return None
            hit = self._named(normalize(tail), True)
            if hit is not None:
                return _ruled(hit, "phrase", f"the last words {tail!r} name it")
        return None

    def _other_number(self, k: str) -> Mapping | None:
        """A setting named in the singular where the table has the plural, or the other way round (insightface's
        config dump prints `total_step 3318320`, the table knows `total_steps`)."""
        head, _, last = k.rpartition("_")
        if len(last) < 3 or not last.isalpha():
            return None
        other = last[:-1] if last.endswith("s") and not last.endswith("ss") else last + "s"
        name = f"{head}_{other}" if head else other
        if "_" not in name:
            return None  # (one word alone, `epoch` or `layers`, says too little)
        hit = self._named(name, True)
        return None if hit is None else _ruled(hit, "spelling", f"read as {name}")

    def _around(self, key: str, k: str, depth: int) -> Mapping | None:
        """A step key read through what is around its name: a prefix, an evaluation's prefix, a group after it."""
        raw = key.strip()
        for prefix in self.train_prefixes:
            if k.startswith(prefix) and len(k) > len(prefix):
                # the rest as printed where the prefix is (a dash in it may name a group: train/lr-AdamW)
                rest = raw[len(prefix) :] if raw.lower().startswith(prefix) else k[len(prefix) :]
                hit = self._lookup(rest, False, depth + 1)
                if hit is not None:
                    return _ruled(hit, "prefix", f"the training step's prefix {prefix} stripped")
        for suffix in self.step_suffixes:
            if k.endswith(suffix) and len(k) > len(suffix):
                hit = self._lookup(
                    raw[: -len(suffix)] if raw.lower().endswith(suffix) else k[: -len(suffix)],
                    False,
                    depth + 1,
                )
                if hit is not None:
                    return _ruled(hit, "suffix", f"the step's own value ({suffix} stripped)")
        for prefix in self.eval_prefixes:
            if k.startswith(prefix) and self.step.get(k[len(prefix) :], _NONE).column == "loss":
                return Mapping(
                    "eval_loss",
                    "step",
                    rule="eval",
                    via=f"an evaluation's loss ({prefix} before a loss name)",
                )
        parts = _group_parts(key)
        if parts is not None:
            hit = self._lookup(parts[0], False, depth + 1)
            if (
                hit is not None
                and hit.column in self.group_first | self.group_only
                and not _words(parts[1]) & self.group_unlike
            ):
                return _ruled(hit, "group", f"the group {parts[1]} of {hit.column}")
        return self._namespaced(raw, depth)

    def _namespaced(self, raw: str, depth: int) -> Mapping | None:
        """A name of the table under a namespace that groups metrics (`perf/max_memory_allocated_gb`,
        `throughput/samples_per_sec`, `throughput.tokens_per_sec`): the namespace says where it is logged, not
        what it is, unless its words make it another quantity's (an evaluation's, a device's or a node's share,
        another model's: [prefixes] phrase_unlike and device). A loss under a namespace is the loss rule's to judge
        (critic/vf_loss is another model's), never read here."""
        m = _NAMESPACE.match(raw)
        if m is not None:
            space, rest, sep = m.group("space"), m.group("rest"), "/"
        else:
            # (or joined by `_`: [prefixes] namespace, `throughput_samples_per_sec`)
            joined = next(
                (p for p in self.namespaces if raw.lower().startswith(p) and len(raw) > len(p)), None
            )
            if joined is None:
                return None
            space, rest, sep = raw[: len(joined) - 1], raw[len(joined) :], joined[-1]
        if _words(space) & (self.phrase_unlike | self.device_words | EVAL_WORDS):
            return None
        hit = self._lookup(rest, False, depth + 1)
        if hit is None or hit.column in ("loss", "eval_loss"):
            return None
        if hit.rule == "unit" and rest.strip().lower() == (hit.key_unit or "").lower():
            # a unit alone after the slash is a rate's denominator (nerfstudio's `Train Rays / Sec`: rays per
            # second), no name under a namespace
            return None
        return _ruled(
            hit, "namespace", f"under the namespace {space}{sep}: where it is logged, not what it is"
        )

    def _named(self, k: str, config: bool) -> Mapping | None:
        """The rules of the names: a table's key, a rate's inverse, a time unit per step, a unit in the key."""
        table = self.config if config else self.step
        hit = table.get(k)
        if hit is not None:
            return hit
        if not config:
            if k in self.inverse:
                return self.inverse[k]
            if k in self.interval and table.get("time") is not None:
                # (its value is per step once divided by the steps of the interval: infer.py does it)
                why = self.interval_why or f"{k}: the interval's time"
                return replace(table["time"], rule="interval", via=why)
            spelled = self._unit_key(k)
            if spelled is None and "_per_" in k:
                # units joined by the word: `tok_per_s` is tok/s, `tokens_per_gpu_per_s` tokens/s/gpu
                per = k.replace("_per_", "/")
                spelled = per if per in table else self._unit_key(per)
            if spelled is not None and spelled in table:
                return _ruled(table[spelled], "units", f"{k}: read as {spelled}")
            m = _PER_UNIT.match(k)
            if m is not None:
                per = {"b": "batch"}.get(m.group("per"), m.group("per"))
                hit = table.get(f"s/{per}", table.get("s/step")) if per else table.get("time")
                if hit is not None and hit.units == "time":
                    unit = m.group("unit")
                    return replace(
                        hit,
                        key_unit=None if unit == "time" else unit,
                        rule="unit",
                        via=f"{k}: a time per step",
                    )
        m = _KEY_UNIT.match(k)
        if m is not None and not config and m.group("base").rstrip("_") in _ONE_STEP and "time" in table:
            unit = m.group("unit")
            if unit in _UNDER_A_MINUTE:
                # a step's own word with a time unit is the step's time (`"step_seconds": 7.18`, `iter_ms`)
                return replace(
                    table["time"], key_unit=unit, rule="unit", via=f"{k}: the time of one step in {unit}"
                )
        if m is not None:
            hit = table.get(m.group("base").rstrip("_"))
            if hit is not None and hit.units is not None:
                unit = m.group("unit")
                return Mapping(
                    hit.column,
                    hit.kind,
                    hit.units,
                    hit.type,
                    "%" if unit in ("pct", "percent") else unit,
                    rule="unit",
                    via=f"the key names its unit {unit}",
                )
        return None

    def _unit_key(self, k: str) -> str | None:
        """A key spelled in units (`tok/gpu/s`, `s/stp`) as the table spells the same units: each abbreviation read
        whole ([units] words), the quantity first, then a time, then a device (`tokens/s/gpu`); None for a key
        that is not all units or is spelled so already."""
        parts = k.split("/")
        if len(parts) < 2 or not self.unit_words:
            return None
        words = [self.unit_words.get(p, p) for p in parts]
        if not all(w in self.unit_words.values() for w in words[1:]):
            return None
        order = {"s": 0, "step": 1, "gpu": 2, "device": 2}
        spelled = "/".join([words[0], *sorted(words[1:], key=lambda w: order.get(w, 1))])
        return spelled if spelled != k else None

    def ignored(self, key: str) -> bool:
        """A key the table says is no value to read ([ignore], [skip])."""
        hit = self._ignored.get(key)
        if hit is None:
            k = normalize(key)
            hit = k in self.ignore or k in self.skip
            if len(self._ignored) < 100_000:
                self._ignored[key] = hit
        return hit

    def skipped(self, key: str) -> str | None:
        """Why a key is not read, None when it is."""
        if not self.ignored(key):
            return None
        return self.skip.get(
            normalize(key),
            "ignored by the table: the step counter or a logging word, read by the line's own pattern",
        )

    def line(self, keys: tuple[str, ...], kind: str) -> LineKeys:
        """What the key model makes of a line's keys (those `fields` do not name, as printed), the rules that
        look at the whole line applied: which key is the loss ([loss]), which group is the learning rate or the
        gradient norm ([groups]). Cached: a log's lines repeat their keys."""
        config = kind in ("config", "summary")
        try:
            return self._lines[(keys, config)]
        except KeyError:
            pass
        mapped: dict[str, Mapping] = {}
        kept: dict[str, tuple[str, str]] = {}
        skipped: dict[str, str] = {}
        for key in keys:
            why = self.skipped(key)
            if why is not None:
                skipped[key] = why
                continue
            hit = self.lookup(key, kind)
            if hit is not None:
                mapped[key] = hit
        if config:
            self._settings_epoch(keys, mapped)
            self._plainest_name(keys, mapped, skipped)
        else:
            self._groups(keys, mapped, kept)
            self._one_device_beside_the_job(keys, mapped)
            self._named_groups_lr(keys, mapped, kept)
            self._loss(keys, mapped, kept)
            self._mirrored_eval_loss(keys, mapped, kept)
            self._stage_words_loss(keys, mapped, kept)
            self._suffixed_eval_loss(keys, mapped, kept)
            self._split_distance_eval_loss(keys, mapped, kept)
            self._printers_units(keys, mapped)
        found = LineKeys(mapped, kept, skipped)
        if len(self._lines) < 10_000:
            self._lines[(keys, config)] = found
        return found

    def _plainest_name(
        self, keys: tuple[str, ...], mapped: dict[str, Mapping], skipped: dict[str, str]
    ) -> None:
        """Several keys of one config line that name one fact: the one its synonyms list first says it (the table
        lists each fact's names from its own), the others said and skipped. A GPT script's options
        {'block_size': 1024, ..., 'seq_len': 128} hold the model's context and the length it trains on: the
        sequence length is `seq_len` (erav4's train.py slices its batches by args.seq_len), whichever is printed
        first."""
        order = {k: i for i, k in enumerate(self.config)}
        by_fact: dict[str, list[str]] = {}
        for key in keys:
            hit = mapped.get(key)
            if hit is not None and hit.rule == "name" and normalize(key) in order:
                by_fact.setdefault(hit.column, []).append(key)
        for column, named in by_fact.items():
            if len(set(named)) < 2:
                continue
            first = min(named, key=lambda k: order[normalize(k)])
            for key in named:
                if normalize(key) != normalize(first):
                    del mapped[key]
                    skipped[key] = f"{column} named plainer by {first!r} on the same line"

    def _settings_epoch(self, keys: tuple[str, ...], mapped: dict[str, Mapping]) -> None:
        """`epoch` among a config's other settings, no key of them a count of epochs: the epochs the
        run plans (an argparse option `--epoch` read as `range(args.epoch)`: Namespace(..., batch_size=500, ...,
        epoch=1000, early_stop=50, ...)). Beside `n_epochs` it is the epoch to start from (eriklindernoren/PyTorch-GAN
        implementations: --epoch "epoch to start training from", --n_epochs "number of epochs of training"), and
        alone on a line it may be the current one."""
        if any(hit.column == "num_epochs" for hit in mapped.values()) or not any(
            hit.kind == "config" for hit in mapped.values()
        ):
            return
        singular = [k for k in keys if normalize(k) == "epoch" and k not in mapped]
        planned = self.lookup("num_epochs", "config")
        if len(singular) == 1 and planned is not None:
            mapped[singular[0]] = replace(
                planned, rule="values", via="an epoch among other settings, none of them a count of epochs"
            )

    def _groups(
        self, keys: tuple[str, ...], mapped: dict[str, Mapping], kept: dict[str, tuple[str, str]]
    ) -> None:
        """Several groups of one column on a line: the learning rate is the first parameter group's (the
        column's definition); a gradient norm is a group's only when the line prints one group (or a total)."""
        by_column: dict[str, list[str]] = {}
        for key in keys:
            hit = mapped.get(key)
            if hit is not None and hit.column in self.group_first | self.group_only:
                by_column.setdefault(hit.column, []).append(key)
        for column, found in by_column.items():
            grouped = [k for k in found if "group" in mapped[k].rule.split("+")]
            if not grouped or len(found) == 1:
                continue
            whole = [k for k in found if k not in grouped]
            if whole:
                chosen: str | None = whole[0]
            elif column in self.group_first:
                chosen = min(grouped, key=lambda k: (_group_index(k), grouped.index(k)))
            else:
                totals = [k for k in grouped if _words((_group_parts(k) or ("", ""))[1]) & self.group_total]
                chosen = totals[0] if len(totals) == 1 else None
            for k in grouped:
                if k == chosen:
                    if column in self.group_first and len(grouped) > 1:
                        mapped[k] = replace(
                            mapped[k], via=f"{mapped[k].via}; the first of {len(grouped)} groups"
                        )
                    continue
                del mapped[k]
                kept[k] = (
                    "group",
                    f"another group of {column}"
                    if chosen is not None
                    else f"one of {len(grouped)} groups of {column}, none a total",
                )

    def _one_device_beside_the_job(self, keys: tuple[str, ...], mapped: dict[str, Mapping]) -> None:
        """A rate whose name gives no scope on a line that also prints the whole job's (`Tokens per second: 11528.78 |
        ... | Global tokens/sec: 92230.22`, RamonKaspar/Large-Scale-AI-Engineering-Project's train.py: tps =
        ntokens / time_delta / world_size beside total_tps = ntokens / time_delta) is one device's."""
        for column, per_device in _PER_DEVICE.items():
            rates = [k for k in keys if k in mapped and mapped[k].column == column]
            whole = [k for k in rates if "scope" in mapped[k].rule.split("+")]
            if len(rates) < 2 or len(whole) != 1:
                continue
            for k in rates:
                if k != whole[0]:
                    mapped[k] = _ruled(
                        replace(mapped[k], column=per_device),
                        "beside",
                        f"one device's: the line prints the whole job's as {whole[0].strip()!r}",
                    )

    def _named_groups_lr(
        self, keys: tuple[str, ...], mapped: dict[str, Mapping], kept: dict[str, tuple[str, str]]
    ) -> None:
        """Learning rates of parameter groups named by the module they train, `lr_<name>` two or more on a line and
        no plain lr (VIOLETv2's fine-tuning loop logs "ep: %d, step: %d, lr_swin: %.2e, lr_bert: %.2e, max memory:
        ..." for its video and its text encoder): the first printed is the lr, as the first parameter group is
        (the column's definition); the others are kept. One such key alone (`lr_decay`, `lr_scale`) names no
        group."""
        if any(m.column == "lr" for m in mapped.values()):
            return
        named = [k for k in keys if k not in mapped and _NAMED_LR.fullmatch(normalize(k))]
        if len(named) < 2:
            return
        mapped[named[0]] = Mapping(
            "lr",
            "step",
            rule="group",
            via=f"the first of {len(named)} learning rates of named parameter groups",
        )
        for k in named[1:]:
            kept[k] = ("group", "another group of lr")

    def _splits_alone(self, keys: tuple[str, ...], mapped: dict[str, Mapping]) -> None:
        """Values named by their split alone, the training's and an evaluation's, on a line with no loss-like key:
        the loss each split measures (facebookresearch/svoice svoice/solver.py: logger.info(f'Epoch {epoch}: ' +
        ' '.join(f'{k}={v:.5f}' ...)) of {'train': train_loss, 'valid': valid_loss, 'best': best_loss}).
        Not on an evaluation's own line (`eval 200: train 1.55 | val 1.53`: the act named, its training figure a
        running loss quoted)."""
        bare = {normalize(k): k for k in keys if k not in mapped}
        train = [bare[w] for w in TRAIN_WORDS if w in bare]
        held = [bare[w] for w in EVAL_WORDS - {"eval"} if w in bare]
        if len(held) != 1 or "eval" in bare:
            return
        via = "the loss rule (rules.loss): a value named by its split alone, beside another split's"
        if not train or any(m.column == "loss" for m in mapped.values()):
            # (the training split's name the names map to the loss already: CatBoost's `learn: v  test: w`, the
            # objective on its learn set and on the eval set, catboost/libs/loggers/logger.h)
            named = [
                k for k in keys if k in mapped and mapped[k].column == "loss" and normalize(k) in SPLIT_NAMED
            ]
            if len(named) == 1 and not any(m.column == "eval_loss" for m in mapped.values()):
                mapped[held[0]] = Mapping("eval_loss", "step", rule="loss", via=via)
            return
        if len(train) != 1:
            return
        mapped[train[0]] = Mapping("loss", "step", rule="loss", via=via)
        mapped[held[0]] = Mapping("eval_loss", "step", rule="loss", via=via)

    def _loss(
        self, keys: tuple[str, ...], mapped: dict[str, Mapping], kept: dict[str, tuple[str, str]]
    ) -> None:
        """The loss rule ([loss]): a key the names map to loss, else the line's total, else its only loss-like
        key, else the one the others are parts of by their names; every other loss-like key is kept. Several
        and no total: no loss."""
        rule = self.loss
        if not rule.words:
            return
        named = [k for k in keys if k in mapped and mapped[k].column == "loss"]
        home = self._sole_namespace(keys)
        candidates = []
        for k in keys:
            if k in mapped:
                continue
            why = self._loss_like(k, home)
            if why == "":
                candidates.append(k)
            elif why is not None:
                kept[k] = ("loss", why)
        if not candidates:
            self._splits_alone(keys, mapped)
            if not named:
                self._total_alone(keys, mapped)
            return
        if named:
            # (but the total of the named loss and the line's other terms, named as its total, is what the code
            # optimizes: OddFunction0205/clora-'s training_step logs f'loss: {loss:.4f}, orth_loss: ...,
            # total_loss: {total_loss:.4f}', total_loss = loss + orth_loss; a total of no other name beside a
            # named loss and its other terms as well: Steel-skull/CWT's metrics 'lm_loss', 'depth_reg_loss', ...,
            # 'total_loss', the sum it backpropagates)
            whole = [
                k
                for k in candidates
                if len(named) == 1 and _words(k) & rule.total and _words(k) - rule.total <= _words(named[0])
            ]
            if len(whole) == 1 and len(candidates) >= 2:
                mapped[whole[0]] = Mapping(
                    "loss",
                    "step",
                    rule="loss",
                    via="the loss rule (rules.loss): the total of the named loss and its terms",
                )
                del mapped[named[0]]
                kept[named[0]] = ("loss", f"a part of the loss {whole[0].strip()!r}")
                candidates = [k for k in candidates if k != whole[0]]
                named = [whole[0]]
            for k in candidates:
                kept[k] = (
                    "loss",
                    f"another loss on a line whose loss is {named[0].strip()!r}: a part or a term of it",
                )
            return
        totals = [k for k in candidates if _words(k) & rule.total]
        if len(totals) > 1:
            # (of several totals, the total of nothing named: MOTIP's `overall_loss` beside its `overall_detr_loss`
            # and `overall_id_loss`, the totals of its two parts)
            plain_totals = [k for k in totals if not _words(k) - rule.total - rule.words]
            totals = plain_totals if len(plain_totals) == 1 else totals
        # a loss printed beside its parts named after it (audiocraft's ce, ce_q1, ce_q2: per codebook) is their whole
        # (named in the plural, `losses` beside `loss_mn`, `loss_c`, ...: NLUT's train.py)
        stems = [
            k
            for k in candidates
            if all(o == k or normalize(o).startswith(_singular(normalize(k)) + "_") for o in candidates)
        ]
        # a regularizer added to the objective (a mixture of experts' load-balancing loss, a z-loss) is no objective
        # of its own: with those set aside, the one loss left is what the code optimizes
        # (a name with a digit inside, spaCy's `tok2vec`, is one word as printed: camelCase splitting cuts it)
        auxiliary = [
            k for k in candidates if (_words(k) | set(regex.split(r"[^a-z0-9]+", k.lower()))) & rule.auxiliary
        ]
        objectives = [k for k in candidates if k not in auxiliary]
        own = self._own_value(candidates)
        # a loss with no word of its own beside losses of the same word named apart (dgl-ke's `average loss`
        # beside its `average pos_loss` and `average neg_loss`, the two halves it is the mean of) is their whole;
        # not beside another loss word (Paddle's `Avg loss` beside its copy `train_cost`)
        shared = frozenset.intersection(*(_words(k) for k in candidates))
        plain = [
            k
            for k in candidates
            if shared & rule.words and not _words(k) - shared - rule.words - rule.running
        ]
        # (a loss named for the training beside losses of other names: 2s-AGCN's and its copies' "Mean training
        # loss: {:.4f}.  Mean graph loss: {:.4f}." is the model's objective beside a regularizer's term)
        staged = [k for k in candidates if _words(k) & TRAIN_WORDS]
        if any(not _words(k) - rule.words - rule.running for k in candidates if k not in staged):
            staged = []  # (nor beside a loss of no name of its own, `Avg loss` beside `train_cost`: one loss twice)
        chosen: str | None = None
        if len(totals) == 1:
            chosen, how = totals[0], "the total of the line's losses"
        elif len(candidates) == 1:
            chosen, how = candidates[0], "the line's only loss"
        elif own is not None:
            chosen, how = own, "the step's own loss beside its average over earlier steps"
        elif len(plain) == 1:
            chosen, how = plain[0], "the loss with no name of its own beside losses named apart: their whole"
        elif len(stems) == 1:
            chosen, how = stems[0], "the loss whose parts the line's other losses are (named after it)"
        elif len(objectives) == 1:
            chosen, how = objectives[0], "the line's only loss beside auxiliary terms added to it"
        elif len(staged) == 1:
            chosen, how = staged[0], "the loss named for the training beside losses named otherwise"
        for k in candidates:
            if k == chosen:
                mapped[k] = Mapping("loss", "step", rule="loss", via=f"the loss rule (rules.loss): {how}")
            elif chosen is not None and k in auxiliary and chosen in objectives:
                kept[k] = ("loss", f"an auxiliary term added to the loss {chosen.strip()!r}")
            elif chosen is not None:
                kept[k] = ("loss", f"a part of the loss {chosen.strip()!r}")
            else:
                kept[k] = (
                    "loss",
                    f"one of {len(candidates)} losses and no total: {LOSS_UNDECIDED}",
                )

    def _total_alone(self, keys: tuple[str, ...], mapped: dict[str, Mapping]) -> None:
        """A key named a total and nothing else, the first of the line's values and before two more, with no
        loss-like key: the objective, the sum of the terms printed after it, weighted or not (a physics-informed loop's "Epoch 25 | Total: 93.07 | Residual:
        ... | BC: 89.16 | Data: 1.08", a distiller's "step=0 lr=0.001 total=2.19 det=1.93 kd=0.52")."""
        if any(m.column in ("loss", "eval_loss") for m in mapped.values()):
            return
        totals = [k for k in keys if k not in mapped and _words(k) and _words(k) <= self.loss.total]
        if len(totals) != 1:
            return
        # (the first of the line's values, as a loop prints what it optimizes and then what that is made of; a
        # total printed after its terms is the loss only where it is their sum in every line, infer.py's
        # _summed_total: `policy=2.5 mse=0.25 total=0.5` is some other count)
        at = keys.index(totals[0])
        before = [k for k in keys[:at] if k not in mapped and not _words(k) <= _POSITIONS]
        after = [k for k in keys[at + 1 :] if k not in mapped]
        if not before and len(after) >= 2:
            mapped[totals[0]] = Mapping(
                "loss",
                "step",
                rule="loss",
                via="the loss rule (rules.loss): a total named alone beside its terms, no key named a loss",
            )

    def _own_value(self, candidates: list[str]) -> str | None:
        """Of losses that are one loss, the step's own value and its statistics over earlier steps (kaituoxu's
        Speech-Transformer solver.py prints 'Average Loss {avg:.3f} | Current Loss {loss.item():.6f}'), the one
        that is no statistic; None where the losses are of different things."""
        running = self.loss.running
        # (the span a running value covers is no part of what it measures: UTPM's `batch_loss` beside its
        # `epoch_avg_loss`, the mean over the epoch so far)
        stems = {_words(k) - running - _CURRENT - _SPANS for k in candidates}
        plain = [k for k in candidates if not _words(k) & running]
        if len(stems) == 1 and len(plain) == 1 and len(candidates) > 1:
            return plain[0]
        return None

    def _mirrored_eval_loss(
        self, keys: tuple[str, ...], mapped: dict[str, Mapping], kept: dict[str, tuple[str, str]]
    ) -> None:
        """The evaluation's loss named as the loss the loss rule chose, the training's prefix swapped for an
        evaluation's (huggingface/peft examples/causal_language_modeling/peft_prompt_tuning_clm.ipynb prints
        f"{epoch=}: {train_ppl=} {train_epoch_loss=} {eval_ppl=} {eval_epoch_loss=}"; the loops that copy it
        print "train_epoch_loss={...} eval_epoch_loss={...}"): the line names one quantity of two stages, the
        evaluation's is eval_loss. Only where the loss carries the training's prefix and one key mirrors it."""
        chosen = [k for k, m in mapped.items() if m.column == "loss" and m.rule == "loss"]
        if len(chosen) != 1 or any(m.column == "eval_loss" for m in mapped.values()):
            return
        loss = chosen[0]
        base = normalize(loss)
        stage = next((p for p in self.train_prefixes if base.startswith(p)), None)
        if stage is None:
            # (or the stage's word inside the name, `Avg Training Loss` beside `Avg Validation Loss`: one word
            # swapped for an evaluation's); a loss of no stage's name, `mask_loss` beside `val_mask_loss`, is no pair
            split = base.split("_")
            mirrors = [k for k in keys if k not in mapped and one_stage_apart(split, normalize(k).split("_"))]
        else:
            base = base[len(stage) :]
            mirrors = [
                k
                for k in keys
                if k not in mapped and any(normalize(k) == p + base for p in self.eval_prefixes)
            ]
        if len(mirrors) == 1:
            _read_as(
                mapped,
                kept,
                mirrors[0],
                "eval_loss",
                f"an evaluation's loss named as the loss {loss.strip()!r} (rules.loss)",
            )

    def _stage_words_loss(
        self, keys: tuple[str, ...], mapped: dict[str, Mapping], kept: dict[str, tuple[str, str]]
    ) -> None:
        """A line that names one quantity of two stages by the stages' words alone, the evaluation's read as its
        loss (`val`): the training stage's word alone is the loss (Latticeworks1/CPTFM train.py and the many loops
        that print f"epoch {epoch:3d}  train {train_loss:.4f}  val {val_loss:.4f}  lr {lr:.2e}"). Only where no key
        of the line is the loss or like one. Alone, the training's word keys the loss too where it opens the line's
        keys (ucsd-cse251b's nanoGPT course loop writes f"{step} train {loss:.6f} hard {hard:.6f} muon_lr ...");
        after other keys it may be the training's accuracy or count, and with no number it is the stage of the
        line (espnet2's `5epoch:train:3376-3750batch:`)."""
        if any(m.column == "loss" for m in mapped.values()):
            return
        trains = [k for k in keys if k not in mapped and normalize(k) in TRAIN_WORDS]
        beside = any(m.column == "eval_loss" and normalize(k) in EVAL_WORDS for k, m in mapped.items())
        if not beside and not (
            trains
            and keys[0] == trains[0]
            and not any(self._loss_like(k) is not None for k in keys if k not in mapped)
        ):
            return
        if len(trains) == 1:
            _read_as(
                mapped,
                kept,
                trains[0],
                "loss",
                "the training stage's word beside the evaluation's loss (rules.loss)",
            )

    def _split_distance_eval_loss(
        self, keys: tuple[str, ...], mapped: dict[str, Mapping], kept: dict[str, tuple[str, str]]
    ) -> None:
        """A held-out split's distance (`validation MSE`) beside the training's loss, the line's one evaluation
        figure: the error the loop judges the model by on held-out data, its evaluation's loss, whichever distance
        the training minimized (PyPOTS's pypots/base.py logs "Epoch %03d - training loss (%s): %.4f, validation
        %s: %.4f", an MAE trained, an MSE validated). Not where the line has an evaluation's loss already."""
        if [m.column for m in mapped.values()].count("loss") != 1 or any(
            m.column == "eval_loss" for m in mapped.values()
        ):
            return
        held = [
            k
            for k in keys
            if k not in mapped
            and len(words := _words(k)) == 2
            and words & SPLIT_DISTANCES
            and words & (EVAL_WORDS - {"test"})
        ]
        if len(held) == 1:
            why = "a held-out split's distance beside the training's loss, the line's one evaluation figure"
            _read_as(mapped, kept, held[0], "eval_loss", why)

    def _suffixed_eval_loss(
        self, keys: tuple[str, ...], mapped: dict[str, Mapping], kept: dict[str, tuple[str, str]]
    ) -> None:
        """The evaluation's loss named as the loss with the stage after the name, the training's (`loss_train`)
        swapped for an evaluation's (`loss_val`): tkipf/pygcn pygcn/train.py prints 'loss_train: {:.4f}',
        'acc_train: {:.4f}', 'loss_val: {:.4f}', 'acc_val: {:.4f}' each epoch, jwzhanggy/Graph-Bert
        code/MethodGraphBertNodeClassification.py the test split's 'loss_test: {:.4f}' besides. Of a validation's
        and a test split's, the validation's is eval_loss: the split measured along the training to judge it (the
        test split is held out for the end; kept). Only where a key mirrors the loss: its name, the training's
        stage swapped for a split's (`loss_train_last_batch` beside `loss_val`), a split after a loss that names no
        stage (`Loss` beside `Loss Test`), or the loss's key under an evaluation's namespace
        (`validation/main/loss` beside `main/loss`)."""
        chosen = [k for k, m in mapped.items() if m.column == "loss"]
        if len(chosen) != 1 or any(m.column == "eval_loss" for m in mapped.values()):
            return
        base = normalize(chosen[0])
        stages = [p[:-1] for p in self.train_prefixes if p.endswith("_")]
        stage = next((st for st in stages if base.endswith("_" + st)), None)
        # (or the stage after the name and before a word of which batch it was measured on: shchur/ifl-tpp's
        # 'loss_train_last_batch = {:.4f}, loss_val = {:.4f}')
        within = next((base.index(f"_{st}_") for st in stages if f"_{st}_" in base), None)
        # (or a loss of no stage's name with the split after it: MouseLand/cellpose core.py logs "Epoch %d, Time
        # %4.1fs, Loss %2.4f, Loss Test %2.4f, LR %2.4f")
        if stage is not None:
            name = base[: -len(stage)]
        elif within is not None:
            name = base[: within + 1]
        else:
            name = base + "_"
        splits = {p[:-1] for p in self.eval_prefixes if p.endswith("_")}
        mirrors = {
            k: normalize(k)[len(name) :] for k in keys if k not in mapped and normalize(k).startswith(name)
        }
        mirrors = {k: split for k, split in mirrors.items() if split in splits}
        # (or the loss's whole key after an evaluation's namespace: chainer's Evaluator reports 'validation/' +
        # the name the training reports, 'validation/main/loss' beside 'main/loss')
        mirrors |= {
            k: p[:-1]
            for k in keys
            for p in self.eval_prefixes
            if p.endswith("/") and k not in mapped and normalize(k) == p + base
        }
        if len(mirrors) > 1:
            mirrors = {k: split for k, split in mirrors.items() if split != "test"}
        if len(mirrors) == 1:
            why = (
                f"an evaluation's loss, its split named after the name as the loss {chosen[0].strip()!r} names "
                "the training's"
            )
            _read_as(mapped, kept, next(iter(mirrors)), "eval_loss", why)

    def _printers_units(self, keys: tuple[str, ...], mapped: dict[str, Mapping]) -> None:
        """A memory key of a known printer's line ([decimal] printers: its key and the keys its line prints
        besides) is read in the units the printer divides by, SI where it divides by 10**k; the same key on
        any other line keeps the binary default ([rules] memory)."""
        if not self.decimal_printers:
            return
        printed = {normalize(k): k for k in keys}
        for key, others, why in self.decimal_printers:
            k = printed.get(key)
            hit = mapped.get(k) if k is not None else None
            if hit is not None and hit.units == "memory" and others <= printed.keys():
                mapped[k] = replace(hit, units="memory_si", via="; ".join(v for v in (hit.via, why) if v))

    def evaluation_metric(self, key: str) -> bool:
        """Whether a key names a metric only an evaluation measures ([evaluation] metrics: `current mean dice`,
        `fid50k_full`, `mIoU`); a loss named after one (`loss_giou`, `dice_loss`) is a training value, and so is
        one the key says is the training set's (XGBoost's `train-rmse`, LightGBM's `training's l1`)."""
        words = {w.lower() for text in (key, _CAMEL.sub("_", key)) for w in regex.findall(r"[A-Za-z]+", text)}
        return bool(words & self.eval_metrics) and not words & (self.loss.words | TRAIN_WORDS)

    def _sole_namespace(self, keys: tuple[str, ...]) -> str | None:
        """The namespace every namespaced training key of a line is under, when there is one: it is the training
        step's own. chainer's PrintReport prints the reporter's names, 'main/loss' and 'main/accuracy' for the
        main optimizer's target link, beside 'validation/main/loss' and a bare 'elapsed_time'
        (chainer/training/updaters/standard_updater.py names its optimizer 'main'); verl prints actor/, critic/,
        perf/ and timing/ keys on one line, and there no namespace is the step's."""
        heads = set()
        for k in keys:
            n = normalize(k)
            if (
                "/" in n
                and not any(n.startswith(p) for p in self.eval_prefixes)
                and not _words(k) & EVAL_WORDS
            ):
                heads.add(n[: n.index("/") + 1])
        return next(iter(heads)) if len(heads) == 1 else None

    def _loss_like(self, key: str, home: str | None = None) -> str | None:
        """Whether a key is a loss of the training step: "" when it is, why not when it is another loss (an
        evaluation's, another model's), None when it is no loss at all (loss_scale, loss/clip). `home`: the
        line's only namespace, the training step's own."""
        words = _words(key)
        # (a split's distance, `Train MSE` beside `Val MSE`: the error the training minimizes, measured on each split)
        distance = (
            len(words) == 2 and bool(words & SPLIT_DISTANCES) and bool(words & (TRAIN_WORDS | EVAL_WORDS))
        )
        if not (words & self.loss.words or distance) or words & self.loss.unlike:
            return None
        k = normalize(key)
        if any(k.startswith(p) for p in self.eval_prefixes) or words & EVAL_WORDS:
            return EVALUATION_LOSS
        if "/" in k:
            head = k[: k.rindex("/") + 1]
            if _words(head) & self.loss.words:
                return ""  # a loss's own parts (tianshou's loss/vf)
            if home is not None and head.startswith(home):
                return ""
            if not any(head == p or head.endswith("/" + p) for p in self.train_prefixes if p.endswith("/")):
                return f"a loss under another namespace than the training step's ({head}): one part's loss"
        return ""

    def read(
        self, key: str, value: str, kind: str = "step", line: tuple[str, ...] = (), extra: str | None = "x_"
    ) -> Meaning:
        """What a printed key and its value mean: the column, the conversion, the rule. `line`: the keys the
        line prints besides (as printed; with `key` or without), the context of the line's rules; `extra`: the
        prefix a step line keeps an unknown numeric key under (None: not kept)."""
        keys = line if key in line else (*line, key)
        found = self.line(tuple(keys), kind)
        config = kind in ("config", "summary")
        why = found.skipped.get(key)
        if why is not None:
            return Meaning(key, None, "skipped", skipped_use(why))
        hit = found.mapped.get(key)
        if hit is not None:
            if hit.kind == "known":
                if extra is None or config:
                    return Meaning(key, None, "skipped", skipped_use("a known quantity with no column"))
                hit = hit.kept_as(extra)
            hit = hit.for_value(value)
            try:
                _, unit = hit.convert_unit(value)
            except UnitError:
                hit = None  # a unit the column cannot hold: kept like an unknown key
            except ValueError:
                unit = None
            if hit is not None:
                kind = "fact" if config else "kept" if hit.kind == "known" else "column"
                return Meaning(key, hit.column, kind, hit.use(unit), hit)
        if extra is None or config:
            return Meaning(key, None, "skipped", skipped_use("not a key of the table"))
        try:
            _, unit = split_quantity(value)
        except ValueError:
            return Meaning(key, None, "skipped", skipped_use("not a number"))
        if (
            unit is not None
            and len(unit) > 1
            and unit.lower() in MEMORY
            and normalize(key) in self.device_words
        ):
            # a device's name alone before an amount of memory (`| GPU: 6.1GB |`): the memory in use on it
            memory = self.lookup("memory", "step")
            if memory is not None:
                hit = _ruled(memory, "device", f"{key.strip()}: an amount of memory on the device it names")
                return Meaning(key, hit.column, "column", hit.use(unit), hit)
        base, factor = scaled_key(key)
        column = column_name(extra, base, unit)
        return Meaning(
            key, column, "kept", kept_use(column, found.kept.get(key), unit, factor), factor=factor
        )


_NONE = Mapping("", "")
_TIME_GLOSS = frozenset(("t", "time"))
STAGE_WORDS = frozenset(("train", "training", "val", "valid", "validation", "eval", "test", "dev"))
# the words of a key that name an evaluation's split (`valid_loss`; `Vali Loss`: thuml/Autoformer and
# Informer2020's time-series loops print 'Train Loss: {} Vali Loss: {} Test Loss: {}'); the inferred reading
# adds the words a record's own text says it with (infer.EVAL_WORDS)
EVAL_WORDS = frozenset(("val", "eval", "valid", "validation", "test", "dev", "vali", "heldout"))
# the distances a regressor minimizes, named with a split they are measured on (20070316lbw-netizen/ant-transformer:
# f"Epoch {e:02d} | Train MSE: {tr:.6f} | Gate Loss: {g:.4f} | Val MSE: {va:.6f} | Val Corr: {c:.4f}")
SPLIT_DISTANCES = frozenset(("mse", "mae", "l1", "l2"))
TRAIN_WORDS = frozenset(("train", "training", "trn"))
# the data split an evaluation is of, by the word that names it (`eval`, `evaluation` name none: every evaluation says
# them)
SPLITS = {"val": "val", "valid": "val", "validation": "val", "dev": "val", "test": "test", "testing": "test"}
# a training split's name alone that the names map to the loss (synonyms.toml: CatBoost's `learn`)
SPLIT_NAMED = frozenset(("learn",))


def kept_use(column: str, why: tuple[str, str] | None, unit: str | None, factor: float = 1.0) -> KeyUse:
    """A kept key's account: its x_ column holds the number as printed (its unit in the name); `why`: the line
    rule that kept it and its words, None for a key the table does not know."""
    if why is None:
        return KeyUse(column, "kept", "not a key of the synonym table: the number as printed", unit, factor)
    return KeyUse(column, f"kept+{why[0]}", why[1], unit, factor)


def skipped_use(why: str) -> KeyUse:
    return KeyUse("", "skipped", why, None, None)


def resolve(
    key: str, text: str, line: LineKeys | None, extra: str | None, present: Container[str]
) -> tuple[KeyUse | None, Mapping | None, tuple[str, str] | None]:
    """How a key a key-map line prints (not named by its fields) is read, given the line's keys together
    (KeyMap.line), the prefix of its extra columns and the columns the line gave already: (skipped, mapping, why).
    `skipped`: the account of a key not read at all; else `mapping` reads its value (for that value: a bare
    memory figure's unit), or None where it is kept as an x_ column, `why` the rule that kept it. The one decision
    of both readers of such lines (sets.LineSpec and fastlane)."""
    why = None
    mapping = None
    if line is not None:
        skipped = line.skipped.get(key)
        if skipped is not None:
            return skipped_use(skipped), None, None
        mapping = line.mapped.get(key)
        why = line.kept.get(key)
    if mapping is not None and mapping.kind == "known":
        mapping = mapping.kept_as(extra) if extra is not None else None
    if mapping is not None:
        mapping = mapping.for_value(text)
        if mapping.column in present:  # an explicit field, or an earlier synonym, already gave it
            if mapping.column != "loss" or mapping.rule == "name":
                return skipped_use(f"{mapping.column} given by the line already"), None, None
            # the loss rule's pick where a field gave the loss: kept as an x_ column
            return None, None, ("loss", "the line gives the loss already")
    return None, mapping, why


# the scale letters a rate key may lead with, and the rates (counts a second) that may be printed so
_RATE_SCALES = frozenset("kmg")
_SCALED_RATES = frozenset({"tokens_per_s", "samples_per_s", "tokens_per_s_per_gpu", "samples_per_s_per_gpu"})


def _ruled(m: Mapping, rule: str, via: str) -> Mapping:
    """`m` read through one more rule (outermost first)."""
    return replace(
        m, rule=f"{rule}+{m.rule}" if m.rule != "name" else rule, via="; ".join(v for v in (via, m.via) if v)
    )


_CAPITAL = regex.compile(r"[A-Z]")
# `number of`, and its abbreviations `nb`, `nbr` (French: nombre de; nb_epochs, nb_classes) and `num of`
_NUMBER_OF = regex.compile(r"^(?:total_)?(?:number_of|num_of|nbr?)_(?P<what>[a-z]\w*)$")
_TRAINING = regex.compile(r"\btraining(?=_)")
# a word that says a value is this step's own (`Current Loss` beside `Average Loss`)
_CURRENT = frozenset({"current", "cur", "curr", "this", "instant", "batch", "step", "iter", "last"})
# the span a running statistic is taken over
_SPANS = frozenset({"epoch", "ep"})
# where a line is in the run (its epoch, its step), printed before its values and none of them
_POSITIONS = frozenset({"epoch", "ep", "step", "iter", "iteration", "batch", "it", "round", "episode"})


def _words(key: str) -> frozenset[str]:
    """The words of a key: camelCase and any separator split, lower case (`Mask_Loss` -> mask, loss); a loss glued
    to a short word is a loss too (LLaMA-Adapter's `train_closs`, YOLOv5's `mloss`: closs, loss)."""
    words = {w for w in regex.split(r"[^a-z0-9]+", _CAMEL.sub("_", english(key)).lower()) if w}
    if any(_GLUED_LOSS.fullmatch(w) for w in words) or _L_LOSS.fullmatch(key.strip()):
        words.add("loss")
    return frozenset(words)


_GLUED_LOSS = regex.compile(r"[a-z]{1,5}loss")
# BasicSR's and its forks' losses (ESRGAN, HDRUNet, the MMSR codebases): basicsr/models/sr_model.py
# loss_dict['l_pix'], 'l_percep', 'l_style'; srgan_model.py 'l_g_pix', 'l_g_gan', 'l_d_real', 'l_d_fake'
_L_LOSS = regex.compile(r"l_[a-z]+(?:_[a-z]+)*")


def _group_parts(key: str) -> tuple[str, str] | None:
    """(the key, the group) of a key printed with a group after it (`lr-AdamW/pg1` -> lr, adamw/pg1), None
    without one."""
    m = _GROUP.match(regex.sub(r"\s+", "_", key.strip().lower()))
    return None if m is None else (m.group("base"), m.group("tail"))


def _group_index(key: str) -> int:
    m = _INDEX.search(normalize(key))
    return int(m.group(1)) if m else 1 << 30


_CACHE: dict[tuple[str, bytes], KeyMap] = {}


def load(path: str | Path = BUILTIN) -> KeyMap:
    """Read and check a synonym table (cached per file and content). It is read as a pattern set is: a regular
    file, at most tomlfile.MAX_TOML_BYTES."""
    p = Path(path)
    try:
        raw = read_bounded(p, MAX_TOML_BYTES)
    except FileRefused as exc:
        raise PatternError(f"{p}: {exc.reason}; not read") from None
    except OSError as exc:
        raise PatternError(f"{p}: cannot read the key map ({exc.strerror})") from None
    key = (str(p), hashlib.sha256(raw).digest())
    if key not in _CACHE:
        _CACHE[key] = parse(parse_toml(raw, p, PatternError), str(p))
    return _CACHE[key]


def stamp(path: str | Path) -> tuple[str, int, int] | None:
    """What load() keys a table by (None when the file is gone): a set that names it is loaded again when it
    changes."""
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return (str(path), st.st_mtime_ns, st.st_size)


TABLES = (
    "step",
    "config",
    "inverse",
    "known",
    "ignore",
    "skip",
    "prefixes",
    "groups",
    "loss",
    "decimal",
    "interval",
    "units",
    "evaluation",
    "rules",
    "words",
)


def parse(data: Table, source: str) -> KeyMap:
    from ..core.schema import FACTS, SCOPED_COLUMNS, SCOPES, STEP_COLUMNS, scoped_name

    step_ok = set(STEP_COLUMNS) | {scoped_name(b, s) for b in SCOPED_COLUMNS for s in SCOPES}
    km = KeyMap(source=source)
    unknown = set(data) - set(TABLES)
    if unknown:
        raise PatternError(
            f"{source}: unknown table(s) {sorted(unknown)}; use [step.<column>], [config.<fact>], "
            "[inverse.<column>], [known.<name>], [ignore], [skip.<what>], [prefixes], [groups], [loss], [decimal], "
            "[interval], [units], [evaluation], [rules], [words]"
        )
    for kind, allowed, table in (
        ("step", step_ok, km.step),
        ("config", set(FACTS), km.config),
        ("inverse", step_ok, km.inverse),
        ("known", None, km.known),
    ):
        for column, spec in _tables(data, kind, source).items():
            where = f"{source}: [{kind}.{column}]"
            if allowed is not None and column not in allowed:
                raise PatternError(f"{where}: unknown {'column' if kind == 'step' else 'fact'} {column!r}")
            if allowed is None and regex.fullmatch(r"[a-z][a-z0-9_]*", column) is None:
                raise PatternError(f"{where}: a known quantity's name is lower case letters, digits and _")
            if not isinstance(spec, dict) or not isinstance(spec.get("keys"), list):
                raise PatternError(f"{where}: needs keys = [...]")
            extra = set(spec) - {"keys", "units", "type", "note", "why"}
            if extra:
                raise PatternError(f"{where}: unknown key(s) {sorted(extra)}")
            units = spec.get("units")
            if units is not None and units not in UNITS:
                raise PatternError(f"{where}: units must be one of {', '.join(UNITS)}")
            vtype = spec.get("type", "float")
            if vtype not in TYPES:
                raise PatternError(f"{where}: type must be one of {', '.join(TYPES)}")
            as_kind = {"inverse": "step", "known": "known"}.get(kind, kind)
            rule, via = ("known", str(spec.get("why", ""))) if kind == "known" else ("name", "")
            for j, k in enumerate(spec["keys"], 1):
                # (the key by its place in the list, not as written: an error names no value of the file)
                nk = normalize(str(k))
                if nk in table and table[nk].column != column:
                    raise PatternError(f"{where}: keys #{j} is already mapped to {table[nk].column!r}")
                if kind in ("inverse", "known") and nk in km.step:
                    raise PatternError(f"{where}: keys #{j} is already mapped to {km.step[nk].column!r}")
                table[nk] = Mapping(
                    column, as_kind, units, vtype, invert=kind == "inverse", rule=rule, via=via
                )
    ignore = data.get("ignore", {}).get("keys", [])
    km.ignore = frozenset(normalize(str(k)) for k in ignore)
    for what, spec in _tables(data, "skip", source).items():
        if (
            not isinstance(spec, dict)
            or not isinstance(spec.get("keys"), list)
            or not isinstance(spec.get("why"), str)
        ):
            raise PatternError(f'{source}: [skip.{what}]: needs keys = [...] and why = "..."')
        km.skip.update((normalize(str(k)), spec["why"]) for k in spec["keys"])
    prefixes = _tables(data, "prefixes", source)
    km.train_prefixes = _words_list(prefixes, "train", source, "prefixes", lower=True)
    km.eval_prefixes = _words_list(prefixes, "eval", source, "prefixes", lower=True)
    km.step_suffixes = _words_list(prefixes, "step_suffix", source, "prefixes", lower=True)
    km.namespaces = _words_list(prefixes, "namespace", source, "prefixes", lower=True)
    km.phrase_unlike = frozenset(_words_list(prefixes, "phrase_unlike", source, "prefixes", lower=True))
    km.device_words = frozenset(_words_list(prefixes, "device", source, "prefixes", lower=True))
    groups = _tables(data, "groups", source)
    km.group_first = frozenset(_words_list(groups, "first", source, "groups"))
    km.group_only = frozenset(_words_list(groups, "only", source, "groups"))
    km.group_total = frozenset(_words_list(groups, "total", source, "groups"))
    km.group_unlike = frozenset(_words_list(groups, "unlike", source, "groups"))
    for column in km.group_first | km.group_only:
        if column not in step_ok:
            raise PatternError(f"{source}: [groups]: unknown column {column!r}")
    loss = _tables(data, "loss", source)
    km.loss = LossRule(
        frozenset(_words_list(loss, "words", source, "loss")),
        frozenset(_words_list(loss, "total", source, "loss")),
        frozenset(_words_list(loss, "unlike", source, "loss")),
        frozenset(_words_list(loss, "auxiliary", source, "loss", lower=True)),
        frozenset(_words_list(loss, "running", source, "loss", lower=True)),
    )
    decimal = _tables(data, "decimal", source)
    km.decimal = frozenset(normalize(k) for k in _words_list(decimal, "keys", source, "decimal"))
    km.decimal_why = str(decimal.get("why", ""))
    printers = decimal.get("printers", [])
    if not isinstance(printers, list) or not all(
        isinstance(p, dict) and isinstance(p.get("key"), str) and isinstance(p.get("with"), list)
        for p in printers
    ):
        raise PatternError(
            f"{source}: [[decimal.printers]]: each printer is a key and a list `with` of its line's keys"
        )
    km.decimal_printers = tuple(
        (normalize(p["key"]), frozenset(normalize(str(w)) for w in p["with"]), str(p.get("why", "")))
        for p in printers
    )
    interval = _tables(data, "interval", source)
    km.interval = frozenset(normalize(k) for k in _words_list(interval, "keys", source, "interval"))
    km.interval_why = str(interval.get("why", ""))
    units = _tables(data, "units", source)
    words = units.get("words", {})
    if not isinstance(words, dict) or not all(isinstance(v, str) and v for v in words.values()):
        raise PatternError(f"{source}: [units] words must be a table of texts (abbreviation = word)")
    km.unit_words = {normalize(str(k)): normalize(v) for k, v in words.items()}
    km.units_why = str(units.get("why", ""))
    evaluation = _tables(data, "evaluation", source)
    km.eval_metrics = frozenset(_words_list(evaluation, "metrics", source, "evaluation", lower=True))
    rules = _tables(data, "rules", source)
    if not all(isinstance(v, str) for v in rules.values()):
        raise PatternError(f"{source}: [rules]: each rule is a text")
    km.rules = dict(rules)
    words = _tables(data, "words", source)
    if not all(
        isinstance(v, str) and (_CJK_RUN.fullmatch(str(k)) or _SPELLED_WORD.fullmatch(str(k)))
        for k, v in words.items()
    ):
        raise PatternError(
            f"{source}: [words]: each key is a word in CJK letters, or in lower-case Latin letters without accents or "
            "Cyrillic ones, each value its English text"
        )
    for k, v in words.items():
        (km.words if _CJK_RUN.fullmatch(str(k)) else km.spelled_words)[str(k)] = " ".join(v.split())
    return km


_SPELLED_WORD = regex.compile(r"[a-z]+|[а-яё]+")


def _tables(data: Table, name: str, source: str) -> Table:
    got = data.get(name, {})
    if not isinstance(got, dict):
        raise PatternError(f"{source}: {name} must be a table ([{name}])")
    return got


def _words_list(table: Table, key: str, source: str, where: str, lower: bool = False) -> tuple[str, ...]:
    got = table.get(key, [])
    if not isinstance(got, list) or not all(isinstance(w, str) and w for w in got):
        raise PatternError(f"{source}: [{where}] {key} must be a list of texts")
    return tuple(w.lower() if lower else w for w in got)


def resolve_path(
    value: Any, pattern_file: str, where: str, folders: Iterable[str | Path] | None = None
) -> Path:
    """The file a ``keymap = ...`` option names: "builtin", or a path relative to the pattern file.

    A key map is a pattern-set file: it must lie in one of the pattern `folders` the sets are loaded from
    (by default the set's own folder), or below one, once symlinks are resolved. A set could otherwise make
    logparse read any file the user can read (a batch's run folder may hold a set) and quote its path and
    its parse errors into the index. The error names neither the path nor the value."""
    if not isinstance(value, str) or not value:
        raise PatternError(f'{where}: keymap must be "builtin" or a path to a synonym table')
    if value == "builtin":
        return BUILTIN
    p = Path(value)
    path = p if p.is_absolute() else Path(pattern_file).resolve().parent / p
    allowed = [Path(pattern_file).parent] if folders is None else [Path(f) for f in folders]
    real = Path(os.path.realpath(path))
    if not any(real.is_relative_to(os.path.realpath(f)) for f in allowed):
        raise PatternError(
            f"{where}: keymap: names a file outside the pattern folders (symlinks followed), not read: a key map "
            "is a pattern-set file, kept in a subfolder of the set's folder (each *.toml directly in a pattern "
            "folder is read as a set)"
        )
    return path


def one_stage_apart(
    train: Sequence[str],
    other: Sequence[str],
    training: Container[str] = TRAIN_WORDS,
    evaluation: Container[str] = _EVALUATION_WORDS,
) -> bool:
    """Whether two keys, as their words, name one quantity of two stages: word for word the same but one, a
    training stage's word in `train` where `other` has an evaluation's (`avg_training_loss`, `avg_validation_loss`;
    the inferred reading's `Mean Train Rewards`, `Mean Test Rewards`)."""
    if len(train) != len(other):
        return False
    differ = [k for k, (x, y) in enumerate(zip(train, other, strict=True)) if x != y]
    return len(differ) == 1 and train[differ[0]] in training and other[differ[0]] in evaluation


def _read_as(
    mapped: dict[str, Mapping], kept: dict[str, tuple[str, str]], key: str, column: str, via: str
) -> None:
    """A line rule's reading of a key into the loss or the evaluation's loss, in place of keeping it."""
    kept.pop(key, None)
    mapped[key] = Mapping(column, "step", rule="loss" if column == "loss" else "eval", via=via)
