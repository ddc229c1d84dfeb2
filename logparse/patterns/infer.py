"""Inferred reading: the step records of a log no framework's set reads, learnt from the log's own repeated lines.

A training loop prints the same record again and again with other numbers. Its lines, with their numbers masked,
fall into a few shapes (``step # | loss # | lr #``); a shape that carries a rising counter is the step record.
From the head of a log and a sample of the rest of the file this module finds those shapes, decides what each
number of a shape is (the counter, an epoch, the counter's total, a timestamp, a value and its key and unit, a
running average to leave out), and writes a pattern set from them: one ``[[line]]`` per record with a regex of
the shape's literal text and an explicit field per value, as `logparse patterns new` writes it and a user could.
The frame reads the whole file with it like with any set, the fast lane included (fastlane.py reads a line
through its literal layout, and converts explicit fields in bulk).

What a record may look like (the tests build each from a framework's own format string):

- the counter: a rising integer, bare or named (``step``, ``iter``, ``Iter(train)``, ``global_step``), alone or
  as ``N/M`` (its total), in brackets or parentheses; an epoch printed before a counter that starts again each
  epoch (``Epoch(train)  [3][ 50/500]``, ``Train: 0 [   0/73 (  1%)]``, ``Epoch:[1/1](0/23768)``) gives
  ``epoch_index`` beside the position (the steps stage numbers such rows epoch x len + position, as it does for
  the MetricLogger set);
- the values: ``key: v``, ``key=v``, ``key v``, ``'key': 'v'`` (a number printed as a string), ``"key": v``,
  ``v unit`` (``22,892 tok/s``), ``key<TAB>v``, separated by anything; a unit glued on or after the value, or in
  brackets in the key (``memory(GiB)``); ``key: v (avg)``: the bracketed running average is no value of its own;
- a table: a header line that names the columns, then rows of bare numbers under it (YOLOv5's ``Epoch GPU_mem
  box_loss ...``), once or before every row, its names over one line or two (Vowpal Wabbit's ``average``/``loss``);
  two names are a header only over rows of two numbers (``step<TAB>loss``); a bordered table's cells between ``|``
  or the box-drawing rules of tabulate's grids and Rich (``│``, ``┃``), its names a few words each (``| Iteration |
  Loss | Elapsed Time |``, a markdown table's, with or without its outer borders, under its rule ``-- | --``,
  ``---|:---:``), its rules (``+---+``, ``|---|``, ``┡━━╇━━┩``) no lines of its; a value between ``|`` is its
  cell's column, a cell of text (``No log``) none; a table counts steps only
  where its counter column rises over three rows or more (a table of results printed once does not), and beside
  records counted under a counter's name only if its own column is named a counter too; a table logged line by line
  behind a logger's prefix (its names after the prefix's last separator, each row behind the same prefix);
  where a row's numbers do not stand one a column, its cells do (the text between tabs or runs of two blanks, as
  many as the header's): a cell's first number is the column's, the rest of the cell an aside (``139.6 +/- 0.1
  (jitter = 0.3)``, ``4090 (81.78%)``), a printed list of several numbers no value (which item, or their sum,
  is the loss is not for the reader to guess); Rich's trailing ``file.py:line`` is no column;
- a record over several lines: lines that come with every record (a ``key<TAB>value`` block, a dict printed
  over lines, a list of timings after a results line, lines indented under a record line that is not) join the
  record's row. A block of one ``key: value`` a line has one counter (the line named most surely a counter, else
  its value that rises by the smallest stride), and its keys are read together, as one line's (which of them is
  the loss);
- a results table's row, led by a name (``all``) under a line that names the columns, is an evaluation's; the
  results printed under a heading of words alone that says an evaluation (``Start testing``, ``***** Eval results
  *****``) are one evaluation per heading; a line that reports the best score so far (``New best ...``, ``best
  metric, ...``) is no evaluation of its own.

Which number is the counter, where a record prints several: a run-wide one (``global iter``, ``total_train_updates``)
before one within it; the one a logger's bracketed label names (``[Learner] ... Learner Steps = 2``); updates or
steps done before examples, samples or images; a number whose name has a rate's word (``fps step``) is none; an
unnamed integer that keeps pace with the line's progress bar is. A counter printed ``1k`` counts thousands. What
an epoch counts from (0 or 1) is decided from the values: an epoch 0 printed, the planned total, or the position
beside it (a position 0, or one a step short of its total, counts from 0). The epochs a run plans (``Epoch
24/120``, an epoch counter's total, a line ``epoch 14/300`` of its own) become the ``num_epochs`` fact
(frame/assemble.py). A progress bar's frames count steps only where nothing else in the log does, or where the bar
counts to the total the records print.

A record qualifies as a step only when its counter rises through the log (or, for a record seen once or twice,
when the counter is named like one). A record that says it is an evaluation (a word ``val``, ``eval``,
``test``, ``validation`` outside its values' keys, or only evaluation keys such as ``val_loss``) is an eval
event, never a step row. What each key means is the key map's decision (keymap.py); this module hands it the
key as printed, the unit printed with the value, and whether the record is an evaluation. A rarer record of
another shape that only repeats steps the step record printed, with its keys and other values, measures them
again on other data: an evaluation at that step (not a second row). Lines of other shapes right after every
step line, each once a step (TFLearn's optimizer line after its `Training Step: N` line), continue that step: a
count they print that moves a whole multiple of the step's counter (the epoch's samples) is a value of its row.

Logs of several processes or workers: a record that prints its rank has its counter judged within each rank's
lines (buffered ranks reach the console in blocks); a line that prints several counters (an RL loop's learner,
actors and evaluator each print them all, Acme's `[Learner] Actor Steps = 825 | ... | Learner Steps = 2`) counts
by the one named after its bracketed label, and a worker's record that prints the trainer's counter and no
training value (loss, lr, grad norm) is that worker's progress, no step. An evaluation word counts only where it
stands alone in the record's own text, not inside a name (`cpu_test`, `coco_val2017`).
"""

from __future__ import annotations

import math
import os
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

import regex

from ..core.schema import SCOPED_COLUMNS
from ..core.tomlfile import Table
from ..read.reader import ReadStats, Record, compression, open_checked, stream_records
from . import keymap as keymap_mod
from .sets import DIGITS, TRUSTED_CHARS, LineSpec, LineValues, PatternSet, parse_pattern_set, to_duration

NAME = "generic"  # the inferred set stands where the generic set stood: summaries name the format so
TITLE = "custom training loop (generic)"
NOTE = (  # as the generic set's step line says it (patterns/generic.toml)
    "read by the generic pattern set: keys were mapped to columns through logparse/synonyms.toml (see the summary's "
    "generic block); a bare mfu above 1 was read as a percentage, a memory figure without a unit as GiB, tokens/s as "
    "the whole job's unless the key said per GPU"
)

BAR_NOTE = (  # as the generic set's tqdm line says it
    "read by the generic pattern set from a tqdm bar's postfix: the bar position is the step, the step time is "
    "tqdm's smoothed rate"
)
# a step counted in a bar's description: tqdm draws the line again as its position moves (frame/assemble.py
# redraws_joined keeps one row per step)
REDRAWN_NOTE = "; a step drawn again on the next line as its bar moves is one row, its last draw"

HEAD_RECORDS = 5000  # records of a log's head sampled (the frame's detection reads as many)
SAMPLE_SLICES = 8  # slices of a large file read beside its head ...
SLICE_BYTES = 64 << 10  # ... each this long
MAX_SHAPES = 20_000  # distinct shapes remembered (a log of ever-changing lines has as many as lines)
MAX_OCCURRENCES = 4096  # occurrences kept per shape for the counter's analysis
MAX_RECORDS = 64  # record lines in one inferred set
MAX_VARIANTS = 8  # literal variants merged into one record line (`"logged": false` / `true`)
MIN_REPEATS = 3  # an unnamed counter must rise over at least this many lines
RISING = 0.8  # share of a counter's changes that must go up
BLOCK_SHARE = 0.8  # a line joins the records it comes with when it comes with at least this share of them
MAX_BLOCK_LINES = 80  # lines after a record's head that may belong to it

# A timestamp as the generic set reads one (Python logging, MM/DD/YYYY, ISO with an offset, mmengine's
# YYYY/MM/DD and its year-less MM/DD), a date joined to its time by a colon (sockeye's logging format
# "[%(asctime)s:%(levelname)s:%(name)s:%(funcName)s] %(message)s" with datefmt "%Y-%m-%d:%H:%M:%S",
# sockeye/log.py), absl/glog's year-less `I0811 21:54:55.531340`, the C locale's `%x %X` (MM/DD/YY: XLM's
# xlm/logger.py LogFormatter, time.strftime('%x %X')) or time.asctime()'s `Wed Jun  6 16:01:16 2018` (ST-GCN's
# print_log: "[ " + time.asctime(time.localtime(time.time())) + ' ] ', yysijie/st-gcn main.py) (sets.to_timestamp
# reads each; and MM-DD), HugeCTR's day of the month and time glued with their units, `[02d07h54m43s]`, and syslog's month,
# day and time leading the line (rsyslog's traditional file format, `journalctl -o short`: `Dec  5 13:39:59 host ...`)
# and `Sat 23 Apr 2022 00:34:44`; a date and its time may be printed as two items (an ORPO trainer's
# `time:2024-03-23, 02:14:26, iters:1000, iters_average_Loss:1.5689, ...`) or joined to it by a comma (open_clip's
# and Chinese-CLIP's setup_logging: logging.Formatter('%(asctime)s | %(levelname)s | %(message)s',
# datefmt='%Y-%m-%d,%H:%M:%S'))
# (a fraction of a second after a comma is Python logging's `,%03d` msecs, or a datefmt's `,%f` microseconds
# (saforem2/ezpz's logger: `[2025-07-24 17:54:57,267387]`): three or six digits that end the stamp; a
# comma and a number in a CSV row after its stamp column, `2026-04-23 11:09:34,1,40,1.97`, is the next cell)
TS_RX = (
    r"\d{4}[-/]\d\d[-/]\d\d(?:[T :,]|, )\d\d:\d\d:\d\d(?:\.\d+|,(?:\d{6}|\d{3})(?![\d.,]))?(?:Z|[+-]\d\d:?\d\d)?"
    r"|(?<=\[)\d\dd\d\dh\d\dm\d\ds(?=\])"
    r"|\A(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?(?! \d{4})"
    # (the month's name, the day and a comma, no year, in the bracket that opens the line: ColBERT's print_message,
    # datetime.now().strftime("%b %d, %H:%M:%S"))
    r"|(?<=\A\[)(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d\d, \d\d:\d\d:\d\d(?=\])"
    r"|\d\d/\d\d(?:/(?:\d{4}|\d\d(?!\d)),?)? \d\d:\d\d:\d\d(?:\.\d+|,(?:\d{6}|\d{3})(?![\d.,]))?"
    # (the same joined by dashes, the year last: NTMC-Community/MatchZoo's time.strftime('%m-%d-%Y %H:%M:%S'))
    r"|(?<![\d-])\d\d-\d\d-\d{4} \d\d:\d\d:\d\d(?:\.\d+|,(?:\d{6}|\d{3})(?![\d.,]))?"
    # (.NET's DateTime in the en-US culture, month, day and hour unpadded, a 12-hour clock: Seq2SeqSharp's logger
    # "info,9/26/2019 3:38:24 PM Update = ...")
    r"|(?<![\d/])\d{1,2}/\d{1,2}/\d{4} \d{1,2}:\d\d:\d\d [AP]M"
    # the year in two digits, opening the line (xinntao's MMSR and EDVR, the super-resolution codebases built on them:
    # logging.Formatter('%(asctime)s.%(msecs)03d - %(levelname)s: %(message)s', datefmt='%y-%m-%d %H:%M:%S'); or the
    # month first, datefmt '%m-%d-%y %H:%M:%S', as an emergent-communication translator's job output prints it:
    # sets.py to_timestamp reads the order the fields allow)
    r"|\A\d\d-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?(?= )"
    # the month and day joined by a dash, no year (logging's datefmt '%m-%d %H:%M:%S': MojiTalk's train logs)
    r"|(?<![\d-])\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+|,(?:\d{6}|\d{3})(?![\d.,]))?"
    # (glog's `I0919 14:15:27.775955`, absl's: the level's letter first on the line, after the blanks of an indented
    # paste)
    r"|(?:(?<=\A[IWEF])|(?<=[ \t][IWEF]))\d{4} \d\d:\d\d:\d\d\.\d+"
    r"|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
    r"[ \d]\d \d\d:\d\d:\d\d \d{4}"
    # (the seconds after a dot: d3rlpy's structlog TimeStamper(fmt="%Y-%m-%d %H:%M.%S"), d3rlpy/logging.py)
    r"|\d{4}-\d\d-\d\d \d\d:\d\d\.\d\d(?![\d:.])"
    # the day before the month, the year before the time: RecBole's logger, datefmt "%a %d %b %Y %H:%M:%S"
    # (recbole/utils/logger.py init_logger)
    r"|(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) )?[ \d]\d (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} "
    r"\d\d:\d\d:\d\d"
    # the date and the time of day joined by dashes, to the minute: CenterNet's src/lib/logger.py (and the trackers
    # built on it, FairMOT, CenterTrack) time.strftime('%Y-%m-%d-%H-%M') before each line it writes
    r"|\A\d{4}-\d\d-\d\d-\d\d-\d\d(?=: )"
    # the date's digits run together, a dash before the time (mbfaria/ShuffleFaceNet_Pytorch's logger:
    # time.strftime('%Y%m%d-%H:%M:%S') before each message)
    r"|(?<![\d-])\d{4}[01]\d[0-3]\d-\d\d:\d\d:\d\d(?![\d:])"
    # every field joined by underscores (jayleicn/moment_detr's train log and the video-grounding repositories built
    # on it: time.strftime("%Y_%m_%d_%H_%M_%S") before `[Epoch] 001 [Loss] ...`), at the line's start or in a
    # bracket, not inside a name (StudioGAN's run names end in one: `StyleGAN2-...-train-2021_10_24_03_59_32`)
    r"|(?:\A|(?<=\[))\d{4}_[01]\d_[0-3]\d_[0-2]\d_[0-5]\d_[0-6]\d(?!\w)"
)
# a clock or a duration (`eta: 0:01:35`, tqdm's `[00:12<01:30`, mmcv's `1 day, 2:03:04`): one value, never a
# number per field
CLOCK_RX = (
    r"(?:\d+ days?, )?\d{1,3}:\d\d(?::\d\d)?(?:\.\d+)?|(?<=<)\?"  # (tqdm's `<?`: not known yet)
    # a duration in days, hours, minutes and seconds, two units or more in that order (dnnlib.util.format_time of
    # NVlabs' StyleGAN2/3: "{m}m {s:02}s", "{h}h {m:02}m {s:02}s", "{d}d {h:02}h {m:02}m")
    r"|\d+d \d+h(?: \d+m(?: \d+s)?)?|\d+h \d+m(?: \d+s)?|\d+m \d+s"
    # or written as one word (monodepth2's trainer.py sec_to_hm_str: "{:02d}h{:02d}m{:02d}s", its `time elapsed`
    # and `time left`)
    r"|\d+h\d\dm(?:\d\ds)?(?![\w.])"
    # or a time of day joined by underscores in the bracket that opens the line (dl4mt-style loops'
    # time.strftime('%H_%M_%S'), CWord's "[02_55_56] Epoch: 0, Update: 13750, Cost: ..."): one value, a clock
    r"|(?<=\A\[)[0-2]\d_[0-5]\d_[0-5]\d(?=\])"
)
# a number as keymap.NUMBER_TOKEN finds it (a sign only after a separator or a quote, thousands separators kept
# whole but for a bracket of two counts within the line (the bracket that opens the line holds its counter: river's
# progressive_val_score prints `[1,000] Accuracy: 86.59% – ...`), or underscores in threes as Python's f"{x:_}" groups them, a trailing dot left to the sentence), and nan / inf, which a step line prints in a number's place
NUM_RX = (
    r"(?:(?<![^\s=:(\[,{|;'\"])[-+])?"
    r"(?:(?!(?<=[\[(])(?:(?<!^[\[(])|(?=\d{1,3},\d{3}[\])][\[(]))\d{1,3},\d{3}[\])])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d|,\d)|\d{1,3}(?:_\d{3})+(?:\.\d+)?"
    r"|\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?"
    r"(?![\d_])"  # (`0_default` is a key, not a number and a word)
)
# (a number glued to a word by `@` is part of its key, never a value or a counter: torchvision's references print
# "Acc@1 {top1.global_avg:.3f} Acc@5 ...", a retrieval's recall@10, a per-length loss loss@1024)
# a counter glued to the word that names it (LFM's `epoch {} iteration{}, Loss: ...`, `step500`): the one place a
# number may follow a letter (`fp16`, `conv2d`, `v2` stay words)
GLUED_RX = (
    r"(?:(?:(?<=[Ii]teration)|(?<=[Ii]ter)|(?<=[Ss]tep)|(?<=[Ee]poch)|(?<=ITER)|(?<=STEP)|(?<=EPOCH))\d+(?![\w.])"
    # (or to `ep`, a word of its own: Vanilla-Blancmange's DPBL trainer prints f'Load file: {f}, EP{ep}, avg_loss=...')
    r"|(?<=(?<![A-Za-z])[Ee][Pp])\d+(?![\w.])"
    # (or a learning rate glued to its name: the MME domain-adaptation loop's print('... Train Ep: {} lr{} \t Loss
    # Classification: {:.6f} ...'))
    r"|(?:(?<=(?<![A-Za-z])lr)|(?<=(?<![A-Za-z])LR))\d*\.\d+(?:[eE][-+]?\d+)?(?![\w.])"
    # (or to a tag of a letter or two that fills a bracket, `[s20]`, `[ep1]`, `[it500]`: an abbreviated counter)
    r"|(?:(?<=\[[A-Za-z])|(?<=\[[A-Za-z]{2}))\d+(?=\]|/\d+\]))"
)
NAN_RX = r"[-+]?(?i:nan|inf(?:inity)?)"
# a value a record leaves unset where it prints a number on its other lines (JSON's null, Python's None: a first
# record's `"loss": null` before any step ran), after its key's `:` or `=`
NULL_RX = r"(?:(?<=: )|(?<=:)|(?<==))(?:null|None)(?=[,}\]\s]|$)"
# A progress bar's body, whose glyphs change as it fills: tqdm's `|███▌      |` after its percentage, or
# left open by a bar_format that puts the postfix after it (Ignite's `2%|▏         , loss=1.35`), a `|` bar of
# blocks and dashes (fastprogress's `|████------|`), a run of box glyphs (Rich's and Ultralytics' `━━━───`)
GLYPHS = "█▉▊▋▌▍▎▏━─░▒▓"
BAR_RX = (
    rf"(?<=\d%)\|[^|\n]*\||\|[{GLYPHS}#\- ]{{4,}}\||(?<=\d%)\|[{GLYPHS} ]*|[{GLYPHS}]{{3,}}"
    # a bar of ASCII in brackets (a C++ trainer's `Training [====      ] 8.5% 5000/58874`, Keras' `[====>.....]`)
    r"|\[(?=[^\]\n]*[=#])[=#>.\- ]{8,}\]"
    r"|\[ {8,}\](?=\[? *\d{1,3}(?:\.\d+)?%)"  # (empty yet, its percentage after it)
)
# (the standard module's engine, which finds these tokens twice as fast as regex's; the lookahead skips at once
# the places no token starts at)
_TOKEN = re.compile(
    rf"(?=[-+.\d|nNiI?MTWFSJAOD\[{GLYPHS}])"  # (MTWFS: a weekday that starts an asctime stamp; JAOD a month)
    rf"(?:(?P<ts>{TS_RX})"
    rf"|(?P<bar>{BAR_RX})"
    rf"|(?P<clock>(?<![\w.:/])(?:{CLOCK_RX})(?![\w:]))"
    # (a number may follow a CJK letter: CJK text puts no space between a word and a number, `第3轮`)
    rf"|(?P<num>(?<![^\W{keymap_mod.CJK_LETTERS}])(?<!\.)(?<!\w@){NUM_RX}|(?<![\w.]){NAN_RX}(?!\w)|{GLUED_RX}"
    rf"|{NULL_RX}))"
)
_WS = re.compile(r"\s+")
# the regex a value's group admits (the same alternatives the tokenizer finds, in a line read by the set)
NUMBER_GROUP = (
    r"[-+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:_\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?"
    r"|[-+]?(?i:nan|inf(?:inity)?)|null|None"
)
COUNTER_GROUP = r"\d+(?:,\d{3})*"
PIECE_RX = {
    "ts": f"(?:{TS_RX})",
    # (a duration under a minute is written in seconds alone, dnnlib.util.format_time's "{s}s": the same clock in a
    # record whose other lines print `12m 16s`; the tokenizer reads it as a number with its unit)
    "clock": rf"(?:{CLOCK_RX}|(?<![\w.:])\d{{1,2}}s(?![\w.]))",
    "bar": f"(?:{BAR_RX})",
    "num": f"(?:{NUMBER_GROUP})",
}

# A key printed before its value: a word (with `/`, `.`, `@`, `%`, `-`), an optional unit or qualifier in brackets
# (`memory(GiB)`, `Iter(train)`, `tgs (tokens/gpu/second)`), up to four words, or any text in quotes (`'0_default'`);
# then only separators to the value (`: `, `=`, quotes, `[`)
# (a possessive joins its word: LightGBM's "%s's %s: %g", `training's binary_logloss`, lightgbm/callback.py)
# (a key may be written in CJK letters, its words unspaced, with full-width punctuation: `当前损失值：3.69 | `,
# `学习率（当前）：`; keymap.english reads its words)
_WORD_RX = (
    rf"[A-Za-z_{keymap_mod.CJK_LETTERS}][\w/.%@-]*(?:'s(?!\w))?(?:\s?[(\[（][\w%/.+ -]{{1,40}}[)\]）])?"
)
_LABEL = regex.compile(
    rf"(?:(?<![\w/.@%-])(?P<key>{_WORD_RX}(?:[ \t]{_WORD_RX}){{0,3}})|['\"](?P<quoted>[^'\"\n]{{1,60}})['\"])"
    # (or a brace around the value: 'epoch: {1/300}, step: {1/2}, loss : {2.0086918}, lr : {0.0001000}'; or a
    # Markdown code span, a log written as Markdown: "- epoch `1`, loss `3.2578`, time `2021-06-24 23:04:05`")
    r"[\s'\"`=:#\[({|,：，｜（［【＝-]*$"
)
_CODE_EXTENSIONS = r"\.(?:py|pyx|cc|cpp|cu|c|h|go|rs|js|java|lua|jl)"
_CODE_FILE = regex.compile(rf"{_CODE_EXTENSIONS}$")
# a code file's name that opens a key: the logging prefix's "%(filename)s" before the message, no word of the key
# (neemiasbsilva/developing-nanoGPT2-fineweb logs "%(asctime)s %(filename)s %(message)s": `train.py validation
# loss: 11.0213`)
_FILE_OPENING = regex.compile(rf"^[\w.-]+{_CODE_EXTENSIONS}[ \t]+(?=\S)")
# a code file's name and a function's before a number: the number is the line of the code that logged
# (or right after the file's name and a colon, `train.py:254` (or `search.py: 99]`, the number padded: a glog-like
# "%(levelname)s %(asctime)s %(filename)s:%(lineno)3d]"), and the process id in brackets after that line,
# `train.py:254[27649]`: SiaStegNet's "%(asctime)s %(filename)s:%(lineno)d[%(process)d] %(levelname)s %(message)s")
# (or loguru's default format, "<level> | {name}:{function}:{line} - {message}": the number after the module's and
# the function's names, LION's `| INFO     | trainers.base_trainer:train_epochs:219 - `)
_SOURCE_LINE = regex.compile(
    rf"(?:{_CODE_EXTENSIONS}(?:[ \t]+[-:|][ \t]+[<\w>.]+[ \t]+[-:|][ \t]*|:[ \t]*)|\|\s*[\w.]+:[\w<>]+:"
    # (a format of logging's that brackets the line, "%(filename)s[line:%(lineno)d] %(levelname)s %(message)s")
    r"|\[(?i:line|lineno):\s*)$"
)
# a counter's own word glued after it (espnet2's `5epoch:train:3376-3750batch:`)
_WORD_AFTER = regex.compile(r"^(?P<word>epoch|batch|step|iter|iteration)\b", regex.I)
# a rate unit after a value names it (`2862.9 ms/step`, `22,892 tok/s`, `1.2 it/s`, `3.91it/s`, `401.0 SPS`), a bare `/s` the
# samples' (open_clip's `1.75441/s, 0.219301/s/gpu`, timm's `{rate:>7.2f}/s`: the key model says so); not where a
# `:` or `=` follows it, which makes it the next value's key (tf_cnn_benchmarks' "%i\timages/sec: %.1f ...")
_RATE_AFTER = regex.compile(
    # (the slash may stand between blanks: tf-faster-rcnn's print('speed: {:.3f}s / iter'.format(...)))
    r"^\s?((?:[mµu]?s|secs?) ?/ ?(?:step|it|iter|iteration|batch)|(?:it|iters?|steps?|batch(?:es)?)/s(?:ec)?"
    r"|(?:tok(?:en)?s?|samples?|seqs?|sequences|examples|img|images)/s(?:ec(?:ond)?)?(?:/(?:gpu|device))?"
    r"|[A-Za-z][A-Za-z_]*/(?:s|sec|second|step|it|iter|iteration|batch)|(?<=^)/s(?:/(?:gpu|device))?"
    # steps a second as one word (torchbeast monobeast.py "Steps %i @ %.1f SPS. Loss %f.")
    r"|SPS|sps)(?![\w/])"
    r"(?!\s*[:=])"
)
# the optimizer's steps named apart from the micro-batches a loop also counts (aobaruwa/Chatbot_Compressor's
# `epoch,step,grad_step,tr_loss,tr_ppl`, grad_step = step // gradient_accumulation_steps): beside the other, the step
_OPTIMIZER_COUNTERS = frozenset({"grad_step", "optimizer_step", "opt_step", "update_step"})
# words that name a repeat of the whole training (a cross-validation fold, a seed, a trial, an ensemble's member
# trained in turn: torchensemble's `Estimator: 001 | Epoch: 000 | Batch: 010 | Loss: ...`), never its step
_REPEAT_WORDS = frozenset({"fold", "folds", "seed", "trial", "repeat", "repetition", "estimator"})
# words that name a step counter (the generic set's), and counters a record's repeats must show rising
COUNTER_WORDS = frozenset(
    {
        "step",
        "iter",
        "iteration",
        "it",
        "global_step",
        "globalstep",
        "num_updates",
        "update",
        "updates",
        "train_step",
        "step_idx",
        "iter_num",
        # xuebinqin/U-2-Net u2net_train.py: "[epoch: %3d/%3d, batch: %5d/%5d, ite: %d] train loss: ..." (ite_num,
        # the run's iteration; BASNet's basnet_train.py prints the same)
        "ite",
        # the step in the loops' own languages, where its word is ASCII (Romanian and French `pas`, Spanish
        # `paso`, Italian and Portuguese `passo`, German `Schritt`)
        "pas",
        "paso",
        "passo",
        "schritt",
    }
    | _OPTIMIZER_COUNTERS
)
LOOSE_COUNTER_WORDS = frozenset({"batch", "iters", "steps", "iterations", "idx", "i", "counter", "updates"})
RANK_KEYS = frozenset({"rank", "global_rank", "rank_id", "process_index"})
# the keys that name the process a line comes from, a rank's or a worker's
_PROCESS_KEYS = RANK_KEYS | {"proc", "process", "worker", "gpu", "device", "local_rank", "node"}
# (`epochs=10` is a setting); the word in Spanish, Portuguese and Italian written without its accent (`Epoca 001/30`),
# German, Polish and the South Slavic languages (`Epoha [1/10]`), as loops print it
EPOCH_WORDS = frozenset({"epoch", "ep", "epoca", "epoche", "epoka", "epoha", "epocha"})
EVAL_WORDS = keymap_mod.EVAL_WORDS | frozenset(
    {
        "validating",
        "validate",  # (a validation's progress bar: atisioma/Crack-SEG's tqdm(desc="Validate"))
        "evaluation",
        "evaluating",
        "evaluate",
        # (the past participle a sentence says it with: capstone-fall2021/lung_nodule_segmentation prints "Epoch 0
        # trained with loss: ..." then "Epoch 0 evaluated with loss: ...")
        "evaluated",
        "validated",
        "testing",
        "map",  # (mean average precision: a detector's validation)
        "cv",  # (the cross-validation set speech toolkits score each epoch on: WeNet's `CV Batch`, `cv_loss`)
        # (in the loops' own languages: Romanian `validare`, Spanish `validacion`, German `Validierung`, Italian
        # `validazione`)
        "validare",
        "validacion",
        "validierung",
        "validazione",
    }
)
# words a record says of itself only (an RL loop's evaluation actor, Acme's `[Evaluator]` logger, whose counter
# `Evaluator Steps` every other logger's line prints as well)
OWN_EVAL_WORDS = EVAL_WORDS | {"evaluator"}
_WORDS = regex.compile(r"[A-Za-z]+")
# a word of a record's own text that stands alone (`Epoch(val)`, `Test: [ 10/157]`, `"kind": "val"`), not a part
# of a name glued to others by `_`, `-` or digits (ML-Agents' run id `cpu_test`, a data set `coco_val2017`): only
# such a word says what the record is
# a key and its quoted word (`'train': 'eval'`, `"split": "val"`): the word, not the key, is what the record says
_WORD_VALUED = regex.compile(r"""(['"])\w+\1\s*[:=]\s*(['"])(?P<word>[A-Za-z]+)\2""")
# a quoted key whose value is a flag or nothing is a setting's name, no word of the record (prlz77/ResNeXt.pytorch
# dumps its options with each epoch's state: {"test": false, "load": null, ..., "train_loss": ..., "epoch": 0})
_FLAG_VALUED = regex.compile(r"""(['"])\w+\1\s*:\s*(?:true|false|null|True|False|None)\b""")
# (a source file's name in a logger's prefix is no word of the record: absl's `train.py:365] eval epoch: 4, ...`)
_OWN_WORDS = regex.compile(r"(?<![A-Za-z0-9_-])[A-Za-z]+(?![A-Za-z0-9_-]|\.[A-Za-z]{1,5}:)")
# a logger's label in brackets before a record's values (Acme's TerminalLogger: `[Learner] `)
_BRACKETED = regex.compile(r"\[([A-Za-z][A-Za-z _-]{0,40})\]")
# training values beside an evaluation's: a record holding one of these is a step (its val_* values join it)
TRAINING_COLUMNS = frozenset(
    {
        "loss",
        "lr",
        "grad_norm",
        "loss_scale",
        "tokens_per_s",
        "tokens_per_s_per_gpu",
        "samples_per_s",
        "samples_per_s_per_gpu",
        "reported_mfu",
        "step_time_s",
    }
)


# ------------------------------------------------------------------------------------------------
# lines and their shapes


def tokens(text: str) -> tuple[list[str], list[str], list[str]]:
    """(literals, kinds, values) of a line: literals[0] value[0] literals[1] ... literals[-1]; each value a
    number (`num`), a clock (`clock`), a timestamp (`ts`) or a tqdm bar's body (`bar`)."""
    literals, kinds, values, at = [], [], [], 0
    for m in _TOKEN.finditer(text):
        literals.append(text[at : m.start()])
        kinds.append(m.lastgroup or "num")
        values.append(m.group())
        at = m.end()
    literals.append(text[at:])
    return literals, kinds, values


_MARK = {"num": "#", "clock": "@", "ts": "$", "bar": "|~|"}


def shape_key(literals: Sequence[str], kinds: Sequence[str]) -> str:
    parts = []
    for i, lit in enumerate(literals):
        parts.append(_WS.sub(" ", lit) if "  " in lit or "\t" in lit else lit)
        if i < len(kinds):
            parts.append(_MARK[kinds[i]])
    return "".join(parts).strip()


@dataclass
class SampledShape:
    """The lines of one shape in the sample: their literal text (the first line's), the kinds of their values,
    and each line's values with where it was (slice, place in the sample)."""

    key: str
    literals: list[str]
    kinds: list[str]
    count: int = 0
    first: int = 0  # place of its first line in the sample
    examples: list[tuple[int, str]] = field(default_factory=list)  # (line number, text)
    seen: list[tuple[int, int]] = field(default_factory=list)  # (slice, place) of each line kept
    values: list[tuple[str, ...]] = field(default_factory=list)  # the values of each line kept
    raw: str = ""  # its first line as printed (leading blanks kept: where a table's columns stand)
    glued: bool = False  # text printed after a bar's frame on some of its lines was left out (_FRAME_END)
    behind_bar: bool = False  # some of its lines are a record printed after a bar's frame on the same line
    variants: list[list[str]] = field(
        default_factory=list
    )  # per literal, the texts seen (whitespace as printed)


@dataclass
class SampledLog:
    """The shapes of a log's head and sample, and the sequence of shape keys in each slice (for records that
    span lines)."""

    shapes: dict[str, SampledShape]
    order: list[list[str]]  # per slice, the shape key of each line (None-like "" for a blank line)
    lines: int


# the end of a tqdm frame, `n/N [elapsed<remaining, rate{postfix}]` (tqdm/std.py format_meter), where a print
# without a newline glues its text to the bar (`...3.05it/s, smoothed_loss=0.4660]💾 Saved intermediate checkpoint`);
# the postfix may hold brackets of its own (zoubohao's DDPM Train.py sets `img shape: =torch.Size([80, 3, 32, 32])`
# before its `LR=`)
_FRAME_END = re.compile(
    r"\d+/\d+ \[\d+(?::\d\d){1,2}<[^\[\]\n]*?(?:it/s|s/it)(?:[^\[\]\n]|\[[^\[\]\n]*\])*\]"
)


def unglued(text: str) -> str:
    """The text up to the end of its last tqdm frame (a line may hold several frames a terminal drew over each
    other): a print glued to the bar is no part of its record."""
    return text[: _frame_end(text)]


def _frame_end(text: str) -> int:
    """Where the last tqdm frame of a text ends (its length where it holds none)."""
    if "/it" not in text and "it/s" not in text:
        return len(text)
    end = None
    for m in _FRAME_END.finditer(text):
        end = m.end()
    return len(text) if end is None else end


# a record of its own printed after a bar's frame, with no newline between (a loop's print while its bar is drawn:
# smeetrs/deep_avsr's `Train:   0%|   | 0/512 [00:00<?, ?it/s]Step: 183 || Tr.Loss: 3.241490 ...`): a key or a
# bracket, then a number
_GLUED_RECORD = re.compile(r"^\s*(?:\[|[A-Za-z][\w .-]{0,30}[:=]?\s*)\S*?\d")
# the regex a record behind a bar's frame begins with: the frame, then the record
_BEHIND_FRAME_RX = r"(?:.*?" + _FRAME_END.pattern + r")?\s*"


# the backticks a log pasted into markdown keeps before its first line (`` `miniE 1 s 833 ...``, a fence's ```` ```
# ```` glued to it): the paste's, no part of the line's shape; a record's regex admits them (LINE_START)
_CODE_MARK = re.compile(r"^`{1,3}\s*")
LINE_START = r"^\s*(?:`{1,3}\s*)?"


def sample_shapes(slices: Iterable[Iterable[Record]]) -> SampledLog:
    """The shapes of the sampled records. The tokenizer treats every digit alike, so two texts that differ only
    digit for digit have their tokens at the same places: a text's layout (its digits masked) looks them up."""
    shapes: dict[str, SampledShape] = {}
    order: list[list[str]] = []
    spans_of: dict[str, tuple[list[tuple[int, int]], list[str]]] = {}
    place = 0
    for s, records in enumerate(slices):
        seq: list[str] = []
        order.append(seq)
        for rec in records:
            place += 1
            text = _CODE_MARK.sub("", rec.text.strip())
            if not text:
                seq.append("")
                continue
            shown = unglued(text)
            at = (rec.line, rec.text.rstrip(), s, place)
            _sample_text(shown, at, seq, shapes, spans_of, glued=len(shown) < len(text))
            rest = text[len(shown) :]
            if rest and _GLUED_RECORD.match(rest):
                # (the print after the frame is a record of its own: sampled as one, at the same line)
                _sample_text(rest.strip(), at, seq, shapes, spans_of, behind_bar=True)
    return SampledLog(shapes, order, place)


def _sample_text(
    text: str,
    at: tuple[int, str, int, int],
    seq: list[str],
    shapes: dict[str, SampledShape],
    spans_of: dict[str, tuple[list[tuple[int, int]], list[str]]],
    glued: bool = False,
    behind_bar: bool = False,
) -> None:
    """Add one record's text to the sample: its shape (made at its first line), its values and where it was (`at`:
    its line number, the line as printed, the slice and the place in the sample)."""
    line, raw, s, place = at
    layout = text.translate(DIGITS)
    found = spans_of.get(layout)
    if found is None:
        matches = list(_TOKEN.finditer(text))
        found = ([m.span() for m in matches], [m.lastgroup or "num" for m in matches])
        if len(spans_of) < MAX_SHAPES:
            spans_of[layout] = found
    spans, kinds = found
    cuts = [0, *(edge for span in spans for edge in span), len(text)]
    literals = [text[a:b] for a, b in zip(cuts[::2], cuts[1::2], strict=True)]
    values = [text[a:b] for a, b in spans]
    key = shape_key(literals, kinds)
    seq.append(key)
    sh = shapes.get(key)
    if sh is None:
        if len(shapes) >= MAX_SHAPES:
            return
        sh = shapes[key] = SampledShape(key, literals, kinds, first=place, raw=text if behind_bar else raw)
        sh.variants = [[lit] for lit in literals]
    sh.count += 1
    sh.glued = sh.glued or glued
    sh.behind_bar = sh.behind_bar or behind_bar
    if len(sh.examples) < 3:
        sh.examples.append((line, text))
    if len(sh.values) < MAX_OCCURRENCES:
        sh.seen.append((s, place))
        sh.values.append(tuple(values))
        for i, lit in enumerate(literals):
            if lit not in sh.variants[i] and len(sh.variants[i]) < MAX_VARIANTS:
                sh.variants[i].append(lit)


# ------------------------------------------------------------------------------------------------
# what each value of a shape is


@dataclass
class Slot:
    """One value of a record: what it is and, for a value, where it goes."""

    index: int
    kind: str  # num | clock | ts | bar
    label: str  # the key printed before it ('' when none), or the rate unit after it
    unit: str | None  # a unit printed after it (`ms`, `G`, `%`)
    rate: bool = False  # the label is the rate unit after the value
    # step | total | epoch | timestamp | value | skip | count (another line's counter) | several (a line's of several)
    role: str = "value"
    meaning: FieldPlan | None = None
    header: bool = False  # the label is a table header's column
    shifted: bool = False  # its key named the value after it: it is a counter (`Train loss 0 48.22`)
    bracketed: bool = False  # a value in brackets its key's own bracket names (`time (data): 0.365 (0.002)`)
    per: int = 1  # the steps the value covers, where its key says so (`Time(1000 iters): 5.38s`)
    per_of: int | None = None  # the value of the line that counts the steps it covers, where it varies
    staged: bool = False  # its key is under a stage's heading between the line's values (_stage_sections)


@dataclass(frozen=True)
class FieldPlan:
    """Where a printed key's value goes, from the key model, as an explicit field of the set: the column, how its
    printed number converts (a scale for the unit it was printed in, inverted for a rate per step), and why."""

    column: str
    scale: float = 1.0
    type: str = "float"
    scope: str | None = None
    invert: bool = False
    kept: bool = False  # not a known key: kept as an x_ column
    reason: str = ""
    use: keymap_mod.KeyUse | None = (
        None  # what the key became, as the key model says it (the summary's account)
    )


# a bracketed tag before a key or a value (llm-baselines' f"{epoch}/{step} [train] loss={loss:.3f} [val]
# loss={val_loss:.3f}, acc={acc:3f} [lr] {lr:.5f}"): the stages it names scope the key after it
# (or a word in parentheses glued to its value: recommenders' LightGCN "Epoch %d (train)%.1fs + (eval)%.1fs: ...")
_STAGE_TAG = regex.compile(r"(?|\[(?P<word>[A-Za-z][A-Za-z_]*)\]\s*|\((?P<word>[A-Za-z][A-Za-z_]*)\))$")


# a scale letter glued to a value before its rate's unit (`{tps / 1e3:.1f}k tok/s`)
_SCALE_BEFORE_RATE = regex.compile(r"^(?P<scale>[kKMB])(?=\s?[A-Za-z/])")


# the verb a sentence names its value with (`Loss is 1.72319.`, `Current learning rate is 0.0759.`)
_COPULAS = frozenset({"is", "was", "are", "were", "equals"})


# a key, then when its value was measured, then the value (the numbers in the text as `#`): the count before its
# word, `val_loss at 0 epoch: 3.93` (tanyuqian's RLHF-from-scratch print(f'val_loss at {epoch} epoch: {val_loss}')),
# or the counter's word before its count and its total, `Total Loss at iteration 2 / 600000 is: 2936.1`
# (openpose-plus's "Total Loss at iteration {} / {} is: {}"). (A word before the count and a value right after it,
# `loss at step 1900: 18.69`, is a counter's key, whose value the key before it names: find_counter.)
_KEY_AT = regex.compile(
    r"(?:^|(?<=[\s,;|]))(?P<key>[A-Za-z_][\w/.-]*(?: [A-Za-z_][\w/.-]*){0,3}) at "
    r"(?:# (?:epochs?|steps?|iter(?:ation)?s?)|(?:epoch|step|iter(?:ation)?)\s*# ?(?:/ ?# ?)?(?:is|was)?)"
    r"\s*[:=]\s*$",
    regex.I,
)


def _key_told_at(literals: Sequence[str], kinds: Sequence[str], i: int) -> str | None:
    """The key of value i where the text before it says when it was measured between the key and the value
    (_KEY_AT), else None."""
    if kinds[i] != "num" or i == 0 or kinds[i - 1] != "num":
        return None
    texts = [f"{literals[i - 1]}#{literals[i]}"]
    if i > 1 and kinds[i - 2] == "num":
        texts.insert(0, "#".join(literals[i - 2 : i + 1]))  # (with the count's total)
    for text in texts:
        told = _KEY_AT.search(text)
        if told is not None:
            return told.group("key")
    return None


# a sentence's end inside a key's text, and the shortened words whose period ends none (`avg. loss`, `mem avg.
# loss`: a continual learner's "==>>> it: {}, mem avg. loss: {:.6f}, running mem acc: {:.3f}")
_SENTENCE_END = regex.compile(r"(?P<word>\w*)\. ")
_ABBREVIATED = frozenset(
    {"avg", "ave", "tot", "approx", "est", "cur", "curr", "no", "num", "max", "min", "std"}
)


def _sentence_key(label: str) -> str:
    """The key of a value a sentence states: the words after the sentence before it ends (`records/second. Loss
    is`: the previous value's unit, then this one's key) without the verb (BigDL's DistriOptimizer logs
    s"... Trained $batchSize records in $time seconds. Throughput is $throughput records/second. Loss is $loss.
    Current learning rate is $lr. ...", bigdl/optim/DistriOptimizer.scala)."""
    ends = [m.end() for m in _SENTENCE_END.finditer(label) if m.group("word").lower() not in _ABBREVIATED]
    if ends:
        label = label[ends[-1] :]
    words = label.split()
    levels = [k for k, w in enumerate(words[:-1]) if w.strip("[]:") in _LEVELS and len(w.strip("[]:")) > 1]
    if levels:
        # (a logger's level and what its format prints before it are no part of the key: FuxiCTR's
        # '%(asctime)s P%(process)d %(levelname)s %(message)s', `... P834 INFO Train loss: 0.461620`)
        words = words[levels[-1] + 1 :]
        label = " ".join(words)
    if len(words) >= 2 and words[-1].lower() in _COPULAS:
        words = words[:-1]
        label = " ".join(words)
    if len(words) >= 2 and words[0].lower() in ("the", "a", "an"):
        # (a sentence's article is no word of the key: LXMERT's "The valid loss is %0.4f")
        label = " ".join(words[1:])
    return label


def label_of(literals: Sequence[str], kinds: Sequence[str], i: int) -> tuple[str, str | None, bool]:
    """(key, unit, rate) of value i: the rate unit printed after it names it (`22,892 tok/s`), else the key
    printed before it (what follows the previous value's unit); the unit printed after it."""
    after = literals[i + 1]
    if kinds[i] == "num":
        rate = _RATE_AFTER.match(after)
        if rate:
            return rate.group(1), None, True
        scaled = _SCALE_BEFORE_RATE.match(after)
        rate = _RATE_AFTER.match(after[scaled.end() :]) if scaled is not None else None
        if rate and scaled is not None:
            return rate.group(1), scaled.group("scale").upper(), True  # `113.4k tok/s`: thousands a second
    before = _before(literals, kinds, i)
    m = _LABEL.search(before)
    label = (m.group("key") or m.group("quoted")).strip() if m else ""
    if m is not None and m.group("key"):
        bars = regex.search(r"\|{1,2}$", before[: m.start("key")])
        if bars is not None and before[m.end("key") :].startswith(bars.group()):
            label = f"{bars.group()}{label}{bars.group()}"  # a norm between bars (`|g| 4.55`): the key model's bars
    tag = _STAGE_TAG.search(before[: m.start("key")] if m is not None and m.group("key") else before)
    if tag is not None and label and tag.group("word").lower() in keymap_mod.STAGE_WORDS:
        label = f"{tag.group('word')} {label}"  # `[val] loss=3.9`: the tag says whose the key is
    elif tag is not None and not label and not before[: tag.start()].strip(" |,+"):
        label = tag.group("word")  # `[lr] 0.00002`: the tag is the key (at the line's start or after a value)
        if label.lower() in keymap_mod.STAGE_WORDS and kinds[i] == "num":
            unit_m = keymap_mod.UNIT_AFTER.match(after)
            if unit_m is not None and unit_m.group("unit") in _TIME_UNITS:
                label = f"{label} time"  # (a stage's seconds: `(train)1.4s + (eval)0.4s`, each stage's time)
    label = _FILE_OPENING.sub("", label)
    if _CODE_FILE.search(label) or label.count(".") >= 3 or _SOURCE_LINE.search(before):
        # a source location (`train.py:323`, logging's "%(filename)s - %(funcName)s - %(lineno)d": `main.py - train
        # - 52 - `) or a module's path, no key
        label = ""
    if not label and kinds[i] == "num":
        # the key before a bracket that says when the value was measured, or a key in square brackets (`[loss]:
        # 4.99`: liuslnlp/CoupletAI's "[epoch]: {}, [batch]: {}, [loss]: {}")
        label = _key_before_bracket(literals, i)
        boxed = None if label else _BOXED_KEY.search(before)
        if boxed is not None:
            label = boxed.group("key")
    label = _key_told_at(literals, kinds, i) or label  # (the key, when it was measured, its value)
    label = _sentence_key(label)
    if not regex.search(r"\w", label):
        label = ""  # (the quotes between a list's strings, `'93.9', '91.5'`, are no key)
    if before.rstrip().rstrip("'\"").endswith("[") and after.lstrip("'\"").lstrip().startswith(","):
        # the first item of a printed list (`INFO:name:[3.0, 1.49, ...]`, `IoU: ['93.9', '91.5', ...]`): no key's
        # value
        label = ""
    ordinal = _ordinal_word(literals, kinds, i)
    if ordinal is not None:
        return ordinal, None, False
    glued = _WORD_AFTER.match(after) if kinds[i] == "num" else None
    if glued is not None:
        return glued.group("word"), None, False
    unit_m = keymap_mod.UNIT_AFTER.match(after) if kinds[i] == "num" else None
    if unit_m is None and not label and kinds[i] == "num":
        # `v word, v word, ...`: a word after a value with no key names it, or is its unit (darknet's detector.c
        # train_detector: "%ld: %f, %f avg, %f rate, %lf seconds, %d images")
        named = (_NAME_AFTER if i + 2 < len(literals) else _NAME_LAST).match(after)
        if named is not None:
            word = named.group("word")
            return ("", word, False) if word.lower() in _TIME_UNITS else (word, None, False)
    if not label and unit_m is not None and _SPACED_SECONDS.match(after):
        # (`[95.6 s]`: the seconds' own bracket, as `[138.0s]` is)
        return unit_m.group("unit"), unit_m.group("unit"), False
    return label, (unit_m.group("unit") if unit_m else None), False


_SPACED_SECONDS = regex.compile(r"\s[smh][\])]")


def _key_before_bracket(literals: Sequence[str], i: int) -> str:
    """The key of a value printed after a bracket that says what it was measured at, the key before the bracket
    (PyTorch-StudioGAN's logger: "FID score (Step: 2000, Using train moments): 324.56"; "Inception score (Step:
    2000, 14630 generated images): 1.86"), or ''."""
    text = "".join(literals[: i + 1]).rstrip()
    if not text.endswith((":", "=")) or not text[:-1].rstrip().endswith(")"):
        return ""
    depth, k = 0, len(text[:-1].rstrip()) - 1
    while k >= 0:
        depth += {")": 1, "(": -1}.get(text[k], 0)
        if depth == 0:
            break
        k -= 1
    if k <= 0 or _MEASURED_AT.search(text[k:]) is None:
        return ""  # (an aside of another kind, `Loss (avg over last 100):`, is the key's own: _aside_number)
    m = _LABEL.search(text[:k])
    return (m.group("key") or "").strip() if m is not None else ""


# a key in square brackets before its separator
_BOXED_KEY = regex.compile(
    rf"(?:^|(?<=[\s,;|]))\[ *(?P<key>{_WORD_RX}(?:[ \t]{_WORD_RX}){{0,3}}) *\]\s*(?:[:=]\s*|[ \t]+)$"
)  # (its name padded to a width inside the brackets: CascadePSP's `[grad_loss          ]: 0.0108861`; or blanks
# alone after it: LION's trainer logs "[Loss] 335.14 | ... | [step]    70")


# a counter's word in the bracket, its number gone from the text: `(Step: , Using train moments)`
_MEASURED_AT = regex.compile(r"(?i)\b(?:step|iter|iteration|epoch|round)\b\s*[:=#]?\s*[,)]")


# A CJK ordinal names its number by the word after it: `第 3 轮` (the 3rd epoch), `第 3/10 轮`, `第120步` (the
# 120th step), `第{start_epoch}个epoch` (print strings of public loops: f'第 {epoch + 1}/{epochs} 轮, 损失: {loss}')
_ORDINAL = regex.compile(r"第\s?$")
_ORDINAL_WORD = regex.compile(rf"^\s?(?P<word>[{keymap_mod.CJK_LETTERS}]+[A-Za-z]*)")


def _ordinal_word(literals: Sequence[str], kinds: Sequence[str], i: int) -> str | None:
    if kinds[i] != "num" or not _ORDINAL.search(literals[i]):
        return None
    after = literals[i + 1]
    if after.strip() == "/" and i + 2 < len(literals):
        after = literals[i + 2]  # (its total between)
    m = _ORDINAL_WORD.match(after)
    return m.group("word") if m is not None else None


# a word after a value and before the next separator (or the line's end): `517.63 avg, 0.001 rate, 351.3 seconds`
_NAME_AFTER = regex.compile(r"^ (?P<word>[A-Za-z][A-Za-z_]*(?: [A-Za-z][A-Za-z_]*)?)(?=\s*[,;|])")
_NAME_LAST = regex.compile(r"^ (?P<word>[A-Za-z][A-Za-z_]*(?: [A-Za-z][A-Za-z_]*)?)\s*$")


_TIME_UNITS = frozenset({"ms", "us", "µs", "s", "sec", "secs", "second", "seconds", "min", "mins"})


# logging.basicConfig's default format, BASIC_FORMAT = "%(levelname)s:%(name)s:%(message)s" (TensorFlow 1's
# tf.logging writes it so: `INFO:tensorflow:[  5000] | gnorm ...`)
LOGGING_PREFIX = regex.compile(r"^\s*(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL):[\w.<>-]+:")


def _before(literals: Sequence[str], kinds: Sequence[str], i: int) -> str:
    """The text before value i that may hold its key: what follows the previous value's unit, or on the line's
    first value what follows Python logging's default prefix ('%(levelname)s:%(name)s:', `INFO:tensorflow:`: the
    logger's name is no key)."""
    before = literals[i]
    if i == 0:
        prefix = LOGGING_PREFIX.match(before)
        before = before[prefix.end() :] if prefix is not None else before
    if i > 0:
        unit = _RATE_AFTER.match(before) or keymap_mod.UNIT_AFTER.match(before) or _NAME_AFTER.match(before)
        if unit is not None and kinds[i - 1] == "num":
            before = before[unit.end() :]
    return before


def _name_keyless_time(rec: RecordShape) -> None:
    """The one time a step record prints with no key (OpenNMT-py's `...; 6641 sec`, llm.c's `(12.34 ms | ...)`)
    is keyed by its unit, which the key model reads as a time; its values say whether it is the step's or a
    clock's (_timed). Several (scepter's `[35secs 2.00%(29mins 15secs)]`, elapsed and left): none is known."""
    sh = rec.shapes[0]
    units = {j: _keyless_time(sh.literals, sh.kinds, j) for j in range(len(sh.kinds))}
    keyless = [j for j, u in units.items() if u and u != "m"]
    # (a glued `m` only where no other unit says time, and as a clock: a bare `12.5m` may count millions)
    minutes = [j for j, u in units.items() if u == "m"] if not keyless else []
    if len(keyless) == 1:
        slot = rec.slots[keyless[0]]
        if slot.role == "value" and not slot.label and slot.unit:
            slot.label = slot.unit
    elif len(minutes) == 1:
        slot = rec.slots[minutes[0]]
        if slot.role == "value" and not slot.label and _clock([v for _, v in rec.series(slot.index)]) is True:
            slot.label = "min"


def _counter_clock(rec: RecordShape, slot: Slot) -> bool:
    """A number with no key or unit printed inside the brackets of the step counter, after it, with decimals, whose
    values grow with the steps as a clock's do (_grows_with_steps): the seconds since training began (nshepperd's
    gpt-2 train.py and minimaxir/gpt-2-simple gpt_2.py: '[{counter} | {time:2.2f}] loss={loss:2.2f} avg={avg:2.2f}'
    with time=time.time() - start_time)."""
    if rec.counter is None or slot.role != "value" or slot.kind != "num" or slot.unit:
        return False
    lits = rec.shapes[0].literals
    opened = lits[rec.counter].rstrip()[-1:]
    if opened not in ("[", "(") or slot.index != rec.counter + 1:  # (right after the counter)
        return False
    closing = {"[": "]", "(": ")"}[opened]
    between, after = lits[slot.index], lits[slot.index + 1].lstrip()
    if closing in between or "[" in between or "(" in between or not after.startswith(closing):
        return False
    texts = [v for _, v in rec.series(slot.index)]
    return all("." in t for t in texts) and _grows_with_steps(texts, _counts(rec))


def _bare_time(slot: Slot) -> bool:
    """A value keyed by nothing but its time unit (`6641 sec`)."""
    # (`0.3m` is keyed `min`, the word the key model reads: _name_keyless_time)
    unit = None if slot.label == "min" and slot.unit == "m" else slot.unit
    return slot.label.lower() in _TIME_UNITS and unit in (None, slot.label)


def _keyless_time(literals: Sequence[str], kinds: Sequence[str], j: int) -> str | None:
    """The time unit of value j when it is printed with one and with no key before it (a lowercase `m` glued on
    is minutes: Aria-AI's aria/pretrain.py ends its step line with f"{elapsed / 60:.1f}m", nanochat's
    base_train.py "total time: {total_training_time / 60:.2f}m"; _name_keyless_time asks its values to rise)."""
    if kinds[j] != "num":
        return None
    label, unit, rate = label_of(literals, kinds, j)
    return unit if not label and not rate and (unit in _TIME_UNITS or unit == "m") else None


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORDS.findall(keymap_mod.english(text).replace("_", " "))]


# a logging level standing as its own word: the logger's prefix ends there, the message follows
_LEVEL_WORD = regex.compile(r"(?<![\w.])(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)(?![\w.])")


def _message(text: str) -> str:
    """A line's text after its logging level, where it prints one: the logger's name before it says nothing of
    the record (a script's logger named `train` prints its `Valid Epoch:` lines too, '[%(asctime)s]: %(name)s
    [line:%(lineno)s] %(levelname)s  %(message)s')."""
    level = _LEVEL_WORD.search(text)
    return text[level.end() :] if level is not None else text


def _names_training(text: str) -> bool:
    """Whether a record's text (outside its keys) names the training's stage in a word of its own."""
    return bool({w.lower() for w in _OWN_WORDS.findall(text)} & _TRAIN_STAGE)


def _eval_marks(text: str) -> frozenset[str]:
    """The evaluation words a record's text (outside its keys) says of itself; a training flag it prints as off
    says `eval` (ChangeFormer's trainer prints 'Is_training: %s. [%d,%d][%d,%d], ...' of its is_training flag, the
    same line for a training and a validation batch)."""
    words = _OWN_WORDS.findall(keymap_mod.english(text))
    marks = frozenset(w for w in (m.lower() for m in words) if w in OWN_EVAL_WORDS)
    return marks | {"eval"} if _TRAINING_OFF.search(text) else marks


# a flag that says the line is not the training's: `Is_training: False`, `training=False`, `train: false`
_TRAINING_OFF = regex.compile(
    r"(?i)(?<![A-Za-z])(?:is_?)?train(?:ing)?['\"]?\s*[:=]\s*(?:false(?!\w)|0(?![\w.]))"
)


def _is_int(texts: Iterable[str]) -> bool:
    return all(t.isdigit() for t in texts)


def _ints(texts: Iterable[str]) -> list[int]:
    return [int(t) for t in texts]


@dataclass
class RecordShape:
    """A shape (or several that differ only in literal text no value depends on) read as one kind of record."""

    shapes: list[SampledShape]
    slots: list[Slot]
    kind: str = "step"  # step | eval | block (a line of another record's block) | none
    counter: int | None = None  # slot index of the step counter
    epoch: int | None = None
    total: int | None = None
    named: bool = False  # the counter is named like one (step, iter, ...)
    whole: bool = False  # the counter is printed as a float (`49.0`, `1.11e+04`)
    epoch_base: int = 0  # what the printed epoch counts from
    redrawn: bool = False  # a record redrawn in place as a progress display moves: a step's last line counts
    counts_from: int | None = None  # what the counter counts from, when it is a position within an epoch
    head: RecordShape | None = None  # for a block line: the record it belongs to
    attach: str | None = None  # for a block line: "previous" (after the head) or "next" (before it)
    members: int = 0  # for a step record: the lines of its block
    # its counter rises with its progress bar's iterations (_paced), or its bar with the step's (_paced_by_bar)
    paced: bool = False
    counter_scale: int = 1  # the counter is printed in thousands (`Step: 89k`) or millions
    fuller: bool = False  # a step record's line that prints more keys once (_fuller_first_lines)
    beside: bool = False  # a progress bar counting the steps another record counts (its rate is not read)
    # an epoch line before the steps of the one epoch in view: it says the epochs planned, but whether the
    # counter after it counts within the epoch or the whole run is not shown
    leads: bool = False
    # a line that continues a step printed in place of another that does, never beside it (TFLearn's optimizer line
    # with the snapshot's `val_loss` instead of the one without): its keys take their columns again
    instead: bool = False
    several: bool = False  # a line that continues a step, printed several times a step (one per optimizer)
    own_count: bool = False  # an evaluation whose counter counts its own batches or samples, not the steps
    at_steps: bool = False  # an evaluation whose counter, though named for it, prints the training steps
    columns: tuple[str, ...] = ()  # the names of the header a table's row stands under

    @property
    def count(self) -> int:
        return sum(sh.count for sh in self.shapes)

    @property
    def first(self) -> int:
        return min(sh.first for sh in self.shapes)

    def placed(self, index: int) -> list[tuple[tuple[int, int], str]]:
        """((slice, place), value) of slot `index` over the record's lines, in sample order."""
        return sorted(
            (where, values[index])
            for sh in self.shapes
            for where, values in zip(sh.seen, sh.values, strict=False)
        )

    def series(self, index: int) -> list[tuple[int, str]]:
        """(slice, value) of slot `index` over the record's lines, in sample order."""
        return [(s, v) for (s, _), v in self.placed(index)]


def _slots(sh: SampledShape) -> list[Slot]:
    slots = []
    named = _TAGGED.search(" ".join(sh.literals))
    for i, kind in enumerate(sh.kinds):
        label, unit, rate = label_of(sh.literals, sh.kinds, i)
        if named is not None and keymap_mod.normalize(label) in _VALUE_KEYS:
            label = named.group("name")  # a metric in long form: its value is the tag's
        slots.append(Slot(i, kind, label, unit, rate))
        if kind == "num" and _SOURCE_LINE.search(_before(sh.literals, sh.kinds, i)):
            slots[-1].role = "skip"  # (the line of the code that logged it: the logger's prefix)
        elif kind == "num" and i and slots[i - 1].role == "skip" and sh.literals[i] == "[":
            slots[-1].role = "skip"  # (the process id after it)
    _pair_joined(sh, slots)
    _names_listed(sh, slots)
    _names_zipped(sh, slots)
    _same_in_every_group(sh, slots)
    _part_and_whole(sh, slots)
    _per_steps(sh, slots)
    _ranges(sh, slots)
    _windowed_key(sh, slots)
    _count_in_key(sh, slots)
    _tagged_number(sh, slots)
    _aside_number(sh, slots)
    _wrapped_values(sh, slots)
    _stage_sections(sh, slots)
    for slot, nxt in zip(slots, slots[1:], strict=False):
        # `key (other): v (w)`: the bracket after the key names the value in brackets after the key's own (BasicSR
        # basicsr/utils/logger.py MessageLogger: f'time (data): {iter_time:.3f} ({data_time:.3f})] ')
        m = _KEY_BRACKET.match(slot.label)
        stage = m is not None and any(
            w in EVAL_WORDS or w in ("train", "training") for w in _words(m["other"])
        )
        if m and not stage and slot.kind == nxt.kind == "num" and not nxt.label and _average(sh, nxt):
            slot.label, nxt.label, nxt.bracketed = m.group("key"), m.group("other"), True
    return slots


# a stage's heading between a line's values, before a key: `Val:`, `valid=<its split's name>`, `[test]`
_STAGE_HEADING = regex.compile(
    r"(?:(?<![\w-])(?P<word>[A-Za-z]+)\s*(?::|=(?P<split>[^\s=:,;|]+)?)|\[(?P<tag>[A-Za-z]+)\])\s*$"
)


def _stage_sections(sh: SampledShape, slots: list[Slot]) -> None:
    """A line that prints a training's values, then a stage's heading and that stage's values under the same keys
    (`Train: loss 2.31 acc 0.41 | Val: loss 2.52 acc 0.38`; mravanelli/pytorch-kaldi's res.res `ep=00
    tr=['TIMIT_tr'] loss=5.633 err=0.731 valid=TIMIT_dev loss=2.810 err=0.506 lr_architecture1=0.0016`): each key
    after an evaluation's heading is that stage's (`Val loss`) until another heading; the keys before the first
    heading and after a training's are the line's own. A heading before the line's first value heads the whole
    record (the record says what it is: _evaluation)."""
    stages = keymap_mod.STAGE_WORDS | keymap_mod.EVAL_WORDS
    stage: str | None = None
    own: set[str] = set()  # the keys the line printed before an evaluation's heading
    first = next((s.index for s in slots if s.kind == "num"), None)
    for slot in slots:
        if slot.kind != "num" or slot.rate or not slot.label or slot.index == first:
            continue
        before = _before(sh.literals, sh.kinds, slot.index)
        at = before.rfind(slot.label)
        label = slot.label
        m = None
        if at >= 0 and " " in label:
            # (`valid=TIMIT_dev loss=`: the split's name read as the key's first word)
            first, rest = label.split(" ", 1)
            m = _STAGE_HEADING.search(before[: at + len(first)])
            if m is not None and m.group("split") == first:
                label = rest
            else:
                m = None
        if m is None and at > 0:
            m = _STAGE_HEADING.search(before[:at])
        word = (m.group("word") or m.group("tag")).lower() if m is not None else ""
        if word in stages:
            stage = None if word in keymap_mod.TRAIN_WORDS else word
        if stage is None:
            own.add(label.lower())
        elif label.lower() in own and not {w.lower() for w in _words(label)} & stages:
            slot.label, slot.staged = f"{stage} {label}", True
        elif own:
            # (a metric of the evaluation's own after the line's training values: THUwangcy/ReChorus's BaseRunner
            # 'Epoch {:<5} loss={:<.4f} [{:<3.1f} s]    dev=({}) [{:<.1f} s] ': the line is the epoch's)
            slot.staged = True


_SLASHED_UNIT = regex.compile(r"^(?P<unit>[A-Za-zµ]+)/$")
# names listed with a separator before values listed with the same one (`loss min|avg|max: 0.736|0.973| 3.527`)
_LISTED_NAMES = regex.compile(
    r"(?:(?<![\w-])(?P<base>[A-Za-z][\w-]*)\s+)?(?P<names>[A-Za-z][\w@-]*(?:(?P<sep>[|/])[A-Za-z][\w@-]*)+)\s*[:=]\s*$"
)


def _names_listed(sh: SampledShape, slots: list[Slot]) -> None:
    """`key a|b|c: x|y|z`: each value is the key's under the name at its place in the list (VisualComputingInstitute/
    triplet-reid train.py logs 'loss min|avg|max: {:.3f}|{:.3f}|{:6.3f}', the batch's per-sample losses:
    `min loss`, `avg loss`, `max loss`)."""
    for slot in slots:
        m = _LISTED_NAMES.search(sh.literals[slot.index])
        if m is None or slot.kind != "num":
            continue
        names = m["names"].split(m["sep"])
        run = slots[slot.index : slot.index + len(names)]
        if len(run) < len(names) or any(s.kind != "num" for s in run):
            continue
        if any(sh.literals[s.index].strip() != m["sep"] for s in run[1:]):
            continue
        for s, name in zip(run, names, strict=True):
            s.label = f"{name} {m['base']}" if m["base"] else name


# a list of two names or more, then what joins them to their values (`[Avg. Loss, Loss]: `, `round, loss, acc ===> `),
# and the list of values after it opening; or, after a list of values, the list of their names in brackets and the
# key of the value after it (`Loss [1, 100](epoch, minibatch): `)
_NAMES_THEN_VALUES = regex.compile(
    r"(?:^|[\s\[(:|-])\[?(?P<names>[A-Za-z][\w. ]*(?:\s*,\s*[A-Za-z][\w. ]*)+?)\s*[\])]?\s*"
    r"(?::|=|=+>|-+>|→)\s*[\[(]?\s*$"
)
_VALUES_THEN_NAMES = regex.compile(
    r"^\s*[\])]\s*\((?P<names>[A-Za-z]\w*(?:\s*,\s*[A-Za-z]\w*)+)\)\s*[:=]\s*$"
)
_KEY_BEFORE_LIST = regex.compile(r"(?:^|\s)(?P<key>[A-Za-z][\w.]*(?: [A-Za-z][\w.]*)?)\s*[\[(]\s*$")
_LIST_COMMA = regex.compile(r"^\s*,\s*$")


def _list_run(sh: SampledShape, nums: list[Slot], unlabelled: bool = False) -> list[Slot]:
    """The numbers of a printed list from the first of `nums` on: the values after it each behind a comma alone
    (and with no key of their own, where `unlabelled`)."""
    run = nums[:1]
    for nxt in nums[1:]:
        if nxt.index != run[-1].index + 1 or not _LIST_COMMA.match(sh.literals[nxt.index]):
            break
        if unlabelled and nxt.label:
            break
        run.append(nxt)
    return run


def _names_zipped(sh: SampledShape, slots: list[Slot]) -> None:
    """A list of names and a list of values side by side, each value the name at its place: names first
    (Gillis/GPTime's train.py logs f"Epoch {epoch}\t[Avg. Loss, Loss]: [{avg:.4f}, {loss:.4f}], {n}";
    hyrun/kgcn's run_toxicity.py "train, round, loss, acc, auc  ===> %03d, %.5f, %.5f, %.5f," after a leading
    stage word that names no value) or values first, their names in brackets after them and the key of the value
    after those (JayPatwardhan/ResNet-PyTorch's notebook: print('Loss [%d, %d](epoch, minibatch): ' % (epoch + 1,
    i + 1), running_loss / 100))."""
    nums = [s for s in slots if s.kind == "num"]
    for n, slot in enumerate(nums):
        run = _list_run(sh, nums[n:])
        if len(run) < 2:
            continue
        m = _NAMES_THEN_VALUES.search(sh.literals[slot.index])
        if m is not None:
            names = [w.strip() for w in m["names"].split(",")]
            stage = names[0].lower() in keymap_mod.STAGE_WORDS | _TRAIN_STAGE
            if len(names) == len(run) + 1 and stage:
                names = names[1:]  # (the stage the line reports, no value's name)
            if len(names) == len(run):
                for s, name in zip(run, names, strict=True):
                    s.label = name
                return
        after = run[-1].index + 1
        m = _VALUES_THEN_NAMES.match(sh.literals[after]) if after < len(sh.literals) else None
        if m is None:
            continue
        names = [w.strip() for w in m["names"].split(",")]
        if len(names) != len(run):
            continue
        for s, name in zip(run, names, strict=True):
            s.label = name
        key = _KEY_BEFORE_LIST.search(sh.literals[slot.index])
        following = next((s for s in slots if s.index == after), None)
        if key is not None and following is not None and following.kind == "num":
            following.label = key["key"]
        return


_KEYED_LIST = regex.compile(r"(?:^|[\s,;|{(])['\"]?(?P<key>[A-Za-z][\w.-]*)['\"]?\s*[:=]\s*\[\s*$")


def _same_in_every_group(sh: SampledShape, slots: list[Slot]) -> None:
    """`key: [a, b]`, a list of numbers under one key whose items are one number on every line: the key's value, once
    (CoreNet's "LR: [0.00043, 0.00043]", the rate of each parameter group, all of them one schedule's); the other
    items say it again. A list whose items differ stays unread: which item is the key's is not known."""
    nums = [s for s in slots if s.kind == "num"]
    for n, slot in enumerate(nums):
        keyed = None if slot.label else _KEYED_LIST.search(sh.literals[slot.index])
        if keyed is None:
            continue
        run = _list_run(sh, nums[n:], unlabelled=True)
        after = run[-1].index + 1
        if len(run) < 2 or after >= len(sh.literals) or not sh.literals[after].lstrip().startswith("]"):
            continue
        if not all(len({v[s.index] for s in run}) == 1 for v in sh.values):
            continue
        slot.label = keyed["key"]
        for other in run[1:]:
            other.role = "skip"


def _part_and_whole(sh: SampledShape, slots: list[Slot]) -> None:
    """`key: a<unit>/b<unit>`: two times of one key, each with its unit, where the second is at least the first on
    every line: the part, then the whole that holds it; both are the key's, and the longest time of the record is
    the step's (_longest_time). PaddlePaddle/Parakeet's trainers (examples/waveflow/train.py, wavenet, tacotron2,
    transformer_tts train_batch) take start = time.time(), read the batch, data_loader_time = time.time() - start,
    run the step, iteration_time = time.time() - start, and print "time: {:>.3f}s/{:>.3f}s, ".format(
    data_loader_time, iteration_time). Where the second is ever below the first (a value and its running
    average), the pair is left as printed."""
    for slot, nxt in zip(slots, slots[1:], strict=False):
        m = _SLASHED_UNIT.match(sh.literals[nxt.index])
        if m is None or m["unit"] not in _TIME_UNITS or nxt.unit != m["unit"]:
            continue
        if slot.kind != "num" or nxt.kind != "num" or not slot.label or slot.rate or slot.unit:
            continue
        pairs = [(_number(v[slot.index]), _number(v[nxt.index])) for v in sh.values]
        if not pairs or any(a is None or b is None or b < a for a, b in pairs):
            continue
        slot.unit, nxt.label = m["unit"], slot.label


def _ranges(sh: SampledShape, slots: list[Slot]) -> None:
    """`Batch [a-b]`: a range of counts, each line's starting where the one before it ended; its end is the count
    done, the key's (MXNet's Speedometer, python/mxnet/callback.py: 'Epoch[%d] Batch [%d-%d]\tSpeed: %.2f
    samples/sec', count - frequent to count). Its start is no value of the line's."""
    for i, (slot, nxt) in enumerate(zip(slots, slots[1:], strict=False)):
        if slot.kind != "num" or nxt.kind != "num" or nxt.label or sh.literals[i + 1] != "-":
            continue
        pairs = [(_whole(v[i]), _whole(v[i + 1])) for v in sh.values]
        if len(pairs) < 2 or any(a is None or b is None or b <= a for a, b in pairs):
            continue
        # (a new epoch starts its range again from 0, and the sample's slices are apart)
        nearby = [
            (earlier, later)
            for (s1, earlier), (s2, later) in zip(
                zip(sh.seen, pairs, strict=False), zip(sh.seen[1:], pairs[1:], strict=False), strict=False
            )
            if s1[0] == s2[0]
        ]
        joined = sum(later[0] == earlier[1] for earlier, later in nearby)
        if joined < 2 or joined * 4 < len(nearby) * 3:
            continue
        nxt.label, slot.label, slot.role = slot.label, "", "skip"


_WINDOW_CLOSE = regex.compile(r"\]\s*[:=]\s*$")


def _windowed_key(sh: SampledShape, slots: list[Slot]) -> None:
    """`key [a-b]: v`: the bracket after the key names the span of steps its value covers, and the value follows it
    (NumPyro's SVI bar, numpyro/infer/svi.py run(): t.set_postfix_str("init loss: {:.4f}, avg. loss [{}-{}]:
    {:.4f}".format(...)), the mean loss of steps a to b): the key's value is the number after the bracket, the two
    in it none of the line's values."""
    for i in range(len(slots) - 2):
        start, end, value = slots[i], slots[i + 1], slots[i + 2]
        if not start.label or any(s.kind != "num" for s in (start, end, value)) or value.label:
            continue
        if not sh.literals[i].rstrip().endswith("[") or sh.literals[i + 1].strip() != "-":
            continue
        if _WINDOW_CLOSE.match(sh.literals[i + 2]) is None:
            continue
        value.label, start.label, end.label = start.label, "", ""
        start.role = end.role = "skip"


def _per_steps(sh: SampledShape, slots: list[Slot]) -> None:
    """`key(N iters): v`: the value covers N steps, the number in the key's bracket is none of its own (HugeCTR's
    `Iter: 3000 Time(1000 iters): 5.381177s`, printed every display interval): the key names the value, read per
    step: by a fixed scale where N is the same on every line sampled, else by each line's own N."""
    for i, (slot, nxt) in enumerate(zip(slots, slots[1:], strict=False)):
        if slot.kind != "num" or nxt.kind != "num" or nxt.label or not sh.literals[i].endswith("("):
            continue
        if _PER_STEPS.match(sh.literals[i + 1]) is None:
            continue
        if _count_of(sh, nxt, i):
            nxt.label, slot.label = slot.label, ""
    # ... or after the value (`Elapsed time: 198.7967s(100 iters)`: CosFace_pytorch main.py and its many forks,
    # 'Train Epoch: {} [{}/{} ({:.0f}%)]{}, Loss: {:.6f}, Elapsed time: {:.4f}s({} iters)' with the time since the
    # last print and args.log_interval)
    for i, (slot, nxt) in enumerate(zip(slots, slots[1:], strict=False)):
        if slot.kind != "num" or not slot.label or nxt.kind != "num" or nxt.label:
            continue
        if not sh.literals[i + 1].endswith("(") or _PER_AFTER.match(sh.literals[i + 2]) is None:
            continue
        _count_of(sh, slot, i + 1)
    # ... or a count of its own before the time those steps took (`Ran 100 train steps in 12.34 secs`:
    # trax/supervised/training.py _log_step, 'Ran %d train steps in %0.2f secs'; '{steps} steps in {t:.06}s':
    # mesh-transformer-jax device_train.py): the time is the value's, the count says over how many steps
    for i, (slot, nxt) in enumerate(zip(slots, slots[1:], strict=False)):
        if slot.kind != "num" or nxt.kind != "num" or (nxt.unit or "").lower() not in _TIME_UNITS:
            continue
        if _COUNT_IN.match(sh.literals[i + 1]) is None:
            continue
        if _count_of(sh, nxt, i):
            slot.label, nxt.label = "", "time"
    # ... or the seconds, a slash and the count of steps they took, as one unit (BVLC/caffe src/caffe/solver.cpp
    # Step(): "Iteration " << iter_ << " (" << per_s << " iter/s, " << lapse << "s/" << param_.display() << "
    # iters), loss = " << smoothed_loss_)
    for i, (slot, nxt) in enumerate(zip(slots, slots[1:], strict=False)):
        if slot.kind != "num" or nxt.kind != "num" or slot.rate:
            continue
        unit = _SECONDS_OVER.match(sh.literals[i + 1])
        if unit is None or _PER_AFTER_COUNT.match(sh.literals[i + 2]) is None:
            continue
        if _count_of(sh, slot, i + 1):
            slot.label, slot.unit, nxt.label = "time", unit.group("unit"), ""
            nxt.role = "skip"


def _tagged_number(sh: SampledShape, slots: list[Slot]) -> None:
    """`[s20]`, `[it5/100]`: a number glued to a tag of a letter or two that fills a bracket is an abbreviated
    counter's; the letters name it only where they are a counter's or an epoch's word (`[ep1]`, `[it500]`), else
    the number is an unnamed one, a counter where it rises. sandmanklepfer-crypto/0.5B-AGI-Lab logs/lora.log
    prints '  [s20] ce=1.3487' per logged step and '[ep1] avg=1.3119' per epoch; training scripts print
    f"[S{step}] loss={loss:.4f}  ema={ema_loss:.4f}", f"[ep{epoch}] loss={...:.4f} reg={...:.4f}",
    f"[it{it}/{len(loader)}] loss={...:.3f} ..." alike."""
    for slot in slots:
        before, after = sh.literals[slot.index], sh.literals[slot.index + 1]
        m = _TAG.search(before)
        if slot.kind != "num" or m is None or not after.startswith(("]", "/")):
            continue
        word = m["tag"].lower()
        if word not in COUNTER_WORDS | LOOSE_COUNTER_WORDS | EPOCH_WORDS:
            slot.label, slot.unit = "", None


_TAG = regex.compile(r"\[(?P<tag>[A-Za-z]{1,2})$")


def _count_in_key(sh: SampledShape, slots: list[Slot]) -> None:
    """`key for N steps: v`: a count inside the key says over how many steps the value was measured, no value of
    its own; the key is the words before the count's preposition, the value read per step (kalekarnn/SmolLM2-to-
    DeepSeek-with-MLHA-and-MoE train.py prints every 10 steps f"Step {step}/{num_steps} | Loss: ... | Time for 10
    steps: {time_taken:.2f}s", the time since the previous print; loops that print f"Time elapsed for {interval}
    steps: {elapsed:.6f} seconds" or "Time taken for the last {n} steps: ..." alike)."""
    for i, (slot, nxt) in enumerate(zip(slots, slots[1:], strict=False)):
        if slot.kind != "num" or nxt.kind != "num" or not slot.label or slot.unit:
            continue
        m = _FOR_COUNT.match(slot.label)
        if m is None or _COUNT_KEY_END.match(sh.literals[i + 1]) is None:
            continue
        if _count_of(sh, nxt, i):
            nxt.label, slot.label = m["key"], ""


# the words of a key before a count of steps it covers (`Time for`, `Time elapsed for the last`) ...
_FOR_COUNT = regex.compile(r"(?i)^(?P<key>.*?\w)\s+(?:for|over|in)(?:\s+the)?(?:\s+(?:last|past|previous))?$")
# ... and what follows the count up to the value: the steps' word, the key's end
_COUNT_KEY_END = regex.compile(
    r"^\s*(?:(?:train(?:ing)?|optimi[sz]er)\s+)?(?:iters?|iterations?|steps?|batch(?:es)?)\s*[:=]\s*$"
)


def _count_of(sh: SampledShape, slot: Slot, i: int) -> bool:
    """Read `slot` per step over the count that value i holds: a fixed scale where the count is the same on
    every line sampled, else the line's own count (a field of its own). False where a count is no whole number
    of steps."""
    counts = {_whole(values[i]) for values in sh.values}
    if not counts or None in counts or min(c for c in counts if c is not None) < 1:
        return False
    if len(counts) == 1:
        slot.per = counts.pop() or 1
    else:
        slot.per_of = i
    return True


# a count of steps and the word that ends the phrase before the time they took (`100 train steps in`; dgl-ke's
# train.py logs '[proc {}][Train] {} steps take {:.3f} seconds' every log_interval steps)
_COUNT_IN = regex.compile(
    r"^\s*(?:(?:train(?:ing)?|optimi[sz]er)\s+)?(?:iters?|iterations?|steps?|batch(?:es)?)\s+"
    r"(?:in|takes?|took|cost|costs|used)\s*:?\s*$"
)


_SECONDS_OVER = regex.compile(r"^(?P<unit>s|sec|ms)/$")
_PER_AFTER_COUNT = regex.compile(r"^\s*(?:iters?|iterations?|steps?|batch(?:es)?)\b")
_PER_STEPS = regex.compile(r"^\s*(?:iters?|iterations?|steps?|batch(?:es)?)\)\s*[:=]?\s*$")
_PER_AFTER = regex.compile(r"^\s*(?:iters?|iterations?|steps?|batch(?:es)?)\)")


def _pair_joined(sh: SampledShape, slots: list[Slot]) -> None:
    """Keys joined by slashes before as many values joined by slashes pair up, the words before the first key
    shared by all (GluonNLP scripts/question_answering/run_squad.py: 'Loss span/answer/total={:.4f}/{:.4f}/{:.4f}'
    reads as `Loss span`, `Loss answer`, `Loss total`). A key whose slashes are not one fewer than the values
    after it is one key (`tok/s`, `global_step/max_steps: 10/100` reads as two keys, its counter and total)."""
    for slot in slots:
        head, _, last = slot.label.rpartition(" ")
        names = last.split("/")
        n = len(names)
        if n < 2 or not all(names) or slot.rate or slot.kind != "num" or slot.index + n > len(slots):
            continue
        rest = slots[slot.index + 1 : slot.index + n]
        if any(
            o.kind != "num" or o.label or sh.literals[o.index].strip() != "/" or slots[o.index - 1].unit
            for o in rest
        ) or (slot.index + n < len(slots) and sh.literals[slot.index + n].strip() == "/"):
            continue
        for o, name in zip([slot, *rest], names, strict=True):
            o.label = f"{head} {name}" if head else name


# a key, then an aside in brackets that holds a number, up to that number (`Training Loss (avg over last `) ...
_ASIDE_OPEN = regex.compile(
    rf"(?P<key>{_WORD_RX}(?:[ \t]{_WORD_RX}){{0,3}})\s?\((?P<aside>[A-Za-z][A-Za-z ]*)$"
)
# ... and from the number to the value (`): `, ` steps) = `, `) loss: ` where the key goes on after the bracket)
_ASIDE_CLOSE = regex.compile(
    r"^\s*[A-Za-z ]*\)(?P<after>[ \t][A-Za-z_][\w/.-]*(?: [A-Za-z_][\w/.-]*){0,2})?\s*[:=]\s*$"
)


_COUNTED_OVER = regex.compile(rf"(?P<key>{_WORD_RX}(?:[ \t]{_WORD_RX}){{0,3}})[ \t]+(?:of|over)[ \t]+$")
_COUNTED_UNIT = regex.compile(
    r"^[ \t]+(?:batch(?:es)?|samples?|steps?|iter(?:ation)?s?|examples?|episodes?)\s*[:=]\s*$"
)


def _aside_number(sh: SampledShape, slots: list[Slot]) -> None:
    """`key (words N words): v`: a number in an aside between a key and its value is the aside's (the window of a
    running mean), no value of its own; the key before the bracket names the value (ScalingDown's
    training.py logs "Stage {s}, Epoch {e}, Batch {b}, Training Loss (avg over last 100): {x:.4f}" and the same
    with "Validation Loss"), with the words after the bracket where the key goes on (audiolm-pytorch's
    trainer.py prints f"discr (scale {scale}) loss: {loss:.3f}" for each scale of its multi-scale discriminator).
    Only where the number is the same on every line sampled (a setting, not a measure)."""
    for i, (slot, nxt) in enumerate(zip(slots, slots[1:], strict=False)):
        if slot.kind != "num" or nxt.kind != "num" or slot.rate:
            continue
        m = _ASIDE_OPEN.search(_before(sh.literals, sh.kinds, i))
        close = _ASIDE_CLOSE.match(sh.literals[i + 1])
        if m is None or close is None or (nxt.label and not close.group("after")):
            counted = _COUNTED_OVER.search(_before(sh.literals, sh.kinds, i))
            if (
                counted is not None
                and _COUNTED_UNIT.match(sh.literals[i + 1])
                and len({values[i] for values in sh.values}) == 1
            ):
                # (`key of N batches: v`: the count the value is a mean over, 2s-AGCN's print_log('\tMean test
                # loss of {} batches: {}.'.format(len(loader), np.mean(loss_value))))
                nxt.label, slot.label, slot.unit = counted.group("key").strip(), "", None
            continue
        printed = {values[i] for values in sh.values}
        if len(printed) == 1:
            # (the aside stays in the key, which the key model reads as a gloss: `acc (top 1)` and `acc (top 5)`
            # are two keys)
            tail = sh.literals[i + 1][: sh.literals[i + 1].index(")")]
            aside = f"{m.group('aside')}{printed.pop()}{tail}".strip()
            after = close.group("after") or ""
            nxt.label, slot.label, slot.unit = f"{m.group('key').strip()} ({aside}){after}", "", None


# a value printed as its type's repr: a call of the type's name (dotted) around it, its first argument the number,
# quoted or not, after a key's `=` or `:`
_WRAP_OPEN = regex.compile(
    r"(?P<key>(?<![\w/.@%-])[A-Za-z_][\w/.@%-]*)['\"]?\s*[:=]\s*(?P<type>[A-Za-z_][\w.]*)\(\s*['\"]?$"
)


def _wrapped_values(sh: SampledShape, slots: list[Slot]) -> None:
    """`key=tensor(30.7543, device='cuda:0')`: a value printed as the repr of its type (a tensor's, a numpy
    scalar's, a Decimal's, a JAX array's) is the key's, never the type's name; the numbers after it inside the
    call are the repr's arguments (a device's index), no values. huggingface/peft examples/causal_language_modeling
    peft_prompt_tuning_clm.ipynb: print(f"{epoch=}: {train_ppl=} {train_epoch_loss=} {eval_ppl=}
    {eval_epoch_loss=}") of torch tensors; NumPy 2 scalars print as np.float32(0.25) in a dict's repr
    ({'loss': np.float32(0.25)}); decimal.Decimal as Decimal('0.25'); a JAX array as Array(0.25, dtype=float32)."""
    for i, slot in enumerate(slots):
        if slot.kind != "num":
            continue
        m = _WRAP_OPEN.search(_before(sh.literals, sh.kinds, i))
        if m is None:
            continue
        slot.label = m.group("key")
        # the call's other arguments, up to its closing bracket
        for j in range(i + 1, len(slots)):
            if ")" in sh.literals[j]:
                break
            if slots[j].kind == "num":
                slots[j].label, slots[j].role = "", "skip"


# a metric printed in long form, one record per metric and step, its name a string beside its value (TensorBoard's
# scalar events exported as {"tag": "loss", "step": 1, "value": 1.15}, MLflow's key/value/step, W&B's)
_TAGGED = regex.compile(r"""["']?(?:tag|metric|key|name)["']?\s*[:=]\s*["'](?P<name>[A-Za-z_][\w/.-]*)["']""")
_VALUE_KEYS = frozenset(("value", "simple_value", "scalar_value"))
_KEY_BRACKET = regex.compile(
    r"^(?P<key>[A-Za-z_][\w/.-]*(?: [A-Za-z_][\w/.-]*)*)\s?\((?P<other>[A-Za-z_][\w ]*)\)$"
)


def _signature(sh: SampledShape, slots: list[Slot]) -> tuple[Any, ...]:
    """What shapes must share to be one record: their values' kinds, keys and units, and the evaluation words
    of their text."""
    text = " ".join(sh.literals)
    for slot in slots:
        text = text.replace(slot.label, " ") if slot.label else text
    return (
        tuple(sh.kinds),
        tuple((s.label.lower(), _unit_class(s.unit), s.rate) for s in slots),
        _eval_marks(text),
        sh.literals[0].strip()[:1],
        # (a stamp alone, ruled: a rule of another glyph heads something else, `[time]====` a banner where
        # `[time]----` heads each step's lines, in SpencerSzabados/reflected-diffusion-mlp's logger)
        sh.literals[-1].strip().lstrip(")]>|").strip()[:1] if _stamp_alone(sh) else "",
        _empty_cells(sh),
    )


_COMMAS = regex.compile(r"^[ \t]*,(?:[ \t]*,)*[ \t]*$")


def _empty_cells(sh: SampledShape) -> tuple[int, ...]:
    """Where a row of comma-separated numbers leaves cells empty (`200,7.24,,3e-4` and `200,,7.20,3e-4` fill
    different columns of one CSV: two records, not one with two spellings of its commas)."""
    inner = sh.literals[1:-1]
    if not inner or not all(_COMMAS.match(lit) for lit in inner):
        return ()
    return tuple(lit.count(",") for lit in inner)


def _unit_class(unit: str | None) -> str | None:
    """A unit as records are told apart by: a time in any unit is a time (CatBoost prints `total: 49.3ms
    remaining: 9.81s` on one line, `remaining: 0us` on the last: catboost/libs/loggers/logger.h, the time left
    in the unit that fits), any other unit as printed."""
    return "time" if _time_unit(unit) is not None else unit


def _time_unit(unit: str | None) -> float | None:
    """Seconds per `unit` where it is a unit of time."""
    return None if not unit else keymap_mod.TIME.get(unit) or keymap_mod.TIME.get(unit.lower())


def _mixed_time_units(rec: RecordShape) -> dict[int, list[str]]:
    """The values a record prints in several units of time over its lines: for each, the unit of each of its
    shapes, in the record's order of shapes."""
    units: dict[int, list[str]] = defaultdict(list)
    for sh in rec.shapes:
        for i in range(len(sh.kinds)):
            unit = label_of(sh.literals, sh.kinds, i)[1] if sh.kinds[i] == "num" else None
            units[i].append(unit or "")
    return {
        i: printed
        for i, printed in units.items()
        if len(set(printed)) > 1 and all(_time_unit(u) is not None for u in printed)
    }


def _unit_alternatives(units: list[str]) -> str:
    """A regex of any of the units, the longest first (`ms` before `s`)."""
    return "|".join(map(regex.escape, sorted(set(units), key=len, reverse=True)))


def _counted(rec: RecordShape, km: keymap_mod.KeyMap) -> RecordShape:
    find_counter(rec, km)
    _key_before_counter(rec)
    _epoch_of_uncounted_steps(rec)
    _epoch_in_description(rec)
    return rec


def _epoch_in_description(rec: RecordShape) -> None:
    """A whole number in a bar's description that holds still while the bar fills and rises from bar to bar is
    the epoch the bar draws, whatever word stands before it (RecBole's trainer draws tqdm with desc=f"Train
    {epoch_idx:>5}"; `Train` alone would name the training's loss elsewhere)."""
    bar = _tqdm_count(rec.shapes[0])
    if bar is None or rec.counter != bar or rec.epoch is not None or rec.count < MIN_REPEATS:
        return
    for slot in rec.slots[: bar - 1]:
        if slot.kind != "num" or slot.role != "value" or _share(rec.shapes[0], slot.index):
            continue
        values = [v for _, v in rec.series(slot.index)]
        if not _is_int(values) or not _mostly_held(values):
            continue
        wholes = _ints(values)
        if any(b < a for a, b in zip(wholes, wholes[1:], strict=False)) or len(set(wholes)) < 2:
            continue  # (an epoch does not go back within a run's bars, and turns at least once in view)
        if rec.shapes[0].literals[slot.index].rstrip().endswith("="):
            continue  # (a setting's `key=value`, gsplat's `sh degree=3` as it steps up)
        slot.role, rec.epoch = "epoch", slot.index
        return


def _share(sh: SampledShape, index: int) -> bool:
    """Whether value `index` of a shape is printed as a share, a `%` after it (`50.67% examples`, `99.88 %`)."""
    return sh.literals[index + 1].lstrip().startswith("%")


def _counted_apart(rec: RecordShape, km: keymap_mod.KeyMap) -> list[RecordShape]:
    """The record with its counter found; where its shapes together have none but each has its own, each shape
    is a record of its own: one line printed by two loops whose counters differ in width (CoreNet's
    `Epoch:   0 [    2001/10000000]` for the training's iterations and `[    8004/   10000]` for the validation's
    samples), whose numbers together neither rise nor start again with the epoch."""
    _counted(rec, km)
    if rec.counter is not None or len(rec.shapes) < 2:
        return [rec]
    parts = [_counted(RecordShape([sh], _slots(sh)), km) for sh in rec.shapes]
    if all(part.counter is not None for part in parts):
        return parts
    return [rec]


def records_of(sample: SampledLog) -> list[RecordShape]:
    """The sample's shapes grouped into records (shapes that differ only in text no value's key depends on)."""
    groups: dict[tuple[Any, ...], RecordShape] = {}
    for sh in sorted(sample.shapes.values(), key=lambda s: s.first):
        if not sh.kinds:
            continue
        slots = _slots(sh)
        sig = _signature(sh, slots)
        rec = groups.get(sig)
        if rec is None or len(rec.shapes) >= MAX_VARIANTS:
            groups[sig] = RecordShape([sh], slots)
        else:
            rec.shapes.append(sh)
    for rec in groups.values():
        if len(rec.shapes) > 1:
            _in_first_units(rec)
    return list(groups.values())


def _in_first_units(rec: RecordShape) -> None:
    """A record's values printed in several units of time over its lines, sampled in the unit of its first line:
    what the reading learns from their series (rising, steady) compares like with like."""
    for i, units in _mixed_time_units(rec).items():
        first = _time_unit(units[0]) or 1.0
        for sh, unit in zip(rec.shapes[1:], units[1:], strict=True):
            factor = (_time_unit(unit) or 1.0) / first
            if factor != 1.0:
                sh.values = [(*v[:i], _times(v[i], factor), *v[i + 1 :]) for v in sh.values]


def _times(text: str, factor: float) -> str:
    """A printed number times `factor`, printed again (as is where it reads as no number)."""
    try:
        return repr(float(text.replace(",", "")) * factor)
    except ValueError:
        return text


# ------------------------------------------------------------------------------------------------
# the counter


def _moves(series: list[tuple[int, int]]) -> tuple[int, int, int]:
    """(ups, downs, distinct) of an integer series, within each slice of the sample."""
    ups = downs = 0
    for (s1, a), (s2, b) in zip(series, series[1:], strict=False):
        if s1 != s2:
            continue
        ups += b > a
        downs += b < a
    return ups, downs, len({v for _, v in series})


def _first_word(label: str) -> str:
    words = _words(label)
    return words[0] if words else ""


_QUALIFIER = regex.compile(r"\s?[(\[][^()\[\]]*[)\]]")


# a counter's name in a compound key (`training_iteration`, `cur_step`) unless the compound names a setting
_NOT_A_COUNTER = frozenset(
    {
        "max",
        "min",
        "num",
        "n",
        "total",
        "warmup",
        "eval",
        "save",
        "log",
        "print",
        "val",
        "test",
        "checkpoint",
        "ckpt",
        "decay",
        "accum",
        "accumulation",
        "every",
        "per",
        "interval",
        "freq",
        "gradient",
        "env",
        "this",
        "since",
    }  # (an RL loop's env_step counts environment steps; episodes_this_iter a quantity)
)


# words before a counter's word that make the key a rate of it (rl_games' `fps step: 261574`, the frames per
# second of the stepping phase; `samples per step`)
_RATE_WORDS = frozenset({"fps", "sps", "ips", "per", "speed", "rate", "throughput"})


# the words that name a device or a process: the number after one is its index, never a step's (`GPU 1: 6.1GB/23.7GB`
# lines of a per-device status, `Worker 3 ...`)
# (not `process`: Kaldi's nnet3 training prints its batches as `Process 100/3161(...)`)
_DEVICE_WORDS = frozenset({"gpu", "gpus", "cuda", "device", "devices", "node", "tpu", "npu"})


def _device_named(label: str) -> bool:
    words = _words(label)
    return bool(words) and words[-1] in _DEVICE_WORDS


# the namespaces a metrics dict groups its counters under (eric-mitchell/direct-preference-optimization trainers.py:
# mean_train_metrics['counters/examples'] = self.example_counter, ['counters/updates'] = self.batch_counter)
_COUNTER_SPACES = frozenset({"counters", "counter", "progress", "train", "training", "trainer"})


def _inner_epoch(
    epochs: list[int],
    epoch_of: Callable[[int], int | None],
    within: Callable[[int, int], bool],
    rises_within: Callable[[int, int], bool],
    rising: Callable[[int], bool],
    moves: dict[int, tuple[int, int, int]],
) -> tuple[int | None, int | None]:
    """Of two epochs a record names, an inner loop's within an outer loop's (hbing-l/multi-source's
    train_fg_alpha.py logs 'epoch_out: {eo}, epoch_in: {ei}, loss: {per_ls}', ei from 0 again as eo goes up):
    the inner one is the record's counter, a position within the outer, as a batch is within an epoch. The
    outer one may hold still in view (one outer pass) while the inner rises. Returns (step, epoch), or
    (None, None) where no two epochs nest."""
    for i in epochs:
        e = epoch_of(i)
        if e is None or e == i:
            continue
        if (moves[e][0] > 0 and within(i, e) and rises_within(i, e)) or (
            moves[e][0] == moves[e][1] == 0 and rising(i)
        ):
            return i, e
    return None, None


def _counter_named(label: str, loose: bool = False) -> bool:
    """Whether a key names a step counter: `step`, `Iter(train)`, `global step`, `Val Step`, `training_iteration`,
    ms-swift's `global_step/max_steps`; with `loose`, also `batch`, `iterations`, `i` (a counter only when its
    values rise). A key that names a rate (`fps step`) is none."""
    if loose and label.strip() == "#":
        return True  # (a table's column of numbers headed `#`: spaCy's `E  #  LOSS ...`, the updates so far)
    base = keymap_mod.english(_QUALIFIER.sub("", label)).strip()
    words = base.lower().split()
    if not words or _RATE_WORDS & set(_words(base)[:-1]):
        return False
    names = COUNTER_WORDS | LOOSE_COUNTER_WORDS if loose else COUNTER_WORDS
    if keymap_mod.normalize(base) in names or words[-1] in names:
        return True
    if keymap_mod.normalize(base.split("/")[0]) in names:
        return True
    space, _, name = base.rpartition("/")
    if keymap_mod.normalize(space) in _COUNTER_SPACES and keymap_mod.normalize(name) in names:
        return True  # (a counter under the namespace that groups the counters: `counters/updates`)
    parts = keymap_mod.normalize(base).split("_")
    return len(parts) > 1 and parts[-1] in names and not _NOT_A_COUNTER & set(parts[:-1])


# the words of a compound key that name a setting when it holds still and the count so far when it rises:
# ParlAI's `total_train_updates` counts the updates done, a `total_steps: 10000` printed every line plans them
_SO_FAR = frozenset({"total", "num", "n"})
_RUN_COUNTS = frozenset({"step", "steps", "iter", "iters", "iteration", "iterations", "update", "updates"})


def _so_far_named(label: str) -> bool:
    """Whether a key names the steps or updates done so far (`total_train_updates`, `num_updates`, `n_iter`):
    a counter only where its values rise."""
    parts = keymap_mod.normalize(_QUALIFIER.sub("", label).strip()).split("_")
    before = set(parts[:-1]) & _NOT_A_COUNTER
    return len(parts) > 1 and parts[-1] in _RUN_COUNTS and bool(before) and before <= _SO_FAR


def _global_named(label: str) -> bool:
    """A counter that says it counts the whole run (`global_step`): never a position within an epoch."""
    return "global" in label.lower() or "total" in label.lower()


# the counters named for the batches of an epoch (`Batch 100/1563`, `batch_idx`): their total is the loader's length
_BATCH_COUNTERS = frozenset({"batch", "batches", "batch_idx", "batch_id", "batch_index", "minibatch"})


def _batch_named(label: str) -> bool:
    return keymap_mod.normalize(label) in _BATCH_COUNTERS


def _step_named(label: str) -> bool:
    return keymap_mod.normalize(label) in ("step", "steps", "global_step", "train_step", "training_step")


def _iteration_named(label: str) -> bool:
    return keymap_mod.normalize(label) in ("iter", "iters", "iteration", "iterations", "it")


def _optimizer_named(label: str) -> bool:
    """A counter that says it counts the optimizer's steps (`grad_step`, `optimizer_step`), beside one that counts
    micro-batches: the step is the optimizer's."""
    return keymap_mod.normalize(label) in _OPTIMIZER_COUNTERS


# the words of a key that plan a run's steps or epochs, before a word that counts them (`total step`, `max_iters`,
# `num_steps`, `max_epoch`): a plan, no count
_PLAN_WORDS = frozenset({"total", "max", "num", "n"})


def _after_total(literals: list[str], total: int) -> str:
    """The word printed right after a counter's total, the unit of what it counts (`completed 50 / 500 epochs`),
    singular; "" for none, or for a word that is the next value's key (`112/9500 (epoch 0.589)`)."""
    words = _words(literals[total + 1]) if total + 1 < len(literals) else []
    if not words or (len(words) == 1 and total + 2 < len(literals)):
        return ""
    return words[0].removesuffix("s")


# the words after `epochs` that say they are the ones done so far (sbi's "Training neural network. Epochs trained:
# %s", sbi/inference/trainers/base.py; `epochs completed`, `epochs done`)
_DONE_WORDS = frozenset({"trained", "completed", "done", "finished", "seen"})


def _epoch_named(label: str) -> bool:
    words = _words(label)
    if len(words) >= 2 and words[-2] in ("epochs", "epoch") and words[-1] in _DONE_WORDS:
        return True
    return bool(words) and (
        words[0] in EPOCH_WORDS or (words[-1] in EPOCH_WORDS and words[0] not in _PLAN_WORDS)
    )


_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")


def _unsep(text: str) -> str:
    """A counter printed with thousands separators (BasicSR's `iter: {current_iter:8,d}`) as its digits."""
    return text.replace(",", "") if _THOUSANDS.fullmatch(text) else text


def sh_label(rec: RecordShape, index: int | None) -> str:
    """The key printed before a record's value (empty when none)."""
    return rec.slots[index].label if index is not None else ""


def _totals(rec: RecordShape) -> set[int]:
    """The totals a record prints after its counter (`10/120`): what it counts to."""
    if rec.total is None:
        return set()
    return {t for t in (_whole(v.replace(",", "")) for _, v in rec.series(rec.total)) if t is not None}


def _whole(text: str) -> int | None:
    """The integer a printed counter holds: `120`, and where a key names it, `49.0` or `1.11e+04`."""
    if text.isdigit():
        return int(text)
    try:
        value = float(text)
    except ValueError:
        return None
    return int(value) if math.isfinite(value) and value == int(value) and value >= 0 else None


def find_counter(rec: RecordShape, km: keymap_mod.KeyMap) -> None:
    """Decide the record's step counter, the epoch it starts again with, and the counter's total (sets
    rec.counter, epoch, total and the slots' roles), or leave rec.counter None.

    A counter named so (`step`, `iter`) is the step, rising or steady (several ranks print one step); it is a
    position within an epoch only where it starts again as the epoch goes up. An unnamed one (a bare `N/M`, a
    bracketed integer) must rise, by one stride mostly, over at least MIN_REPEATS lines, and is a position
    within the epoch printed before it unless it goes on rising across an epoch's change (then the epoch, named
    so, is the record's counter). A key that names the steps or updates done so far (`total_train_updates`)
    counts them where it rises, ahead of an unnamed count (the examples seen: ParlAI's `total_exs`). Where an
    epoch's turns outnumber a position's rises in view, the position still rises within each epoch
    (rises_within). `key 0 48.22` reads as the counter 0 and the key's value 48.22 (NVIDIA's Tacotron 2:
    `Train loss {iteration} {loss:.6f}`)."""
    slots = rec.slots
    n = rec.count
    literals = rec.shapes[0].literals
    few = n < MIN_REPEATS
    texts = {s.index: [_unsep(v) for _, v in rec.series(s.index)] for s in slots if s.kind == "num"}
    ints = {i for i, vs in texts.items() if vs and all(v.isdigit() for v in vs)}
    wholes = {i for i, vs in texts.items() if i not in ints and vs and all(_whole(v) is not None for v in vs)}
    series = {i: [(sl, _whole(_unsep(v)) or 0) for sl, v in rec.series(i)] for i in ints | wholes}
    ranked = [i for i in sorted(ints) if keymap_mod.normalize(slots[i].label) in RANK_KEYS]
    if ranked and not few:
        # lines of several ranks interleaved (`... lr 0.00032621 rank 2`): a counter rises within each rank's
        # own lines, so each rank's lines are a sequence of their own (as the sample's slices are)
        ranks = [(sl, int(v)) for sl, v in rec.series(ranked[0])]
        order = sorted(range(len(ranks)), key=ranks.__getitem__)  # (stable: each rank's lines in file order)
        series = {i: [(ranks[k], ser[k][1]) for k in order] for i, ser in series.items()}
    moves = {i: _moves(series[i]) for i in series}

    def rising(i: int) -> bool:
        ups, downs, distinct = moves[i]
        return ups >= 1 and ups >= RISING * (ups + downs) and distinct >= min(n, 2)

    def steady(i: int) -> bool:  # rising, or one step printed by several ranks, or each epoch's again
        ups, downs, _ = moves[i]
        return downs <= (ups + downs) * (1 - RISING) or few or cycles(i)

    def falls(i: int) -> list[int]:
        """The counts a counter falls back to, in order (within one slice of the log)."""
        ser = series[i]
        return [b for (s1, a), (s2, b) in zip(ser, ser[1:], strict=False) if s1 == s2 and b < a]

    def again(i: int) -> bool:
        """Whether a counter falls back to its first count, and only there, again and again."""
        back = falls(i)
        return len(back) >= 2 and set(back) == {series[i][0][1]}

    def cycles(i: int) -> bool:
        """A count that goes back to its first value again and again, rising between: a position within epochs
        the log numbers on other lines, or none (microsoft/recommenders' SLi-Rec notebook: `step 20 , total_loss:
        ...` and `step 40 , ...` each epoch, the epoch on the evaluation line after them)."""
        return again(i) and moves[i][0] >= len(falls(i))

    # `Train loss 0 48.220909`: the key before a counter names the value after it
    for i in sorted(ints):
        nxt = i + 1
        if (
            slots[i].label
            and nxt < len(slots)
            and slots[nxt].kind == "num"
            and not slots[nxt].label
            and nxt not in ints
            and literals[nxt].strip() in ("", ":")
            and (rising(i) or few)
            and not _counter_named(slots[i].label, loose=True)
            and not _AT_COUNTER.search(slots[i].label)
            and not _epoch_named(slots[i].label)
            and not _device_named(slots[i].label)  # (`GPU 1: 6.1GB`: the device's index, then its value)
        ):
            slots[nxt].label, slots[i].label = slots[i].label, ""
            slots[i].shifted = True

    totals = {
        i + 1: i for i in ints if i + 1 in ints and literals[i + 1].strip() == "/"
    }  # denominator -> numerator
    paired: dict[int, int] = {}  # position -> the epoch printed before it, `epoch/position`
    for d, e in list(totals.items()):
        if not few and rising(d) and moves[e][1] == 0 and moves[d][2] > moves[e][2]:
            # a right side that moves while the left stays is no total: `Batch {epoch}/{batch_idx}` (WeNet's
            # executor) prints the epoch before the position, the key naming the pair names the position
            del totals[d]
            paired[d] = e
            if not slots[d].label:
                slots[d].label, slots[e].label = slots[e].label, ""

    def known_other(i: int) -> bool:  # a value the key map knows as something else (consumed samples, tokens)
        label = slots[i].label
        if not label or _counter_named(label, loose=True) or _epoch_named(label):
            return False
        return km.lookup(label, "step") is not None

    # a share (`12%`) is no count
    shares = {i for i in ints if i + 1 < len(literals) and literals[i + 1].startswith("%")}
    # a JSON array of whole numbers reads as one number with thousands separators (szagoruyko's
    # wide-residual-networks logs every option in its json_stats lines, `"epoch_step":[60,120,160]`, the epochs its
    # learning rate drops at): a list of settings, no count
    arrays = {
        i
        for i in ints
        if literals[i].endswith('":[') and literals[i + 1].startswith("]") and "," in rec.series(i)[0][1]
    }
    uncounted = shares | arrays
    candidates = [
        i
        for i in sorted(ints)
        if i not in totals
        and i not in uncounted
        and not known_other(i)
        and not slots[i].rate
        and (slots[i].unit or "").lower() not in _TIME_UNITS  # (`Step: 90ms`: the step's time, no count)
        and i not in ranked
        and not _device_named(slots[i].label)
        # (a cross-validation fold, a seed or a trial numbers a repeat of the whole training, no step of it:
        # `prompt_engineered Fold 1 - Epoch 2 - Train Loss: ...`, jananjahedd/Group-12-LLM)
        and not set(_words(slots[i].label)) & _REPEAT_WORDS
        # (nor does a score's count of the right answers out of all: `Accuracy: 8869/11005 (81%)`)
        and not (
            set(_words(slots[i].label)) & (SCORE_WORDS | {"correct"}) and not _counter_named(slots[i].label)
        )  # (`Acc_iter`, OpenPCDet's accumulated iterations, is a counter)
    ]
    # (an epoch printed as a float with no fraction, `1.000000`, under a column that names it: ma-xu/pointMLP's
    # Logger writes every column of its log.txt as '{0:.6f}', the epoch too)
    if not few:  # (a config's `'epoch': 300.0` printed once is a setting)
        candidates += [i for i in sorted(wholes) if _epoch_named(slots[i].label) and not slots[i].rate]
    # a logger's label names its own counter among the several a line prints (Acme's `[Learner] Actor Steps = 825
    # | ... | Learner Steps = 2`: each logger prints every counter, its own under its label)
    labels = [_words(b) for lit in literals for b in _BRACKETED.findall(lit)]

    def own(i: int) -> bool:
        words = _words(slots[i].label)
        return len(words) >= 2 and words[-1] in COUNTER_WORDS | LOOSE_COUNTER_WORDS and words[:-1] in labels

    def leading(i: int) -> bool:
        """A bracketed integer that opens the line, the record's pairs after it: danijar/dreamer's
        print(f'[{step}]', ' / '.join(f'{k} {v:.1f}' for k, v in metrics)); the bracket names it as a counter by
        its place, as a word would. So does one with its total in the bracket (clovaai/deep-text-recognition-benchmark
        train.py, copied by EasyOCR's trainer/train.py: f'[{iteration+1}/{opt.num_iter}] Train loss: ...')."""
        after = i + 1
        if after in totals and totals[after] == i and literals[after].strip() == "/":
            after += 1  # (`[N/M]`: the total, then the bracket's end)
        return (
            all(k == "ts" for k in rec.shapes[0].kinds[:i])
            and literals[i].strip() == "["
            and regex.match(r"\]\s*:?\s*[A-Za-z_]", literals[after]) is not None
        )

    named = [i for i in candidates if own(i)]
    named += [i for i in candidates if few and leading(i) and i not in named]
    named += [
        i
        for i in candidates
        if (_counter_named(slots[i].label) or slots[i].shifted or _AT_COUNTER.search(slots[i].label))
        and i not in named
    ]
    named += [i for i in sorted(wholes) if _counter_named(slots[i].label) and not slots[i].rate]
    # of several counters named so, the one that says it counts the whole run (MiniLLM's `inner iter: 0/ 4 | ppo
    # epoch: 1/ 4 | global iter: 69/ 160`): the others count within it
    # ... then, of an iteration's and a step's that both rise, the step's: an iteration beside a step counts the
    # micro-batches (litgpt's `iter 100 step 25`) or an outer loop (musyoku/chainer-gqn's `Iteration 26 - loss:
    # ... - step: 143000 - elapsed_time: ...`, passes over the data and the optimizer's updates)
    iterated = any(_iteration_named(slots[j].label) for j in named)
    named.sort(
        key=lambda i: (
            not (_global_named(slots[i].label) or _optimizer_named(slots[i].label)),
            not (iterated and _step_named(slots[i].label) and rising(i)),
        )
    )
    loose = [
        i
        for i in candidates
        if i not in named
        and (_counter_named(slots[i].label, loose=True) or _so_far_named(slots[i].label) or leading(i))
        # (or a batch's position that starts again with each epoch, the epoch printed beside it)
        and (rising(i) or (cycles(i) and _counter_named(slots[i].label, loose=True)))
    ]
    # a counter that holds one value through the log while another of the record rises counts an outer loop run
    # once (theLMbook's GRPO notebook: 'Iteration {it+1}/{num_iterations}, Step {step+1}/{steps}, GRPO iter
    # {g+1}/{mu}, loss: ...' with one iteration): the rising one is the step
    still = [i for i in named if moves[i][0] == moves[i][1] == 0]
    if not few and still and any(rising(i) for i in named + loose if i not in still):
        named = [i for i in named if i not in still]
    # (ahead of an unnamed count: ParlAI's `total_exs:510` counts examples, its `'total_train_updates': 17`
    # the steps); of several, the one that counts the whole run, as of named counters
    loose.sort(key=lambda i: not _global_named(slots[i].label))

    repeats = [i for i in ints if set(_words(slots[i].label)) & _REPEAT_WORDS]
    folded = bool(repeats)
    # (between which lines a repeat of the whole training turns, the next fold or ensemble member)
    lines = max((len(ser) for ser in series.values()), default=0)
    turned = [any(series[r][k][1] != series[r][k + 1][1] for r in repeats) for k in range(lines - 1)]

    def restarted(i: int) -> bool:
        """An epoch that goes back only to its first count (0 or 1), and rises twice as often: the script run
        again into the same file (himanshusaini1001's DNA GAN log: `Epoch 50/50` then `TRAIN started at ...`,
        its parameters, `Epoch 1/100`)."""
        back = falls(i)
        # (or as often where nothing else counts: a cross-validation's epochs, `Fold 2 - Epoch 1 - ...`)
        # (or the same first count at every fall, again and again: the runs a banner on its own line numbers,
        # `Run 2/5 on dataset Cora` then its `Epoch: 1/300 | ...` lines)
        twice = 1 if folded or again(i) else 2
        return not few and bool(back) and all(b <= 1 for b in back) and moves[i][0] >= twice * len(back)

    epochs = [i for i in candidates if _epoch_named(slots[i].label) and (moves[i][1] == 0 or restarted(i))]
    # (of several, one that rises first: the plan's `"max_epoch":200` beside the `"epoch":1` a record counts by,
    # wide-residual-networks' json_stats lines merging every option into the epoch's record)
    epochs.sort(key=lambda i: not (not few and rising(i)))
    numerators = [i for i in candidates if i in totals.values()]

    def regular(i: int) -> bool:
        """A counter printed every so many steps: one stride is most of its rises (a column of a table that
        grows is no counter), or its total stays the same (a progress bar's position)."""
        if i in totals.values() and len({v for _, v in series[i + 1]}) == 1:
            return True
        strides = Counter(
            b - a for (s1, a), (s2, b) in zip(series[i], series[i][1:], strict=False) if s1 == s2 and b > a
        )
        common = strides.most_common(1)[0][1] if strides else 0
        return common >= 2 and common >= 0.5 * sum(strides.values())

    def within(i: int, e: int) -> bool:
        """i goes back only where e goes up: a position within epoch e (and it does go back if e goes up). Or
        where i starts again at its first count (0 or 1) and e does not go up: the run started again in the
        same file (a second launch of the script appends to its log: delta-lab's CasRel logs `【train】 epoch:0
        115/45495`, then its argument Namespace, then `epoch:0 0/45495`)."""
        si, se = series[i], series[e]
        downs = 0
        for k in range(1, len(si)):
            if si[k][0] != si[k - 1][0]:
                continue
            if si[k][1] < si[k - 1][1]:
                if se[k][1] > se[k - 1][1]:
                    downs += 1
                elif si[k][1] > 1:
                    return False
        return downs > 0 or moves[e][0] == 0

    def rises_within(i: int, e: int) -> bool:
        """i rises between lines of one epoch e: a position that starts again at each epoch's turn rises though
        its turns outnumber its rises (a short excerpt over a turn, `[1800/1832]` then `[   0/1832]`, or an epoch
        of few lines)."""
        ups = downs = 0
        # (a repeat of the whole training turning starts the epoch over too)
        for (s1, a), (s2, b), (_, f), (_, g), turn in zip(
            series[i], series[i][1:], series[e], series[e][1:], turned, strict=False
        ):
            if s1 != s2 or f != g or turn:
                continue
            ups += b > a
            downs += b < a
        return ups >= 1 and ups >= RISING * (ups + downs) and moves[i][2] >= min(n, 2)

    def anew_with_repeats(e: int) -> bool:
        """Whether a count falls back only where a repeat of the whole training turns (the next ensemble member
        trains its epochs from the first again: torchensemble's gradient boosting)."""
        ser = series[e]
        back = [k for k in range(len(ser) - 1) if ser[k][0] == ser[k + 1][0] and ser[k + 1][1] < ser[k][1]]
        return bool(back) and all(turned[k] for k in back)

    def epoch_of(i: int) -> int | None:
        """The epoch printed before position i: one named so, the outer of two N/M, or an integer just before a
        bracketed N/M (timm's `Train: 0 [  10/73 (14%)]`), nothing but the bracket between them (a word there
        names the position: `2018 ] Batch(0/1879)`, a stamp's year before ST-GCN's batch)."""
        before = [e for e in candidates if e < i and (moves[e][1] == 0 or anew_with_repeats(e))]
        named_epochs = [e for e in before if e in epochs]
        if named_epochs:
            return named_epochs[-1]
        if i in paired and moves[paired[i]][0] > 0:
            return paired[i]  # (an epoch seen changing: else the position is the only counter the log shows)
        if few:
            return None
        if i in numerators:
            outer = [e for e in before if e in numerators and moves[e][0] <= moves[i][0]]
            if outer:
                return outer[-1]
            bare = not regex.search(r"[A-Za-z]", literals[i])
            if bare and literals[i].strip()[-1:] in "[(" and before and before[-1] == i - 1:
                return i - 1
        return None

    step: int | None = None
    epoch: int | None = None
    paced: list[int] = []
    for i in named:
        e = epoch_of(i)
        # (a position that holds still while the epoch goes up is printed once an epoch, at its end: MindSpore's
        # LossMonitor in sink mode, `epoch: 2 step: 5004, loss is ...`)
        still = moves[i][0] == moves[i][1] == 0
        if (
            e is not None
            and not _global_named(slots[i].label)
            and moves[e][0] > 0
            and (within(i, e) or still)
        ):
            step, epoch = i, e
            break
        if steady(i):
            step = i
            break
    if step is None:
        # (a number that keeps pace with the bar is its counter whatever its key: RWKV's `s` is no time)
        paced = [
            i
            for i in sorted(ints)
            if i not in totals
            and i not in uncounted
            and not slots[i].rate
            and not _epoch_named(slots[i].label)
            and i not in loose
            and _paced(i, rec, series, totals)
        ]
        order = loose + paced + [i for i in numerators + candidates if i not in loose and i not in paced]
        # an unnamed count of a whole (N/M) that is a whole multiple of another count of the line (the examples seen
        # of the data set, batch size x the iterations: CosFace's "Train Epoch: {} [{}/{} ({:.0f}%)]{}, Loss: ..."
        # prints the samples, then the iteration) counts examples: the iterations go first, as updates done go
        # before examples seen (a count named so or keeping pace with its bar stays first: RWKV's `s 1666` steps,
        # 2 x 833 of the bar, beside its mini-epoch 2)
        examples = [
            i
            for i in order
            if i in ints
            and i in numerators
            and i not in loose
            and i not in paced
            and any(_multiple(series[i], series[j], few) for j in order if j != i and j in ints)
        ]
        iterations = {
            j
            for i in examples
            for j in order
            if j != i and j in ints and _multiple(series[i], series[j], few)
        }
        order = [i for i in order if i not in examples] + examples
        for i in dict.fromkeys(order):
            if i in epochs:
                continue
            e = epoch_of(i)
            if e is not None and slots[e].header and i == _tqdm_count(rec.shapes[0]):
                # a table's row redrawn as its epoch's bar moves (Ultralytics): the epoch is the record's counter,
                # its last redraw the epoch's values
                rec.redrawn = True
                break
            if e is not None:
                finished = i in numerators and all(
                    a == b for (_, a), (_, b) in zip(series[i], series[i + 1], strict=True)
                )
                if (
                    few
                    and (i in numerators or i in loose or i in iterations)
                    and not finished
                    and i != _tqdm_count(rec.shapes[0])
                ):
                    step, epoch = i, e
                    break
                if (
                    rising(i)
                    and within(i, e)
                    and (i in loose or regular(i) or moves[e][0] > 0)
                    and (few or rises_within(i, e))
                ):
                    # (a position rises while its epoch stays: a count beside a new epoch on every line, early
                    # stopping's `(no improve 3/10)`, is no position within it)
                    step, epoch = i, e
                    break
                if (i in loose or i in numerators or regular(i)) and within(i, e) and rises_within(i, e):
                    # a position seen over an epoch's turn (PaddleDetection's `Epoch: [0] [1800/1832]` then
                    # `Epoch: [1] [   0/1832]`) or in epochs of few lines
                    step, epoch = i, e
                    break
                if i in loose and rising(i):
                    step = i  # a counter named so that counts on across epochs (speechbrain's `steps: 1797`)
                    break
                if rising(i) and _counts_epochs_batches(series[i], series[e], [series[d] for d in totals]):
                    # an unnamed count that grows by the epoch's batches as the epoch goes up: the run's
                    # iteration (LogoSP's 'Train Epoch: {} [{}/{} ({:.0f}%)]{}, Loss: ...' with the global
                    # iteration after the bracket, logged once an epoch)
                    step = i
                    break
                if (
                    i in numerators
                    and rising(i)
                    and regular(i)
                    and moves[e][0] > 0
                    and moves[i][1] == 0
                    and moves[i][2] == len(series[i])  # (every line a count of its own)
                ):
                    # a position in the run's plan that counts on across epochs' turns, every so many steps
                    # (CoreNet's `Epoch:   1 [   12501/10000000]`: the iterations of a run capped at ten million)
                    step = i
                    break
                continue  # an unnamed number that counts on across epochs: the epoch is the record's counter
            if rising(i) and (
                i in loose
                or i in paced
                or (not few and moves[i][2] >= MIN_REPEATS and regular(i))
                # (a progress bar's position counts by construction, seen at two places or more: a short
                # excerpt whose bar is redrawn at one place when its description changes, StyleGAN's `Size:
                # 512; G: 1.216; ...:   5%|▌   | 161251/3000000 [...]` twice)
                or (i == _tqdm_count(rec.shapes[0]) and _has_values(rec))
            ):
                step = i
                break
    if step is None:
        step, epoch = _inner_epoch(epochs, epoch_of, within, rises_within, rising, moves)
    if step is None and epochs and (rising(epochs[0]) or steady(epochs[0]) or restarted(epochs[0])):
        step = epochs[0]  # one record per epoch: the epoch is its counter
    if step is None:
        return
    rec.counter = step
    rec.paced = step in paced
    rec.named = _counter_named(slots[step].label) or slots[step].shifted or own(step) or epoch is not None
    rec.named = rec.named or _epoch_named(slots[step].label) or (few and leading(step))
    # (or the word after its total names what it counts: umap-learn's "\tcompleted  50  /  500 epochs")
    after = _after_total(literals, step + 1) if step + 1 in totals else ""
    rec.named = rec.named or _epoch_named(after) or _counter_named(after)
    # (or a position out of its total under a word that counts loosely, seen twice: dalinvip's text classifier
    # prints "\rBatch[{}/{}] - loss: {:.6f}  acc: ..." every log interval)
    rec.named = rec.named or (few and step + 1 in totals and _counter_named(slots[step].label, loose=True))
    rec.whole = step in wholes
    scaled = _COUNTER_SCALE.match(literals[step + 1]) if step in ints else None
    rec.counter_scale = COUNT_SCALES[scaled.group(1)] if scaled else 1
    slots[step].role = "step"
    if epoch is not None:
        rec.epoch = epoch
        slots[epoch].role = "epoch"
        epochs_total = series.get(epoch + 1) if epoch + 1 in totals else None
        positions_total = series.get(step + 1) if step + 1 in totals else None
        rec.epoch_base = _epoch_base(series[epoch], epochs_total, series[step], positions_total)
        if epoch + 1 in totals:
            slots[epoch + 1].role = "epoch_total"  # the number of epochs the run plans
        rec.counts_from = _position_base(series[step], series.get(step + 1) if step + 1 in totals else None)
    if step + 1 in totals:
        rec.total = step + 1
        slots[step + 1].role = "total"
    elif epoch is None:
        rec.total = _named_total(rec, km, step, ints)
        if rec.total is not None:
            slots[rec.total].role = "total"
    for d, e in totals.items():  # an epoch printed as a value with its total (one epoch in view): the plan
        if e != step and slots[d].role == "value" and _epoch_named(slots[e].label):
            slots[d].role = "epoch_total"
    for i, slot in enumerate(slots[:-1]):
        # an epoch printed as its fraction gone by, with the epochs planned after it (jcjohnson/torch-rnn train.lua:
        # 'Epoch %.2f / %d, i = %d / %d, loss = %f'): the run's fractional epoch and its plan
        if (
            slot.role == "value"
            and _epoch_named(slot.label)
            and i not in ints
            and i + 1 in ints
            and slots[i + 1].role == "value"
            and not slots[i + 1].label
            and literals[i + 1].strip() == "/"
        ):
            slot.role, slots[i + 1].role = "epoch_fraction", "epoch_total"


def _counts_epochs_batches(
    count: list[tuple[int, int]], epochs: list[tuple[int, int]], totals: list[list[tuple[int, int]]]
) -> bool:
    """Whether a count rises, line after line, by the epochs gone by times the batches of an epoch (the total
    after a position `N/M`, the same on every line): the iterations of the whole run."""
    for total in totals:
        sizes = {v for _, v in total}
        if len(sizes) != 1 or not min(sizes):
            continue
        size = sizes.pop()
        pairs = [
            (b - a, g - f)
            for (s1, a), (s2, b), (_, f), (_, g) in zip(count, count[1:], epochs, epochs[1:], strict=False)
            if s1 == s2
        ]
        if len(pairs) >= MIN_REPEATS - 1 and all(dc == de * size and de > 0 for dc, de in pairs):
            return True
    return False


def _multiple(big: list[tuple[int, int]], small: list[tuple[int, int]], few: bool = False) -> bool:
    """Whether one rising count is the same whole multiple (2 or more) of another on every line: samples seen
    beside the iterations that saw them (`few`: a record seen once or twice, its counts need not be seen rising)."""
    if not big or len(big) != len(small) or (not few and len({v for _, v in small}) < 2):
        return False
    if any(b <= 0 for _, b in small):
        return False
    ratios = {a / b for (_, a), (_, b) in zip(big, small, strict=True)}
    return len(ratios) == 1 and next(iter(ratios)) >= 2 and next(iter(ratios)) == int(next(iter(ratios)))


# a word that joins a value's name to the counter it is printed at (`loss at step 500`, `loss of epoch3-batch-50`)
_LINK_WORDS = frozenset({"at", "of", "for", "in", "on", "after"})
# what stands between the counter and such a value: `: `, `=`, ` is : ` (`The train loss of epoch %d is : %f`)
_LINKED_VALUE = regex.compile(r"(?:is|was)?\s*[:=]|is|was")


def _key_before_counter(rec: RecordShape) -> None:
    """A value printed after its counters with no key of its own, named by the words before them:
    `Minibatch loss at step 500: 2.3` (the TensorFlow tutorials' print('Minibatch loss at step %d: %f' % (step, l))),
    `The train loss of epoch3-batch-50:0.23` (hualin95/Deeplab-v3plus). The counter's key less its counter word
    and the word that links them (`at`, `of`) becomes the value's key; without such a word nothing changes."""
    if rec.counter is None:
        return
    counters = [i for i in (rec.epoch, rec.counter) if i is not None]
    first, last = min(counters), max(counters)
    nxt = last + 1
    if (
        nxt >= len(rec.slots)
        or rec.slots[nxt].kind != "num"
        or rec.slots[nxt].label.lower() not in ("", "is", "was")
    ):
        return
    literals = rec.shapes[0].literals
    if rec.slots[nxt].role != "value" or not _LINKED_VALUE.fullmatch(literals[nxt].strip()):
        return
    if any(regex.search(r"[A-Za-z]", literals[i]) for i in range(first + 1, last + 1)) and not all(
        _words(literals[i]) and set(_words(literals[i])) <= COUNTER_WORDS | LOOSE_COUNTER_WORDS
        for i in range(first + 1, last + 1)
    ):
        return  # (between two counters, only a counter's word: `epoch3-batch-50`)
    words = rec.slots[first].label.split()
    while words and words[-1].lower() in COUNTER_WORDS | LOOSE_COUNTER_WORDS | EPOCH_WORDS:
        words.pop()
    if len(words) < 2 or words[-1].lower() not in _LINK_WORDS:
        return
    rec.slots[nxt].label = " ".join(words[:-1])


# words before a time that make it the run's time so far, not a step's (the last-words reading of field_plan)
# the words of a time spent loading the data, no step's own time
_LOADING_WORDS = frozenset({"load", "loading", "loader", "dataloader", "data", "fetch", "io", "reader"})
_SO_FAR_WORDS = frozenset({"total", "elapsed", "cumulative", "overall", "accumulated", "wall"})


def _named_total(rec: RecordShape, km: keymap_mod.KeyMap, step: int, ints: set[int]) -> int | None:
    """The slot of the steps the run plans where a record prints them apart from its counter, after a word of their
    own: `global step 750, total step 2142` (CPM-1's fine-tuning loop), LLaMA-Factory's `"current_steps": 10,
    "total_steps": 1287`, `step 5 of 100`. The key says it plans steps (its words a plan's and a count's, or a
    name of the run's planned iterations in the key model), its value holds still and is no smaller than the
    counter's; None when no value is such."""
    counted = [_whole(_unsep(v)) or 0 for _, v in rec.series(step)]
    literals = rec.shapes[0].literals
    for i in sorted(ints):
        slot = rec.slots[i]
        if i == step or slot.role != "value" or slot.rate:
            continue
        values = {int(_unsep(v)) for _, v in rec.series(i)}
        if len(values) != 1 or next(iter(values)) < max(counted, default=0) or next(iter(values)) <= 0:
            continue
        words = _words(slot.label)
        planned = (
            (len(words) >= 2 and words[-1] in _RUN_COUNTS and bool(set(words[:-1]) & _PLAN_WORDS))
            or (i == step + 1 and literals[i].strip().lower() == "of")
            or getattr(km.lookup(slot.label, "config"), "column", None) == "train_iters"
        )
        if planned:
            return i
    return None


# a counter printed with a scale letter glued on: Real-Time-Voice-Cloning's vocoder/train.py prints
# `Step: {k}k` with k = step // 1000
_COUNTER_SCALE = regex.compile(r"^([kKM])(?![\w.%/])")
COUNT_SCALES = {"k": 1000, "K": 1000, "M": 1_000_000}


def _paced(
    i: int, rec: RecordShape, series: dict[int, list[tuple[int, int]]], totals: dict[int, int]
) -> bool:
    """Whether number i rises from record to record by as many iterations as the record's progress bar counted
    in between: it counts the bar's iterations (RWKV-LM's tqdm description `miniE {epoch} s {steps} ...` before
    a bar of 833 steps a mini-epoch: `s` rises by 833, the mini-epoch by one). A bar that ended at its total
    counted a new bar's position since; a bar that did not move, or went back before its end, says nothing."""
    bar = _tqdm_count(rec.shapes[0])
    if bar is None or i == bar or bar not in series or i not in series:
        return False
    total = series[bar + 1] if bar + 1 in totals else None
    matched = 0
    for k in range(1, len(series[i])):
        (s1, a), (s2, b) = series[i][k - 1], series[i][k]
        (_, p), (_, q) = series[bar][k - 1], series[bar][k]
        if s1 != s2:
            continue
        if q > p:
            counted = q - p
        elif total is not None and p == total[k - 1][1]:
            counted = q
        else:
            return False
        if b - a != counted:
            return False
        matched += 1
    return matched >= MIN_REPEATS - 1


def _epoch_base(
    epochs: list[tuple[int, int]],
    totals: list[tuple[int, int]] | None,
    positions: list[tuple[int, int]] | None = None,
    position_totals: list[tuple[int, int]] | None = None,
) -> int:
    """What a printed epoch counts from (the column counts epochs from 0): 0 where the log prints an epoch 0;
    1 where its first epoch in view is 1 or it prints the epochs planned (`[3/3]`; MMEngine, Keras, PaddlePaddle,
    Ignite, pytorch-tutorial's `Epoch [{}/{}]` of epoch+1 count from 1). Else (the run's first epoch out of
    view) as the position beside it counts, where the log shows that: a loop that prints the batch index from
    0 prints the epoch from range(start_epoch, epochs) too (pytorch/examples' imagenet ProgressMeter and its
    copies, LightCNN's train.py: 'Epoch: [{0}][{1}/{2}]'.format(epoch, i, len(train_loader))), one that prints
    the batches done counts both from 1 (MMCV's `Epoch [5][500/500]`); where nothing shows it, 1
    (deepspeech.pytorch prints the same 'Epoch: [{0}][{1}/{2}]' of epoch + 1 and i + 1)."""
    printed = [e for _, e in epochs]
    if 0 in printed:
        return 0
    if not printed or min(printed) == 1 or totals:
        return 1
    shown = _counted_from(positions, position_totals) if positions is not None else None
    return 1 if shown is None else shown


def _counted_from(positions: list[tuple[int, int]], totals: list[tuple[int, int]] | None) -> int | None:
    """What a position within an epoch counts from where the log shows it: 0 where it prints a position 0 or
    stops one short of its total (timm's `[  11/12]`), 1 where it reaches its total (MMEngine's `[50/50]`: the
    batches done); None where it shows neither."""
    if any(p == 0 for _, p in positions):
        return 0
    if totals is not None and any(p == t for (_, p), (_, t) in zip(positions, totals, strict=True)):
        return 1
    if totals is not None and any(p == t - 1 for (_, p), (_, t) in zip(positions, totals, strict=True)):
        return 0
    return None


def _position_base(positions: list[tuple[int, int]], totals: list[tuple[int, int]] | None) -> int:
    """What a position within an epoch counts from: as the log shows it (_counted_from), else 1."""
    shown = _counted_from(positions, totals)
    return 1 if shown is None else shown


# ------------------------------------------------------------------------------------------------
# what each value means


def field_plan(
    km: keymap_mod.KeyMap,
    key: str,
    unit: str | None,
    texts: Sequence[str],
    evaluation: bool,
    line: Sequence[str] = (),
) -> FieldPlan | None:
    """Where the value of `key` goes (None: nowhere, e.g. the counter's own key), as an explicit field: the key
    model's reading of the key as printed with the record's other keys as its context (KeyMap.read: the loss
    rule, binary memory, a known quantity kept), else of its last words (`with loss` -> loss) or of the key
    without its bracket, else kept as x_<key>; converted from the unit printed after it (`ms`, `G`, `%`) or
    named in the key (`dt_ms`, `memory(GiB)`). The one place the inferred reading asks the key model what a key
    means: `texts` are the values the sample printed (as printed, the unit apart), `line` the other keys of the
    record."""
    if km.ignored(key):
        return None
    bare = _QUALIFIER.sub("", key).strip()
    if bare != key and keymap_mod.normalize(bare) in km.skip:
        return None  # a skipped quantity whatever its bracket says it is in (nerfstudio's `ETA (time)`)
    value = (texts[0] if texts else "1") + (unit or "")
    meaning = km.read(key, value, "step", line=tuple(line))
    if meaning.kind == "skipped":
        return None
    if meaning.kind == "column" and meaning.mapping is not None:
        plan = _planned(meaning.mapping, unit, texts, evaluation, "the key", key, meaning.use)
        if plan is not None:
            return plan
    elif evaluation and meaning.use.why == keymap_mod.EVALUATION_LOSS and _plain_loss(km, key):
        # in an evaluation's record, the evaluation's loss by its words (`Average valid loss`)
        return FieldPlan("eval_loss", reason=f"an evaluation's loss by its words ({key!r})", use=meaning.use)
    elif meaning.kind == "kept" and meaning.use.rule != "kept":
        # a rule of the line kept it (a second loss beside the line's total), or a known quantity with no column
        # of its own: not its last words' column
        if meaning.mapping is not None:
            plan = _planned(meaning.mapping, unit, texts, False, "the key", key, meaning.use)
            if plan is not None:
                return replace(plan, kept=True)
        return FieldPlan(
            meaning.column or "", meaning.factor, kept=True, reason=meaning.use.why, use=meaning.use
        )
    words = key.split()
    # (not past a `/` or `per`: the words after it are a rate's denominator, nerfstudio's `Train Rays / Sec`)
    ends = [k for k, w in enumerate(words) if w.lower() in ("/", "per")]
    tries = [(" ".join(words[start:]), start) for start in range(1, min(ends, default=len(words)))]
    if bare != key and bare:  # `tgs (tokens/gpu/second)`: the key without what it says in brackets
        tries.append((bare, -1))
    parts = keymap_mod.normalize(bare or key).split("_")
    if len(parts) > 1 and parts[-1] in _WINDOW_WORDS:
        # (a quantity over the log's window: `tokens_per_sec_window`, what it is of)
        tries.append(("_".join(parts[:-1]), -2))
    for text, start in tries:
        mapping = km.lookup(text, "step")
        if mapping is None or mapping.kind != "step":
            continue
        before = {w.lower() for w in words[:start]} if start != -2 else set()  # (the words the try left out)
        if mapping.column == "step_time_s" and len(text.split()) == 1 and before & _SO_FAR_WORDS:
            # (a time said to be the run's so far is no step's: Ray's `Total running time: 39s`; a `Total Step
            # Time` names the step)
            continue
        if mapping.column in ("loss", "eval_loss") and before & _BOUND_WORDS:
            continue  # (a bound of the losses, `min loss` beside `avg loss`, is none of them)
        if mapping.column == "step_time_s" and not evaluation and before & EVAL_WORDS:
            continue  # (nor the evaluation's time a training step's record prints beside its own: `eval time`)
        if mapping.column == "step_time_s" and before & _LOADING_WORDS:
            continue  # (nor the time the loader took to hand it a batch: CoreNet's `Avg. batch load time`)
        if texts:  # a bare whole memory figure is MiB (keymap.Mapping.for_value)
            mapping = mapping.for_value(texts[0])
        why = (
            "the key without its bracket"
            if start == -1
            else "the key without its window's word"
            if start == -2
            else f"its last word{'s' if len(words) - start > 1 else ''}"
        )
        plan = _planned(mapping, unit, texts, evaluation, why, key, mapping.use(unit or mapping.key_unit))
        if plan is not None:
            return plan
    base, factor = keymap_mod.scaled_key(key)
    column = keymap_mod.column_name("x_", base, unit)
    use = keymap_mod.kept_use(column, None, unit, factor)
    return FieldPlan(column, factor, kept=True, reason="not a key the synonym table knows", use=use)


def _evaluation_loss_said_when(
    km: keymap_mod.KeyMap, key: str, slot: Slot, texts: Sequence[str]
) -> FieldPlan | None:
    """An evaluation's loss under a key that says when it was made or that it is the evaluation's mean
    (`Initial val loss`, `Final val loss`, `Average valid loss`), or that it is the epoch's (`eval_loss_epoch`: the
    whole evaluation's, as Lightning's name_epoch and pytorch-accelerated's run history name it): the eval_loss, as
    the key less those words is."""
    plain = _EPOCH_SUFFIX.sub("", _without_when(key))
    if plain == key:
        return None
    m = field_plan(km, plain, slot.unit, texts, True)
    if m is None or m.kept or _full(m) != "eval_loss":
        return None
    return replace(m, reason=f"{m.reason}; {key!r}: the evaluation's loss, said when it was made or averaged")


_EPOCH_SUFFIX = regex.compile(r"(?i)(?<=\w)[_/ ]epoch$")


def _without_when(key: str) -> str:
    """A key less the words before it that say its value is an average or when it was measured (`Average valid
    loss`, `Initial val loss` -> `valid loss`, `val loss`); the key itself where none leads it."""
    words = key.split()
    while len(words) > 1 and words[0].lower() in _AVERAGE_WORDS | _MADE_WORDS:
        words = words[1:]
    return " ".join(words) if len(words) < len(key.split()) else key


def _plain_loss(km: keymap_mod.KeyMap, key: str) -> bool:
    """A key of a loss and no part of one: its words beside the loss's are an evaluation's or an average's."""
    words = {w.lower() for w in _words(key)}
    return bool(words & km.loss.words) and not words - km.loss.words - EVAL_WORDS - _AVERAGE_WORDS


def _planned(
    mapping: keymap_mod.Mapping,
    unit: str | None,
    texts: Sequence[str],
    evaluation: bool,
    reason: str,
    key: str,
    use: keymap_mod.KeyUse,
) -> FieldPlan | None:
    """The field of a key the key model maps to a step column (None: a flag, or a unit the column cannot hold)."""
    if mapping.type == "bool":
        return None
    column = mapping.column
    if evaluation and column == "loss" and set(_words(key.lower())) & keymap_mod.TRAIN_WORDS:
        # (the training split's loss estimated beside the evaluation's: `train_loss` by `val_loss`)
        return None
    if evaluation and column == "loss":
        column, reason = "eval_loss", reason + ", in an evaluation record"
    scale = _scale(mapping, unit, texts)
    if scale is None:
        return None
    base, scope = _scoped(column)
    vtype = (
        "int"
        if mapping.type == "int" and scale == 1.0 and mapping.factor == 1.0 and _is_int(texts)
        else "float"
    )
    return FieldPlan(
        base, scale * mapping.factor, vtype, scope, mapping.invert, reason=f"{reason} ({key!r})", use=use
    )


def _scale(mapping: keymap_mod.Mapping, unit: str | None, texts: Sequence[str]) -> float | None:
    """The factor from a printed value in `unit` (or the key's own unit) to its column, by the key map's own
    conversion (keymap.to_quantity); None when the unit does not fit the column (lingua's `mem: 61%`)."""
    u = unit or mapping.key_unit
    if mapping.invert:
        return 1.0
    if mapping.units == "percent":
        if u in ("%", "pct", "percent"):
            return 0.01
        if u is not None:
            return None
        finite = [v for v in map(_number, texts) if v is not None and math.isfinite(v)]
        return 0.01 if finite and max(finite) > 1 else 1.0
    if u is None:
        return 1.0
    try:
        return keymap_mod.to_quantity(f"1{u}", mapping.units)
    except ValueError:
        return None


def _number(text: str) -> float | None:
    try:
        return keymap_mod.split_quantity(text)[0]
    except ValueError:
        return None


def _scoped(column: str) -> tuple[str, str | None]:
    """(column, scope) as a set's field names a throughput: its base and per_gpu or global."""
    for base in SCOPED_COLUMNS:
        if column == base:
            return base, "global"
        if column == f"{base}_per_gpu":
            return base, "per_gpu"
    if column == "reported_tflops_per_gpu":
        return "reported_tflops", "per_gpu"
    return column, None


def _evaluation(rec: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """Whether a record is an evaluation's: a word val/eval/test/validation in its text outside its values' keys
    (`Val Step 1/157`, `{"kind": "val", ...}`, `Test: [ 10/157]`), or keys of an evaluation only (`val_loss`,
    `Validation bpb`) and none of training's."""
    sh = rec.shapes[0]
    labels = [s.label for s in rec.slots if s.role in ("value", "skip") and s.label]
    counter_label = rec.slots[rec.counter].label if rec.counter is not None else ""
    if rec.columns and _evaluation_cells(rec.columns, labels, km):
        return True
    # (a sentence that opens the line with an evaluation's word and names its first number: joeynmt's
    # "Validation result (greedy) at epoch {:>3d}, step {:>8d}: bleu: ..., loss: ..., ppl: ...")
    first = next((s for s in rec.slots if s.kind == "num"), None)
    opening = first.label if first is not None else ""
    opened = _words(opening)
    if len(opened) >= 3 and opened[0] in EVAL_WORDS and not _names_training(opening):
        # (the words before the key up to the message's start say no training: `Training and Evaluation Results
        # for Epoch N` heads a block of both)
        before = sh.literals[first.index]
        before = regex.split(r" - |\] |: |\|", before[: before.rfind(opening)])[-1]
        if not _names_training(before):
            return True
    text = " ".join(lit for variants in sh.variants for lit in variants)
    for label in sorted(labels, key=len, reverse=True):  # (`val loss` whole before `loss` takes part of it)
        text = text.replace(label, " ")
    # (a key whose value is a word says the stage in its value: `'train': 'eval'`, `"mode": "train"`)
    text = _FLAG_VALUED.sub(" ", _WORD_VALUED.sub(r" \g<word> ", text))
    # (`[train] loss` beside `[val] loss`: the training's stage named in the record's own text as well, a step's
    # record that carries the evaluation done at it)
    # (a heading that names both, `Training and Evaluation Results for Epoch N`, heads a block of each: its lines
    # say which is which)
    staged = any(s.staged for s in rec.slots)  # (an evaluation's heading after the line's own values)
    if _splits_beside_a_loss(labels):
        return False
    if (
        not _names_training(_message(text))
        and not staged
        and (_staged_marks(text, labels, km) or any(w in EVAL_WORDS for w in _words(counter_label)[:1]))
    ):
        return True
    # (an evaluation's metric names its record too: `current mean dice`, `fid50k_full`)
    eval_keys = [lab for lab in labels if _evaluation_named(lab) or km.evaluation_metric(lab)]
    if not eval_keys:
        return False
    for slot in rec.slots:
        if slot.role not in ("value", "skip") or not slot.label or slot.label in eval_keys:
            continue
        if slot.role == "skip" and not slot.header:
            continue  # (a table's column whose cell holds no one value still names what its row is)
        m = field_plan(km, slot.label, slot.unit, [], False)
        # (the lr beside an evaluation's metric is the schedule's at that point, measured by no training: a loop
        # that evaluates before the step prints `Step {iter}: Val Loss {loss:.4f} | LR: {lr:.2e}`)
        if m is not None and not m.kept and _full(m) in TRAINING_COLUMNS - {"step_time_s", "lr"}:
            return False
        if m is not None and m.kept and "loss" in _words(slot.label):
            return False
        if m is not None and m.kept and _words(slot.label)[:1] in (["train"], ["training"], ["learn"]):
            # the training set's metric beside the evaluation set's (XGBoost's `train-rmse` beside `eval-rmse`,
            # LightGBM's `training's l2` beside `valid_0's l2`): a training round's record
            return False
        if m is not None and m.kept and _paired_with_evaluation(slot.label, labels):
            return False  # (the same: an RL loop's `Mean Train Rewards` beside its `Mean Test Rewards`)
        if m is not None and m.kept and slot.role == "value" and _unnamed_stage(slot.label, eval_keys):
            return False
    return True


def _unnamed_stage(label: str, eval_keys: Sequence[str]) -> bool:
    """Whether a key no table knows stands beside a bare evaluation key that is only a split's name (`val`, `test`):
    an epoch's record of its training value and its validation value, the training's under a key of the loop's
    own (GNTPP's amdn_train.py logs f'Epoch {epoch+1:4d}, trlast = {loss:.4f}, val = {loss_val:.4f}')."""
    bare = [k for k in eval_keys if k.strip().lower() in _SPLITS]
    return bool(bare) and len(eval_keys) == 1 and not set(_words(label.lower())) & (EVAL_WORDS | SCORE_WORDS)


# the words of the training's stage (`train`, `training`, `trn`: DeePMD-kit's lcurve `rmse_trn` beside `rmse_val`)
_TRAIN_STAGE = keymap_mod.TRAIN_WORDS
# the data splits an evaluation is of, by the words that name them
_SPLITS = keymap_mod.SPLITS


def _both_splits(rec: RecordShape) -> bool:
    """Whether a record's keys name the training split and an evaluation's: a summary of both, the training's own
    values among them (a segmentation loop prints a `Validation:` bar, then "Train Loss: {t:.4f}, Val Loss:
    {v:.4f}")."""
    stages = [set(_words(label.lower())) for label in _value_labels(rec)]
    if not stages or stages[0] & EVAL_WORDS:
        # (an evaluation that opens the line names itself: `  eval 200: train 1.5510 | val 1.5317`)
        return False
    if _prefixed_pairs(rec):
        return True
    return any(words & _TRAIN_STAGE for words in stages) and any(words & EVAL_WORDS for words in stages)


def _prefixed_pairs(rec: RecordShape) -> bool:
    """Whether a record prints a key bare and again behind a split's prefix (`loss` and `val_loss`): Keras's
    convention, the bare one the training's (keras/src/callbacks/progbar_logger.py, `loss: 0.2 - val_loss: 0.3`;
    loops that copy it print `loss 0.2002 - iou 0.3682 - val_loss 0.2619 - val_iou 0.0779`)."""
    keys = {keymap_mod.normalize(label) for label in _value_labels(rec)}
    for key in keys:
        split, _, rest = key.partition("_")
        if rest and split in _SPLITS and rest in keys:
            return True
    return False


def _splits_beside_a_loss(labels: Sequence[str]) -> bool:
    """Whether a record's keys name two data splits each (`VAL ACC`, `TEST ACC`) beside a loss that names none:
    one split's evaluation would not name the other, so the record is the training's, the loss its own and the
    evaluations done at its step beside it, whatever word tags the line (Jianglandelong/MyGCL main.py prints
    '[TEST] Trial:{trial:04d} | Epoch:{epoch:04d} | CL loss:{loss:.4f} | VAL ACC:{acc_val:.2f} | TEST
    ACC:{acc_test:.2f}' every 10 epochs, its only record)."""
    named = {_SPLITS[w] for label in labels for w in _words(label.lower())[:1] if w in _SPLITS}
    own_loss = any(
        "loss" in (words := _words(label.lower())) and not set(words) & set(_SPLITS) for label in labels
    )
    return len(named) >= 2 and own_loss


def _evaluation_cells(columns: Sequence[str], labels: Sequence[str], km: keymap_mod.KeyMap) -> bool:
    """Whether a table's row is an evaluation's by the cells it fills: its header names the training's loss and
    an evaluation's, and the row leaves the training's empty where it fills the evaluation's (a metrics CSV whose
    writer puts `step,train_loss,val_loss,...` over `200,7.24,,...` and `200,,7.20,...`, csv.DictWriter writing ''
    for a key a row lacks)."""
    trained = [c for c in columns if _training_loss_keyed([c], km)]
    evaluated = [c for c in columns if _evaluation_named(c) and _is_loss(c, km)]
    return (
        bool(trained and evaluated) and not set(trained) & set(labels) and bool(set(evaluated) & set(labels))
    )


def _is_loss(label: str, km: keymap_mod.KeyMap) -> bool:
    """A key the key model reads as a loss (of training or of an evaluation)."""
    m = field_plan(km, label, None, [], True)
    return m is not None and not m.kept and m.column in ("loss", "eval_loss")


# evaluation words that name a measure, not a stage: a record's text may name one beside the training's values
_MEASURE_MARKS = frozenset({"map"})


def _staged_marks(text: str, labels: Sequence[str], km: keymap_mod.KeyMap) -> frozenset[str]:
    """The evaluation words of a record's own text, less a measure's name (`MAP`) where a key of the record names
    the training set's loss: a forecaster's `Epoch 3: Train Loss: 3.57, Val Loss: 3.61, MAP: {...}` is the
    training's epoch, its MAP the test set's beside it (a stage word, `"kind": "valid"`, still says evaluation)."""
    marks = _eval_marks(text)
    if marks and marks <= _MEASURE_MARKS and _training_loss_keyed(labels, km):
        return frozenset()
    return marks


def _training_loss_keyed(labels: Sequence[str], km: keymap_mod.KeyMap) -> bool:
    """Whether a key of the record names the training set's loss (`Train Loss`, `train_loss`)."""
    for label in labels:
        if not set(_words(label.lower())) & keymap_mod.TRAIN_WORDS:
            continue
        m = field_plan(km, label, None, [], False)
        if m is not None and not m.kept and m.column == "loss":
            return True
    return False


# the words of a key that says when or how much to evaluate, a setting (`eval_interval=500`, `val_every: 2`,
# `eval_iters`, `eval_batch_size`): a config echo that names them is no evaluation
_WHEN_WORDS = frozenset(
    {"interval", "every", "freq", "frequency", "period", "iters", "steps", "epochs", "batch", "size", "bs"}
)


def _evaluation_named(label: str) -> bool:
    """A key named for an evaluation (`val_loss`, `eval`), not a setting of when or how much to evaluate."""
    words = set(_words(label))
    return bool(words & EVAL_WORDS) and not words & _WHEN_WORDS


def _paired_with_evaluation(label: str, labels: list[str]) -> bool:
    """Whether a key names the training set's measure where another key of the line names the same measure of an
    evaluation's set: word for word but for that one (`Mean Train Rewards`, `Mean Test Rewards`), or the same
    name after an evaluation's word (`reward`, `eval_reward`)."""
    for other in labels:
        # (or the same name with an evaluation's word before it: `reward` beside `eval_reward`, easy-rl's
        # `奖励` beside `评估奖励`)
        head = other[: len(other) - len(label)]
        if other != label and other.endswith(label) and _words(head) and set(_words(head)) <= EVAL_WORDS:
            return True
    words = _words(label)
    return any(
        keymap_mod.one_stage_apart(words, _words(other), _TRAIN_STAGE, EVAL_WORDS)
        for other in labels
        if other != label
    )


def _full(m: FieldPlan) -> str:
    return m.column if m.scope is None or m.scope == "global" else f"{m.column}_per_gpu"


# ------------------------------------------------------------------------------------------------
# tables: a header that names the columns, rows of numbers under it


_NAME = regex.compile(r"[A-Za-z_#][\w/.@%()\[\]:-]*(?<![:=])")


# the rules a bordered table draws its cells with: prettytable's and tabulate's `|`, the box-drawing lines of
# tabulate's fancy and heavy grids and of Rich's tables (`│`, `┃`, `║`), read alike
# (a name between `|` may be longer than a name between blanks, its ends drawn: TRL's GRPO trainer logs each reward
# function's mean as f"rewards/{reward_func_name}/mean", trl/trainer/grpo_trainer.py, a function's name of 40
# letters and more)
BORDERED_NAME = 80
_VERTICALS = str.maketrans(dict.fromkeys("│┃║┆┇┊┋╎╏¦", "|"))


def _header(text: str, least: int = 3) -> tuple[list[str], str, list[tuple[int, int]]] | None:
    """The column names of a table's header line, how it separates them (`,` for CSV, `|`, a tab, or blanks) and,
    for blanks, where each name stands in the line: at least `least` names, none a number or a `key:`. Between
    the `|` of a bordered table a name may be a few words (turicreate's `| Iteration | Loss | Elapsed Time |`)."""
    stripped = text.translate(_VERTICALS).strip()
    for sep in (",", "|", "\t"):
        if sep == "|" and _GROUPED.search(stripped) is not None:
            continue  # (names spaced as columns between the `|`: the rules divide groups of columns)
        if stripped.count(sep) >= 1:
            names = [n.strip() for n in stripped.strip("|").split(sep)]
            if len(names) >= least and all(
                _NAME.fullmatch(n)
                or (sep == "|" and n and _named_cell(n, BORDERED_NAME))
                # (a CSV's names may be a few words too: `Epoch,Total Steps,Avg Training Loss,Time per Epoch
                # (seconds)`, as csv.writer writes a header a training script chose)
                or (sep in ",\t" and n and _named_cell(n))
                for n in names
            ):
                return names, sep, []
    found = list(regex.finditer(r"\S+", text))
    if _GROUPED.search(stripped) is not None:
        found = [m for m in found if m.group() != "|"]
    names = [m.group() for m in found]
    if len(names) >= least and all(_NAME.fullmatch(n) for n in names):
        return names, " ", [m.span() for m in found]
    return None


# a header whose `|` rules stand between groups of names spaced as columns (ElegantRL's evaluator prints
# `ID     Step    maxR |    avgR   stdR   avgS  stdS |    expR   objC   etc.` over rows of one number a name)
_GROUPED = regex.compile(r"(?:^|\|)[^|]*\w\s{2,}\w[^|]*(?:\||$)")


def apply_headers(records: list[RecordShape], sample: SampledLog) -> None:
    """Rows of bare numbers printed under a header line take the header's names as their keys, column by column
    (a value `N/M`, a number with its unit, a timestamp is one column); the row may go on after its columns (a
    progress bar after YOLOv5's `: `). A row belongs to the last header above it whose names stand over its
    columns (whitespace tables: each column under one name, right- or left-aligned, a column left empty in some
    rows skipped; CSV and `|` tables: in order), whatever other lines come between (fastai's bars). A header
    printed over two lines names each column by both its words (Vowpal Wabbit's `average`/`loss`). Where the
    row's values do not stand one a column, its cells do (_cell_labels)."""
    headers: dict[str, Header] = {}
    above: dict[str, Counter[str]] = defaultdict(Counter)
    read: dict[str, Header | None] = {}  # each shape's header reading (its lines repeat)
    for seq in sample.order:
        last: str | None = None  # the last header above
        narrow: str | None = None  # a header of two names nearer above, if any
        logged: str | None = None  # the last header logged behind a logger's prefix
        fresh = False  # no other header since it (the rows of a table logged as one message follow it bare)
        previous: str | None = None  # the header on the line just above, if that line is one
        for key in seq:
            sh = sample.shapes.get(key) if key else None
            if sh is None:
                previous = None
                continue
            if key not in read:
                read[key] = _header_of(sh)
            found = read[key]
            if found is not None and (found.lead or found.tail.strip()) and found.sep == " ":
                headers[key], logged, previous, fresh = found, key, None, True
                continue
            if found is not None:
                logged = key if found.lead or found.tail.strip() else logged
                if previous is not None and key != previous and len(found.names or found.cells) > 2:
                    # (a line of two words above a header of two is its title more likely than its upper half)
                    found = _stacked(headers[previous], found) or found
                headers[key], previous, fresh = found, key, False
                if len(found.names or found.cells) == 2:
                    narrow = key
                else:
                    last, narrow = key, None
                continue
            if previous is not None and not sh.kinds:
                ruled = _ruled_header(headers[previous], sample.shapes[previous].raw, sh.raw)
                if ruled is not None:  # (the dashes under a header mark where each column stands)
                    headers[previous] = ruled
                    if previous in (last, narrow, logged):
                        last, narrow = (previous, None) if len(ruled.names) > 2 else (last, previous)
            previous = None
            if not sh.kinds:
                continue
            # (two words name columns only over rows of two numbers: a line of two words is often no header)
            behind = _behind(sh, headers[logged]) if logged is not None else None
            # (behind a prefix that holds no value, `INFO:root:`, a row's values begin at its first)
            prefixed = behind == 0 and not headers[logged].lead and sh.literals[0].strip() != ""
            if logged is not None and (behind or prefixed) and _fits(sh, headers[logged]):
                above[key][logged] += 1
            elif logged is not None and fresh and not (last or narrow) and _behind(sh, headers[logged]) == 0:
                # a table logged as one message (logger.info(tabulate(...)), logger.info(df.to_string())): the
                # prefix on its header's line only, the rows bare under the names where the message begins
                bare = _unprefixed(headers[logged])
                if _fits(sh, bare, aligned=True):
                    headers[logged + "\0"] = bare
                    above[key][logged + "\0"] += 1
            elif narrow is not None and _bare_row(sh, headers[narrow]):
                above[key][narrow] += 1
            elif last is not None and sh.literals[0].translate(_VERTICALS).strip() in ("", "|"):
                above[key][last] += 1
            elif (
                last is not None
                and headers[last].sep == ","
                and _pipe_cells(sh, len(headers[last].names), ",")
            ):
                # a CSV row that opens with a text cell (`train,1,528384,...` under `event,step,tokens,...`)
                above[key][last] += 1
            elif last is not None and _celled_row(sh, headers[last]):
                # a row that opens with text cells, each cell under a name of the header (Ray Tune's status table,
                # ray/tune/experimental/output.py: `│ Trial name   status   iter   total time (s) ... │` over
                # `│ PPO_CartPole-v1_88b9e_00000   RUNNING   45   18.5225 ... │`)
                above[key][last] += 1
    for rec in records:
        sh = rec.shapes[0]
        if sh.key not in above:
            continue
        header_key, seen = above[sh.key].most_common(1)[0]
        if seen < 0.5 * sh.count:
            continue
        header = headers[header_key]
        names, sep, spans = header.names, header.sep, header.spans
        rec.columns = tuple(names)
        start = _behind(sh, header) or 0
        for slot in rec.slots[:start]:
            if slot.kind == "num":
                slot.role = "skip"  # (a number of the logger's prefix: a process id, a source line)
        if (
            (start or header.tail.strip())
            and rec.slots[start].label
            and rec.slots[start].label in header.tail
        ):
            # (a word of the prefix, the level's, is no key of the row's first value)
            rec.slots[start].label = ""
        cells = _pipe_cells(sh, len(names), sep) if sep in "|," and not start else None
        if cells is not None:
            # a `|` row whose cells stand one a name: each number is its cell's column, a cell of text holds no
            # value (Hugging Face's notebook table, transformers/utils/notebook.py NotebookProgressCallback, writes
            # "No log" for a training loss not logged yet, as a markdown paste of it shows); a CSV row alike, its
            # empty cells none (csv.DictWriter writes '' for a key a row lacks)
            for index, cell in enumerate(cells):
                slot = rec.slots[index]
                first = index == 0 or cells[index - 1] != cell
                slot.label, slot.header, slot.rate = (names[cell] if first else ""), True, False
            continue
        if 2 <= len(header.cells) < len(names):
            # a name of several words (`Iter      Train loss`): its words are no columns of their own
            _cell_labels(rec, header)
            if any(slot.header for slot in rec.slots):
                continue
        columns = _columns(sh, sep, start, _valueless(header))
        if _row_index(sh, columns, [a for a, _ in spans] or [a for _, (a, _) in header.cells]):
            index_slot = rec.slots[columns[0][0]]
            index_slot.role, index_slot.header, index_slot.label = "skip", True, ""
            columns = columns[1:]
        if sep == " " and spans and len(columns) > len(names):
            columns = _within_header(sh, columns, spans)
        cells = [index for column in columns for index in column]
        under = None
        if 2 <= len(columns) <= len(names) and not any(
            rec.slots[i].label and not rec.slots[i].rate for i in cells
        ):  # (a row that names its own values is no table's row)
            under = _under(sh, columns, spans) if sep == " " else list(range(len(columns)))
            if under is None and len(columns) == len(names) and _single_spaced(sh, header):
                # (a header printed with the names one blank apart over rows one blank apart, `print("step loss
                # lr time")` then `print(step, loss, lr, t)`: no column stands under its name, each is in order)
                under = list(range(len(columns)))
        if under is None:
            _cell_labels(rec, header)
            continue
        for column, name_index in zip(columns, under, strict=True):
            for j, index in enumerate(column):
                slot = rec.slots[index]
                slot.label, slot.header, slot.rate = (names[name_index] if j == 0 else ""), True, False


def _single_spaced(sh: SampledShape, header: Header) -> bool:
    """A header's names and a row's values each one blank apart: printed by print()'s own separator, not aligned."""
    return (
        not header.lead
        and "  " not in sh.raw.strip()
        and len(header.spans) > 1
        and all(b + 1 == a for (_, b), (a, _) in zip(header.spans, header.spans[1:], strict=False))
    )


def _pipe_cells(sh: SampledShape, width: int, sep: str = "|") -> list[int] | None:
    """The cell each value of a row between `|` (or `sep`, a CSV's comma) stands in, where the row has as many cells
    as its header has names (its outer borders no cells) and a cell holds numbers alone (joined by `/`) or text
    alone, or nothing (None otherwise)."""
    text = sh.raw.strip()
    if sep == "|":
        text = text.translate(_VERTICALS).strip().removeprefix("|").removesuffix("|")
    parts = text.split(sep)
    if len(parts) != width:
        return None
    out: list[int] = []
    for cell, part in enumerate(parts):
        literals, kinds, _ = tokens(part)
        mixed = kinds.count("num") != len(kinds) or any(lit.strip() not in ("", "/") for lit in literals)
        if kinds == ["ts"] and not "".join(literals).strip():
            # (a CSV's stamp column: `timestamp,phase,epoch,...` over `2026-04-23 11:09:34,...`)
            mixed = False
        if kinds and mixed:
            return None
        out += [cell] * len(kinds)
    return out if len(out) == len(sh.kinds) and out else None


@dataclass
class Header:
    """A table's header line: its names as words (how it separates them, where each stands) and as cells (the
    text between tabs or runs of two blanks: `Train loss`, `Step (% Done)`, with where each stands)."""

    names: list[str]
    sep: str
    spans: list[tuple[int, int]]
    cells: list[tuple[str, tuple[int, int]]]
    # a header logged behind a logger's prefix: the prefix's values (their kinds), its texts before each and
    # after the last up to the names (each row prints the same prefix), and where the names begin in the line
    lead: tuple[str, ...] = ()
    before: tuple[str, ...] = ()
    tail: str = ""
    cut: int = 0


Prefix = tuple[tuple[str, ...], tuple[str, ...], str, int]  # a Header's lead, before, tail and cut

_DASH_RULE = regex.compile(r"\s*-{2,}(?:\s+-{2,})+\s*")


def _ruled_header(header: Header, text: str, rule: str) -> Header | None:
    """A header read again by the rule of dashes printed under it, one run of dashes a column: each column is
    where its run stands and its name the header's text above the run, words and all (explosion/wasabi's table,
    what spaCy's `spacy train` prints: `E    #       LOSS TEXTCAT  CATS_SCORE  SCORE` over `---  ------
    ------------  ----------  ------`, its numbers right-aligned to the run's end). None when the rule is no such
    line or a run stands under no text."""
    if header.lead or header.tail.strip() or _DASH_RULE.fullmatch(rule) is None:
        return None
    runs = [m.span() for m in regex.finditer(r"-+", rule)]
    names = [text[a:b].strip() for a, b in runs]
    if len(runs) < 2 or not all(names):
        return None
    return replace(header, names=names, sep=" ", spans=runs, cells=list(zip(names, runs, strict=True)))


# the caller's `file.py:line` that Rich's console logging prints at a line's right edge (rich/_log_render.py
# LogRender: the log_path column), a column of no table's
_SOURCE_MARK = regex.compile(r"\s{2,}[\w.-]+\.(?:py|pyx|cc|cpp|c|h|go|rs|js|java|lua|jl):\d+\s*$")
_CELL_GAP = regex.compile(r"\t+|\s{2,}")


def _marked(text: str) -> str:
    """A line without the source location Rich's logging prints at its end."""
    return _SOURCE_MARK.sub("", text.rstrip())


def _celled_row(sh: SampledShape, header: Header) -> bool:
    """A whitespace table's row that splits into as many cells as its header, each standing under its name, two of
    them numbers at least."""
    if not header.cells or header.sep != " " or header.lead or len(header.cells) < 3:
        return False
    text = _marked(sh.raw)
    if "\t" in text.strip():
        return False
    cells = _cells(text, False)
    numbers = sum(_NUMBER_CELL.fullmatch(cell) is not None for cell, _ in cells)
    return (
        len(cells) == len(header.cells)
        and numbers >= 2
        and _overlap([sp for _, sp in header.cells], [sp for _, sp in cells])
    )


_NUMBER_CELL = regex.compile(r"[│|]?\s*[-+]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?\s*[│|]?")


def _cells(text: str, tabs: bool) -> list[tuple[str, tuple[int, int]]]:
    """A line's cells: the texts between tabs (`tabs`) or else between runs of two blanks or more, each with
    where it stands in the line."""
    gap = regex.compile(r"\t+") if tabs else _CELL_GAP
    out, at = [], 0
    for m in [*gap.finditer(text), None]:
        end = m.start() if m is not None else len(text)
        cell = text[at:end]
        if cell.strip():
            lead = len(cell) - len(cell.lstrip())
            out.append((cell.strip(), (at + lead, at + lead + len(cell.strip()))))
        at = m.end() if m is not None else len(text)
    return out


def _named_cell(text: str, longest: int = 40) -> bool:
    """A header's cell: a name of a few words (`Train loss`, `Step (% Done)`, `Train Rays / Sec`), no number in it
    and no `key:` before a value."""
    return (
        len(text) <= longest
        and regex.search(r"[A-Za-z]", text) is not None
        and _TOKEN.search(text) is None
        and not text.endswith((":", "="))
    )


def _header_of(sh: SampledShape) -> Header | None:
    """The header a line is, if it is one: a line of names with no number (but the source location Rich prints
    after it), or names after a logger's prefix (_bordered_part, _logged_header)."""
    text = _marked(sh.raw)
    prefix: Prefix = ((), (), "", 0)
    part = _bordered_part(text)
    if sh.kinds and _TOKEN.search(text) is not None:
        if not part:
            return _logged_header(text)
        prefix = _prefix(text, text.translate(_VERTICALS).find("|"))
        text = part
    elif part and text.translate(_VERTICALS).lstrip()[:1] != "|":
        # (behind a prefix that holds no value: `INFO:root:| step | loss |`)
        prefix = _prefix(text, text.translate(_VERTICALS).find("|"))
        text = part
    found = _header(text, least=2)
    if found is None and not prefix[3]:
        logged = _logged_header(text)  # behind a prefix that holds no value (`INFO:root:`)
        if logged is not None:
            return logged
    tabs = "\t" in text.strip()
    cells = _cells(text, tabs)
    if len(cells) < 2 or not all(_named_cell(c) for c, _ in cells):
        cells = []
    if found is None:
        return Header([], " ", [], cells, *prefix) if cells else None
    names, sep, spans = found
    return Header(names, sep, spans, cells, *prefix)


def _bordered_part(text: str) -> str:
    """A bordered header printed behind a logger's prefix: a table logged as one message (logging.info(tabulate(
    rows, headers, tablefmt="github"))) has the prefix on its first line only, its header's. The line from its
    first `|` to the end, where that part holds names alone between `|` (else '')."""
    ruled = text.translate(_VERTICALS).rstrip()
    at = ruled.find("|")
    part = ruled[at:] if at > 0 and ruled.endswith("|") else ""
    return part if part.count("|") >= 3 and _TOKEN.search(part) is None else ""


# where a logger's prefix ends and its message begins: its last separator after the prefix's last value
# (Python logging's "%(asctime)s - %(name)s - %(levelname)s - %(message)s", "[%(asctime)s] %(levelname)s: ...",
# glog's `... train.py:100] `, loguru's ` | INFO     | module:function:12 - `)
_PREFIX_END = regex.compile(r" - |: |\] | \| ")


def _prefix(text: str, cut: int) -> Prefix:
    """The logger's prefix of a line up to `cut`: its values' kinds, the text before each, the text after the last,
    and `cut`."""
    literals, kinds, _ = tokens(text[:cut])
    return tuple(kinds), tuple(lit.strip() for lit in literals[:-1]), literals[-1], cut


def _logged_header(text: str) -> Header | None:
    """A header logged line by line as its rows are, each behind the logger's prefix (logger.info of the header's
    text, then of each row's): the names after the prefix's last value and its last separator, at least two, in
    the line where the rows' columns stand (the prefix is as wide on every line). A line of names of a bordered
    table logged so is one too (_bordered_part)."""
    found = list(_TOKEN.finditer(text))
    # (a prefix with no value of its own: logging's default "%(levelname)s:%(name)s:%(message)s", `INFO:root:`)
    ends = list(_PREFIX_END.finditer(text, found[-1].end() if found else 0))
    if not ends:
        return None
    cut = ends[-1].end()
    words = list(regex.finditer(r"\S+", text[cut:]))
    names = [m.group() for m in words]
    if len(names) < 2 or not all(_NAME.fullmatch(n) for n in names):
        return None
    spans = [(m.start() + cut, m.end() + cut) for m in words]
    cells = [(c, (a + cut, b + cut)) for c, (a, b) in _cells(text[cut:], "\t" in text[cut:])]
    if len(cells) < 2 or not all(_named_cell(c) for c, _ in cells):
        cells = []
    return Header(names, " ", spans, cells, *_prefix(text, cut))


def _behind(sh: SampledShape, header: Header) -> int | None:
    """Where a row's table values begin: 0 for a row printed bare (its first value at the line's start, or after
    a `|`), the number of the prefix's values for a row behind the same logger's prefix as its header's; None
    for a line that is no row of the header's."""
    n = len(header.lead)
    valueless = _valueless(header)
    if (
        valueless
        and sh.literals[0].startswith(valueless)
        and sh.literals[0][len(valueless) :].strip() in ("", "|")
    ):
        return 0  # behind a prefix that holds no value
    if n and tuple(sh.kinds[:n]) == header.lead and len(sh.kinds) > n:
        before = tuple(lit.strip() for lit in sh.literals[:n])
        tail, own = header.tail.translate(_VERTICALS).rstrip(), sh.literals[n].translate(_VERTICALS)
        if before == header.before and own.startswith(tail) and own[len(tail) :].strip() in ("", "|"):
            return n
    return 0 if sh.literals[0].translate(_VERTICALS).strip() in ("", "|") else None


def _fits(sh: SampledShape, header: Header, aligned: bool = False) -> bool:
    """A row behind a logger's prefix (or bare under a header logged behind one) stands under its header: two
    numbers at least after the prefix (and the row's index), and for a header of two names, as many columns;
    `aligned`: each column under one of the names."""
    columns = _columns(sh, header.sep, len(header.lead), _valueless(header))
    if _row_index(sh, columns, [a for a, _ in header.spans]):
        columns = columns[1:]
    if aligned and header.spans and _under(sh, columns, header.spans) is None:
        return False
    return len(columns) >= 2 and (len(header.names or header.cells) > 2 or len(columns) == 2)


def _valueless(header: Header) -> str:
    """The logger's prefix of a header whose prefix holds no value (`INFO:root:`), else ''."""
    return "" if header.lead else header.tail.translate(_VERTICALS).rstrip()


def _unprefixed(header: Header) -> Header:
    """A header logged behind a prefix read for rows printed bare: its names where they stand in the message."""
    cut = header.cut
    return replace(
        header,
        spans=[(a - cut, b - cut) for a, b in header.spans],
        cells=[(c, (a - cut, b - cut)) for c, (a, b) in header.cells],
        lead=(),
        before=(),
        tail="",
        cut=0,
    )


def _overlap(upper: Sequence[tuple[int, int]], lower: Sequence[tuple[int, int]]) -> bool:
    """Two header lines' names stand one over the other, pair by pair."""
    return len(upper) == len(lower) > 0 and all(
        a < d and c < b for (a, b), (c, d) in zip(upper, lower, strict=True)
    )


def _stacked(upper: Header, lower: Header) -> Header | None:
    """One header printed over two lines, each column's name in two words one above the other (Vowpal Wabbit's
    progress table, vowpalwabbit/core/src/... print_update header "average  since  example  example ..." /
    "loss  last  counter  weight ..."): the names joined, the upper word first. None where the lines do not stand
    column over column."""
    words = lower.sep == upper.sep == " " and _overlap(upper.spans, lower.spans)
    cells = _overlap([sp for _, sp in upper.cells], [sp for _, sp in lower.cells])
    if not (words or cells):
        return None
    names = [f"{u} {w}" for u, w in zip(upper.names, lower.names, strict=True)] if words else lower.names
    joined = (
        [
            (f"{u} {w}", (min(a, c), max(b, d)))
            for (u, (a, b)), (w, (c, d)) in zip(upper.cells, lower.cells, strict=True)
        ]
        if cells
        else lower.cells
    )
    spans = (
        [(min(a, c), max(b, d)) for (a, b), (c, d) in zip(upper.spans, lower.spans, strict=True)]
        if words
        else lower.spans
    )
    return Header(names, lower.sep, spans, joined)


def _cell_labels(rec: RecordShape, header: Header) -> None:
    """A table's row read cell by cell: the row split as its header is (at tabs, else at runs of two blanks) into as
    many cells as the header names, each cell under its name (for blanks, standing where the name stands). A
    cell's first number is the column's value, under the header's name unless the cell names it itself; what
    follows it in the cell is an aside no value of the step's (tf_cnn_benchmarks' `images/sec: 139.6 +/- 0.1
    (jitter = 0.3)`: the mean, its error and its jitter; nerfstudio's `4090 (81.78%)`: the step, the share
    done; `39 s, 300.687 ms`: one duration in two units). A cell that holds a printed list of several numbers
    (DeepXDE's `[1.81e+03, 2.69e+02, ...]`, the loss of each term) has no one value: which item, or their sum,
    is not for the reader to guess, so none is read; a list of one number is that number."""
    if not header.cells:
        return
    sh = rec.shapes[0]
    text = _marked(sh.raw)
    tabs = "\t" in text.strip()
    cut = header.cut if header.lead and header.sep == " " else 0  # (after a logger's prefix: _logged_header)
    cells = [(c, (a + cut, b + cut)) for c, (a, b) in _cells(text[cut:], tabs)]
    first = header.cells[0][1][0] if header.cells else 0
    if len(cells) == len(header.cells) + 1 and cells[0][0].isdigit() and cells[0][1][1] <= first:
        cells = cells[1:]  # (the row's index, under no name: pandas' to_string)
    if len(cells) != len(header.cells):
        return
    if not tabs and not _overlap([sp for _, sp in header.cells], [sp for _, sp in cells]):
        return
    spans = [m.span() for m in _TOKEN.finditer(sh.raw)]
    if len(spans) != len(sh.kinds):
        return
    plan: dict[int, str | None] = {}  # slot -> its label (None: an aside, not read)
    listed: dict[
        int, str
    ] = {}  # a list's first item -> its column's name (no value, but it says what the row is)
    bare = 0
    for (cell, (start, end)), (name, _) in zip(cells, header.cells, strict=True):
        inside = [i for i, (a, b) in enumerate(spans) if start <= a and b <= end]
        if not inside:
            continue
        if cell.startswith("[") and cell.endswith("]") and len(inside) > 1:
            listed[inside[0]] = name
            continue
        for j, i in enumerate(inside):
            slot = rec.slots[i]
            if j > 0:
                plan[i] = None
                continue
            own = slot.label and not slot.rate and slot.label in cell[: spans[i][0] - start]
            bare += not own
            plan[i] = slot.label if own else name
    if bare < 2:
        return  # a line of keyed values, no table's row
    for i, slot in enumerate(rec.slots):
        label = plan.get(i)
        if label is not None:
            slot.label, slot.header, slot.rate = label, True, False
        elif i < len(header.lead) and slot.kind != "num":
            continue  # (the logger's prefix: its timestamp is the row's)
        else:  # (an aside, a list's item, or the source location after the cells)
            slot.role, slot.header, slot.label = "skip", True, listed.get(i, "")


def _row_index(sh: SampledShape, columns: list[list[int]], starts: list[int]) -> bool:
    """A row's first column is its index, under no name: an integer printed left of where the header's first name
    starts (pandas' DataFrame.to_string and print(df): the index column, its header left blank)."""
    if len(columns) < 3 or not starts or len(columns[0]) != 1 or sh.kinds[0] != "num":
        return False
    found = _TOKEN.search(sh.raw)
    return found is not None and found.group().isdigit() and found.end() <= min(starts)


def _bare_row(sh: SampledShape, header: Header) -> bool:
    """A row of two numbers and nothing else but the table's separators and a unit after each (`10\t8.46`,
    `|  10 | 1.36s |`), after its index if it prints one."""
    if any(k != "num" for k in sh.kinds) or sh.literals[0].translate(_VERTICALS).strip() not in ("", "|"):
        return False
    columns = _columns(sh, header.sep)
    if _row_index(sh, columns, [a for a, _ in header.spans]):
        columns = columns[1:]
    if len(columns) != 2 or columns[-1][-1] != len(sh.kinds) - 1:
        return False
    tail = sh.literals[-1]
    unit = keymap_mod.UNIT_AFTER.match(tail)
    return tail[unit.end() if unit else 0 :].translate(_VERTICALS).strip() in ("", "|")


def _under(sh: SampledShape, columns: list[list[int]], spans: list[tuple[int, int]]) -> list[int] | None:
    """For each column of a whitespace table's row, the header name it stands under (their spans overlap), in
    order; None when a column stands under no name or two columns under one."""
    found = [m.span() for m in _TOKEN.finditer(sh.raw)]
    if len(found) < len(sh.kinds):
        return None
    out: list[int] = []
    for column in columns:
        start, end = found[column[0]][0], found[column[-1]][1]
        hits = [k for k, (a, b) in enumerate(spans) if a < end and start < b]
        if len(hits) != 1 or (out and hits[0] <= out[-1]):
            return None
        out.append(hits[0])
    return out


def _within_header(
    sh: SampledShape, columns: list[list[int]], spans: list[tuple[int, int]]
) -> list[list[int]]:
    """A whitespace table's row without the columns it prints to the right of its header's last name: the row
    goes on past the names (ElegantRL's evaluator names its last columns `etc.`), and those values have none."""
    found = [m.span() for m in _TOKEN.finditer(sh.raw)]
    if len(found) < len(sh.kinds):
        return columns
    end = spans[-1][1]
    kept = list(columns)
    while kept and found[kept[-1][0]][0] >= end:
        kept.pop()
    return kept


def _columns(sh: SampledShape, sep: str, start: int = 0, prefix: str = "") -> list[list[int]]:
    """The values of a table row grouped by column (the indices of its values): values joined by `/` are one
    column; a unit glued to a value is part of it; the row's columns end where its text stops being values and
    separators. `prefix`: a logger's prefix that holds no value (`INFO:root:`), before the row's first."""
    columns: list[list[int]] = []
    for i, lit in enumerate(sh.literals[: len(sh.kinds)]):
        lit = lit.translate(_VERTICALS)
        if i < start:
            continue  # (a logger's prefix, before the row: _behind)
        if i == start:
            if prefix and lit.startswith(prefix):
                lit = lit[len(prefix) :]
            if not start and lit.strip() not in ("", "|"):
                return []
            columns.append([i])
            continue
        text = lit
        unit = keymap_mod.UNIT_AFTER.match(text) if sh.kinds[i - 1] == "num" else None
        if unit is not None:
            text = text[unit.end() :]
        if text.strip() == "/":
            columns[-1].append(i)
        elif (
            (sep in " \t" and text and not text.strip())
            or (sep not in " \t" and text.strip() == sep)
            # (a rule between groups of a whitespace table's columns, blanks either side)
            or (sep == " " and text.strip() == "|" and text[:1] == " " and text[-1:] == " ")
            or (sep == "," and text and not text.strip() and "\t" in text)  # (a CSV header over rows of tabs)
            # (a column of marks between blanks, a flag with no number: skorch's epoch table prints `+` under
            # `cp` where a checkpoint was saved, skorch/callbacks/logging.py PrintLog)
            or (sep == " " and _FLAG_CELL.fullmatch(text) is not None)
        ):
            columns.append([i])
        else:
            break
    return columns


_FLAG_CELL = regex.compile(r" {2,}[^\w\s]{1,3} {2,}")


_ROW_LABEL = regex.compile(r"[A-Za-z_][\w.-]*")
_BAR_HEAD = regex.compile(r"^(?P<head>.*?):\s*\d{1,3}%")


def _named_columns(sh: SampledShape) -> list[str] | None:
    """The column names a line prints: a header line's, or those a progress display prints as its description
    (Ultralytics' validator draws its bar under `("%22s" + "%11s" * 2) % ("classes", "top1_acc", "top5_acc")`)."""
    if not sh.kinds:
        found = _header(sh.raw)
        return found[0] if found is not None else None
    m = _BAR_HEAD.match(sh.raw)
    if m is None or _tqdm_count(sh) is None:
        return None
    found = _header(m.group("head"))
    return found[0] if found is not None else None


def result_rows(records: list[RecordShape], sample: SampledLog) -> None:
    """Rows of a results table: under a line that names the columns, a row led by a name instead of a counter
    (`all`, a class's name) and then only numbers is an evaluation's result, an event: Ultralytics' validators
    print ("%22s" + "%11.3g" * n) % ("all", *metrics) under their header (ultralytics/models/yolo/classify/
    val.py print_results, detect/val.py), YOLOv5 and YOLOv7 the same (val.py); a training table's rows begin
    with their counter."""
    by_shape = {sh.key: rec for rec in records for sh in rec.shapes}
    under: Counter[int] = Counter()
    for seq in sample.order:
        last: list[str] | None = None
        for key in seq:
            if not key:
                continue
            sh = sample.shapes[key]
            rec = by_shape.get(key)
            if last is not None and rec is not None and len(sh.kinds) < len(last):
                under[id(rec)] += 1
            last = _named_columns(sh)
    for rec in records:
        sh = rec.shapes[0]
        if rec.kind != "none" or rec.count < 2 or under[id(rec)] < 0.5 * rec.count or len(sh.kinds) < 2:
            continue
        label = sh.literals[0].strip()
        if not _ROW_LABEL.fullmatch(label) or any(k != "num" for k in sh.kinds):
            continue
        if _TRAIN_STAGE & set(_words(label)):
            continue  # (a table that prints the training's row beside the evaluation's)
        if all(lit and lit.isspace() for lit in sh.literals[1:-1]) and not sh.literals[-1].strip():
            rec.kind = "eval_free"


# ------------------------------------------------------------------------------------------------
# records over several lines


# a line of a record printed over lines without a number: a section (`info:`, `| rollout/ |   |`) or a key with
# another kind of value (`done: false`, `policy_reward_mean: {}`)
# (a key of a few words with a name for its value is one too, not a path: rsl_rl's `Run name: cartpole` among its
# block's `Total steps: 256` lines)
_SECTION = regex.compile(
    r"^\s*[-*]?\s*\|?\s*[A-Za-z_][\w/.-]*\s*(?:[:=|]|/\s*\|)"
    r"|^\s*[A-Za-z_][\w/.-]*(?: [A-Za-z_][\w/.-]*){1,3}: +[A-Za-z_][\w-]*\s*$"
)


def _stamp_heading(sample: SampledLog, key: str) -> bool:
    """A stamp alone on its line, ruled or bracketed (`[2024-09-16 17:38:51]--------------------`): it opens the
    record after it, as a rule would, and gives it its time."""
    sh = sample.shapes.get(key) if key else None
    return sh is not None and _stamp_alone(sh)


def _stamp_alone(sh: SampledShape) -> bool:
    """Whether a line holds a stamp and nothing else but rules and brackets."""
    return sh.kinds == ["ts"] and not any(ch.isalnum() for lit in sh.literals for ch in lit)


def _inner_rule(sample: SampledLog, seq: Sequence[str], k: int, stop: int) -> bool:
    """Whether the rule at seq[k] divides one record printed over lines rather than ending it: a line of dashes,
    the lines after it up to the next record's line closed by a separator of their own right before that line (or
    by the end of what was sampled), so that they lead into no next record. leggedrobotics/rsl_rl's OnPolicyRunner
    log block (and legged_gym's, IsaacLab's) prints '#' * width, the centred 'Learning iteration {it}/{total}',
    the iteration's `key: value` lines, then '-' * width and 'Iteration time:', 'Total time:', 'ETA:' under it."""
    if not _rule_line(sample, seq[k], "-─━"):
        return False
    after = [j for j in range(k + 1, stop) if not seq[j] or not _separator(sample, seq[j])]
    if not after or not all(seq[j] for j in after[:1]):
        return False
    last = after[-1]
    return stop == len(seq) or (
        last + 1 < stop and all(_separator(sample, seq[j]) for j in range(last + 1, stop))
    )


def _underline(sample: SampledLog, seq: Sequence[str], k: int, h: int) -> bool:
    """Whether seq[k] is a rule of dashes or equal signs right under the record line at seq[h]: the heading's
    underline, the record's lines below it. PyTorch's transfer-learning tutorial (beginner_source/
    transfer_learning_tutorial.py train_model), copied by many classifiers' loops, prints f'Epoch {epoch}/
    {num_epochs - 1}', then '-' * 10, then f'{phase} Loss: {epoch_loss:.4f} Acc: {epoch_acc:.4f}' for each
    phase; some copies drop the print() that closes it with a blank line."""
    return k == h + 1 and _rule_line(sample, seq[k], "-─━=")


def _rule_line(sample: SampledLog, key: str, marks: str) -> bool:
    """Whether a line is a rule drawn of `marks` alone."""
    return bool(key) and set(sample.shapes[key].literals[0].strip()) <= set(marks)


def _separator(sample: SampledLog, key: str) -> bool:
    """A line that ends a record printed over lines: a blank one, a rule or brace (`-----`, `}`), or a line of
    words without a number that opens no section (a table's header)."""
    if not key:
        return True
    sh = sample.shapes[key]
    if sh.kinds and not (set(sh.kinds) == {"bar"} and not any(ch.isalnum() for ch in sh.raw)):
        return False
    # (a rule of box-drawing dashes reads as a bar's glyphs, `╰────╯`: a rule all the same)
    text = sh.literals[0] if not sh.kinds else sh.raw
    inner = text.strip()
    if inner[:1] in _BOX_OPENS:
        return False  # a box opened or divided under its step line goes on (Ray's result box, below)
    if not any(ch.isalnum() for ch in text):
        return not text.rstrip().endswith(("{", "[", "("))  # a dict opened under its step line goes on
    if len(inner) > 1 and inner[0] in _BOX_SIDES and inner[-1] in _BOX_SIDES:
        # a box's title or a key printed with no value, between its sides: Ray Train's result table under
        # `Training finished iteration N ...` (ray/tune/experimental/output.py, _print_result_table's
        # `╭──╮ │ Training result │ ├──┤ │ loss 2.06907 │ ... ╰──╯`) holds its rows to the closing corner
        return False
    return _SECTION.match(text) is None


# box-drawing corners and junctions that open or divide a box (its closing corners `╰└╚` end it), and its sides
_BOX_OPENS = frozenset("╭┌╔┏├╟╠┣┢┡╞")
_BOX_SIDES = frozenset("│┃║")


def _in_lockstep(rec: RecordShape, head: RecordShape, times: int, km: keymap_mod.KeyMap) -> bool:
    """Whether a line of values is printed with every line of its head and at no other time, one of its keys a
    quantity the key map knows: tt-train's nano_gpt example prints "Full step time {} ms, cache entries: {}" after
    each "Step: {}, Loss: {}"; 3D-VAE's `Output stats: min=..., max=..., mean=...` of its decoded volume names none
    and stays apart."""
    return times == head.count == rec.count >= MIN_REPEATS and any(
        _names_quantity(km, s.label) for s in rec.slots if s.kind == "num" and s.label
    )


def _names_quantity(km: keymap_mod.KeyMap, label: str) -> bool:
    """Whether a key names a step quantity by its words (`Full step time`) or a score (Caffe's `Train net output
    #0: accuracy = 0.5`), not by a unit alone (`min`, read as minutes, is a statistic's name on `Output stats:
    min=...`)."""
    if set(_words(label.lower())) & SCORE_WORDS:
        return True
    m = field_plan(km, label, None, [], False)
    return m is not None and not m.kept and (m.use is None or m.use.rule != "unit")


def _member(rec: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """A line that may belong to another line's record: one `key: value` and nothing after the value (a row of a
    block), or values of at least two keys the key map knows (a line of timings under a results line)."""
    sh = rec.shapes[0]
    if _stamp_alone(sh):
        return True  # a stamp alone on its line: the time of the record it heads (_stamp_heading)
    labelled = [s for s in rec.slots if s.kind == "num" and s.label and not s.rate]
    if len(labelled) == 1 and _running_aside(sh, [s for s in rec.slots if s.kind == "num"]):
        return (
            km.lookup(labelled[0].label, "step") is not None or km.lookup(labelled[0].label, "config") is None
        )
    shown = [s for s in rec.slots if s.role != "skip"]  # (a logger's line number is no value of the line)
    if len(shown) == 1 and shown[0].kind == "num" and shown[0].rate:
        # one value a rate unit after it names, and nothing after the unit: a block's row (tf-faster-rcnn's
        # train_val.py prints 'speed: {:.3f}s / iter' under each iteration's losses)
        rate = _RATE_AFTER.match(_after_last_value(sh))
        return rate is not None and not _after_last_value(sh)[rate.end() :].strip()
    if len(labelled) == 1 and len(shown) <= 2 and labelled[0].index == len(sh.kinds) - 1:
        tail = _after_last_value(sh)
        mapping = km.lookup(labelled[0].label, "config")
        config_only = mapping is not None and km.lookup(labelled[0].label, "step") is None
        unit = keymap_mod.UNIT_AFTER.match(sh.literals[-1]) is not None
        return not config_only and (not tail or unit or _listed_alone(sh))
    known = [s for s in labelled if km.lookup(s.label, "step") is not None]
    return len(known) >= 2 and (not _evaluation_text(rec) or (rec.counter is None and _both_splits(rec)))


def _single(rec: RecordShape) -> bool:
    """A line of one `key: value` and nothing after the value (a row of a record printed over lines)."""
    sh = rec.shapes[0]
    nums = [s for s in rec.slots if s.kind == "num"]
    if _running_aside(sh, nums):
        return not nums[0].rate  # (its running mean after it in brackets: `| > loss_0: 16.55468  (15.96176)`)
    return (
        len(nums) == 1
        and len(sh.kinds) == 1
        and bool(nums[0].label)
        and not nums[0].rate
        and (not _after_last_value(sh) or _listed_alone(sh))
    )


def _listed_alone(sh: SampledShape) -> bool:
    """A line's one value as a list of one (`lr: [0.0002]`: print('lr:', scheduler.get_last_lr()) of a
    scheduler over one parameter group)."""
    return sh.literals[0].rstrip().endswith("[") and _after_last_value(sh) == "]"


def _running_aside(sh: SampledShape, nums: list[Slot]) -> bool:
    """A line of one keyed value and a bare number in brackets after it, nothing else: the value's running mean
    (coqui-ai/TTS trainer's console logger prints "| > {key}: {value}  ({avg})" for each of a step's values)."""
    return (
        len(sh.kinds) == 2
        and len(nums) == 2
        and bool(nums[0].label)
        and not nums[1].label
        and sh.literals[1].strip() == "("
        and sh.literals[2].strip() == ")"
    )


def _after_last_value(sh: SampledShape) -> str:
    """What a line prints after its last value, a table's border (`|`, a box's side) and a comma aside."""
    return sh.literals[-1].translate(_VERTICALS).strip().strip("|,").strip()


def _counter_rank(rec: RecordShape) -> tuple[int, int, int]:
    """How surely a line's rising value counts the records of a block: named a step counter (`iteration`), named
    loosely (`iterations`, `steps`), named an epoch, or unnamed; then by its most common stride (the update
    number rises by one where the samples seen rise by the batch), then as printed first."""
    assert rec.counter is not None
    label = rec.slots[rec.counter].label
    rank = (
        0
        if _counter_named(label)
        else 1
        if _counter_named(label, loose=True)
        else 2
        if _epoch_named(label)
        else 3
    )
    values = [_whole(v) or 0 for _, v in rec.series(rec.counter)]
    strides = Counter(b - a for a, b in zip(values, values[1:], strict=False) if b > a)
    return rank, strides.most_common(1)[0][0] if strides else 1 << 30, rec.first


def block_counters(records: list[RecordShape], sample: SampledLog) -> list[RecordShape]:
    """One counter for each record printed one `key: value` a line (a block between rules or blank lines, as
    Stable-Baselines3's and OpenAI Baselines' loggers and ray's pretty_print print a result): of the block's lines
    whose values rise from block to block, the one named most surely a counter (then by the smallest stride)
    heads the block, and the others are its values; a block with no line named a counter takes its rising one
    where nothing else in the log counts steps. Returns the step records after that choice."""
    by_shape = {sh.key: rec for rec in records for sh in rec.shapes}
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    runs: list[list[RecordShape]] = []
    for seq in sample.order:
        run: list[RecordShape] = []
        for key in [*seq, ""]:
            if key and not _separator(sample, key):
                rec = by_shape.get(key)
                if rec is not None:
                    run.append(rec)
                continue
            if sum(_single(r) for r in run) >= 2:
                runs.append(run)
            run = []
    members: dict[int, RecordShape] = {}
    for run in runs:
        singles = [r for r in run if _single(r)]
        for r in singles:
            members[id(r)] = r
            parent[find(id(r))] = find(id(singles[0]))
    groups: dict[int, list[RecordShape]] = defaultdict(list)
    for r in members.values():
        groups[find(id(r))].append(r)
    lined = {id(r) for run in runs for r in run if r.kind == "step" and not _single(r)}
    alone = not any(r.kind == "step" and id(r) not in members for r in records)
    for group in groups.values():
        if any(id(r) in lined for r in group):
            continue  # the lines of a step line printed over lines (a dict under `step 100 done`)
        ids = {id(r) for r in group}
        over = {id(r): r for run in runs if ids & {id(x) for x in run} for r in run if id(r) in lined}
        if over:
            # a step line heads the block: a rising value among its lines counts the step only when named a
            # counter more surely (Ray Train's `Training finished iteration 2 ...` over its result box, whose
            # `│ epoch 1 │` row is a value of the iteration's)
            rising = [r for r in group if r.kind == "step"]
            if rising and min(over.values(), key=_counter_rank) is min(
                [*over.values(), *rising], key=_counter_rank
            ):
                for r in rising:
                    r.kind = "none"
            continue
        heads = [r for r in group if r.kind == "step"]
        if not heads and alone:
            heads = [
                r for r in group if r.kind == "none" and r.counter is not None and r.count >= MIN_REPEATS
            ]
        if not heads:
            continue
        best = min(heads, key=_counter_rank)
        for r in group:
            if r is best:
                r.kind = "step"
            elif r.kind == "step":
                r.kind = "none"  # another rising value of the block: one of its values (find_blocks)
    return [r for r in records if r.kind == "step"]


def _values_line(rec: RecordShape) -> bool:
    """A line of values alone: two keys or more, each with a number, and no counter (RVC's
    `loss_disc=3.859, loss_gen=3.076, ...` after its `[global_step, lr]` line); a duration under its key is a
    value (mbfaria/ShuffleFaceNet_Pytorch's `    total_loss: 14.8365 time: 10m 8s` under `Train Epoch: 6/70 ...`)."""
    labelled = [s for s in rec.slots if s.kind in ("num", "clock") and s.label and not s.rate]
    return len(labelled) >= 2 and rec.counter is None and (not _evaluation_text(rec) or _both_splits(rec))


def _trains_for(rec: RecordShape, head: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """A line of values that holds the training values its head line does not: the counter printed on one line,
    what the step measured on the next (cs336's GRPO loop logs "rollout batch {step} generated, length: {n}"
    after the rollout, then "rl_loss: {loss}, time: {t}, l2_norm: {norm}, ..." after the update). Where the head
    prints them, a line of other values after it is no part of its record (3D-VAE's train.py prints "Epoch {e},
    Step {s}: Reconstruction Loss=..., KL Loss=..., Total Loss=..." then "Output stats: min=..., max=...").
    So does a line of the losses after a head that prints the lr and the times but no loss (Det3D's text logger
    prints "Epoch [1/20000][220/1000]\tlr: 0.00003, ..., time: 4.022, ..." then "task : ['concealed'], loss:
    4353.6804, cls_pos_loss: ...")."""
    if _trains(rec, km) and not _trains(head, km):
        return True
    return _trains(rec, km, ("loss",)) and not _trains(head, km, ("loss",))


def _indented_under(rec: RecordShape, head: RecordShape) -> bool:
    """A line indented (a tab, or two blanks or more) where its record's head line is not: a continuation of the
    head's record, whatever its keys (faster-rcnn.pytorch trainval_net.py and its many forks print every
    disp_interval "[session %d][epoch %2d][iter %4d/%4d] loss: %.4f, lr: %.2e", then "\t\t\tfg/bg=(%d/%d), time
    cost: %f" and "\t\t\trpn_cls: %.4f, rpn_box: %.4f, rcnn_cls: %.4f, rcnn_box %.4f")."""

    def indent(sh: SampledShape) -> bool:
        return sh.raw.startswith(("\t", "  "))

    return all(indent(sh) for sh in rec.shapes) and not any(indent(sh) for sh in head.shapes)


def _leading_lines(sample: SampledLog, heads: dict[str, RecordShape]) -> set[str]:
    """The shapes of the lines a log prints right before its first step line, with no separator between: where
    the same lines come right before every later step line too, each leads its record (the Timer line of
    SSD-style trainers, print('Timer: %.4f' % (t1 - t0)) before the iteration's own line). Empty when the
    sample does not begin with the file's head."""
    if not sample.order:
        return set()
    seq = sample.order[0]
    first = next((k for k, key in enumerate(seq) if key in heads), None)
    found: set[str] = set()
    if first is None:
        return found
    k = first - 1
    while k >= 0 and first - k <= MAX_BLOCK_LINES and not _separator(sample, seq[k]):
        if seq[k] in heads:
            break
        found.add(seq[k])
        k -= 1
    return found


def _epoch_banner(rec: RecordShape) -> bool:
    """A sentence or a rule that says an epoch begins and prints nothing else: facebookresearch/DiT train.py logs
    f"Beginning epoch {epoch}..." after its start-up lines, others `===== Epoch   6 / 200 =====`. Not a key's line
    (a logged dict's `epoch: 1424`, Palette's, closes the keys above it; a logged table's step row, `| step |
    3.3e+03 |`, its rows)."""
    if _has_values(rec) or rec.counter is None or not _epoch_named(rec.slots[rec.counter].label):
        return False
    before = rec.shapes[0].literals[rec.counter].rstrip()
    return not before.endswith((":", "=", "|"))


def find_blocks(
    steps: list[RecordShape], records: list[RecordShape], sample: SampledLog, km: keymap_mod.KeyMap
) -> None:
    """Lines that come with every line of a step record (a `key<TAB>value` block, a dict or a table printed over
    lines, a list of timings under a results line) join its row: those after it, up to the next record line or
    a separator (a blank line, a rule, a brace, a header), join it (attach previous); those after a separator and
    before it join the next one. A record printed once (one table of results) takes them too, when each is one
    `key: value` line."""
    by_shape = {sh.key: rec for rec in records for sh in rec.shapes}
    heads = {sh.key: rec for rec in steps for sh in rec.shapes}
    seen: dict[tuple[int, int, str], int] = Counter()  # (member id, head id, previous | next) -> times
    leads = _leading_lines(sample, heads)
    for seq in sample.order:
        at = [k for k, key in enumerate(seq) if key in heads]
        for n, h in enumerate(at):
            head = heads[seq[h]]
            stop = at[n + 1] if n + 1 < len(at) else len(seq)
            if n + 1 < len(at):
                following = heads[seq[at[n + 1]]]
                while stop - 1 > h and seq[stop - 1] in leads:
                    stop -= 1  # (the next record's leading lines, printed before its step line)
                    if seq[stop] in by_shape:
                        seen[(id(by_shape[seq[stop]]), id(following), "next")] += 1
            k = h + 1
            if not _has_values(head):
                # (a banner of the counter alone heads the block under it past the blank line it prints after
                # itself: berkeley cs285's "\n\n********** Iteration %i ************" then the logger's lines)
                while k < stop and _separator(sample, seq[k]):
                    k += 1
            crossed = False
            while k < stop and k - h <= MAX_BLOCK_LINES:
                if _separator(sample, seq[k]):
                    if crossed or not (_inner_rule(sample, seq, k, stop) or _underline(sample, seq, k, h)):
                        break
                    crossed = True  # (a rule within the record: its last lines are under it)
                    k += 1
                    continue
                if _stamp_heading(sample, seq[k]):
                    break  # (it opens the next record)
                if seq[k] in by_shape:
                    seen[(id(by_shape[seq[k]]), id(head), "previous")] += 1
                k += 1
            start = at[n - 1] + 1 if n > 0 else 0
            k = h - 1
            while k >= start and h - k <= MAX_BLOCK_LINES and not _separator(sample, seq[k]):
                k -= 1
                if _stamp_heading(sample, seq[k + 1]):
                    break
            if n > 0 and k == start and _underline(sample, seq, k, at[n - 1]):
                continue  # (the lines under the previous record's underlined heading are its own)
            if _epoch_banner(head):
                continue  # (it heads the lines under it, never those above)
            if k >= start or n == 0:  # (lines after the previous record's own, or before the first record)
                for j in range(k + 1, h):
                    if seq[j] in by_shape:
                        seen[(id(by_shape[seq[j]]), id(head), "next")] += 1
    head_of = {id(rec): rec for rec in steps}
    best: dict[int, tuple[int, int, str]] = {}
    for (member, head, where), times in seen.items():
        if times > best.get(member, (0, 0, ""))[0]:
            best[member] = (times, head, where)
    rows_of: Counter[int] = Counter(
        best[id(rec)][1] for rec in records if rec.kind == "none" and id(rec) in best and _single(rec)
    )
    for rec in records:
        if id(rec) not in best or rec.kind not in ("none", "eval_free"):
            continue
        if _says_saved(rec.shapes[0]):
            continue  # (a save's line after a step's, the score it quotes the best so far: the save's event)
        times, head_id, where = best[id(rec)]
        head = head_of[head_id]
        if _on_bar(rec) and {sl.label for sl in rec.slots if sl.label} & {
            sl.label for sl in head.slots if sl.label
        }:
            # (a progress bar drawn before each record, its description a batch's value of the key the record
            # prints for the whole epoch: tqdm's set_description(f'Train Loss: {loss.item():.4f}') over the loader,
            # then print(f'[{epoch}/{epochs}] Train Loss: ...'): the bar's frames, not the record's values)
            continue
        if rec.kind == "eval_free" and not (
            _single(rec) and times == head.count == rec.count and rows_of[head_id] >= 2
        ):
            # (an evaluation's `key: value` row among the `key: value` rows of every block of a step is one of the
            # step's values, as `val_loss` on a step's own line is: Ray Train's result box prints the user's
            # reported val_loss; a line of its own after each step line, `val acc: 0.9375`, stays an evaluation)
            continue
        if (
            not _member(rec, km)
            and not (
                _values_line(rec)
                and (
                    not _has_values(head) or _trains_for(rec, head, km) or _in_lockstep(rec, head, times, km)
                )
            )
            and not (_values_line(rec) and _indented_under(rec, head))
        ):
            continue  # (a head that prints no value of its own, a counter or a list, takes its values' line)
        single = len([s for s in rec.slots if s.kind == "num"]) == 1 or _single(rec)
        # (a head printed once that prints no training value takes the line of them after it too: an excerpt of
        # one step of ming024/FastSpeech2's train.py, "Epoch [{}/{}], Step [{}/{}]:" then "Total Loss: {:.4f},
        # Mel Loss: {:.4f}, ...")
        bare = _values_line(rec) and (not _has_values(head) or _trains_for(rec, head, km))
        if (
            (head.count >= 2 or single or bare)
            and times >= BLOCK_SHARE * head.count
            and rec.count <= head.count * 1.25
        ):
            rec.kind, rec.head, rec.attach = "block", head, where
            head.members += 1
            for (
                slot
            ) in rec.slots:  # a block's line numbers no step of its own: its counter-like values are values
                if slot.role in ("step", "total", "epoch", "skip"):
                    slot.role = "value"
            rec.counter = rec.epoch = rec.total = None


# ------------------------------------------------------------------------------------------------
# the set


@dataclass
class Inferred:
    """An inferred reading: the pattern set's table (as `patterns new` writes it) and what was decided."""

    table: Table
    keys: dict[
        str, list[tuple[str, str, str]]
    ]  # line name -> (mapped | kept, the key as printed, its column)
    records: list[RecordShape]
    seen: frozenset[str]  # the shapes of the sample: a line of one of them the inferred lines did not take is
    # no record (the generic set's own step regex, tried after them, leaves it)


# Python's warnings.formatwarning: "{file}:{lineno}: {category}: {message}\n  {source line}\n", the message over as
# many lines as it holds
_WARNING_HEAD = regex.compile(r"^\S.*?:\d+: (?:[A-Z]\w*)?Warning:(?:\s|$)")


# a row of nvidia-smi's process table, printed at a job's start (its GPU index rises down the table like a counter):
# `|    0   N/A  N/A      6718      C   /usr/bin/python3      5776MiB |` (GPU, GI, CI, PID, type, process name,
# memory; drivers before 450 print no GI and CI), a tool's table, never the training's record
_NVIDIA_SMI_PROCESS = regex.compile(
    r"^\|\s+\d+\s+(?:(?:N/A|\d+)\s+(?:N/A|\d+)\s+)?\d+\s+[CGM+]{1,3}\s+\S.*?\s(?:\d+MiB|N/A)\s*\|\s*$"
)


def _lines_of(sample: SampledLog, seq: list[str]) -> Iterator[tuple[str, SampledShape | None, str]]:
    """A slice's lines in order: each one's shape key, its shape (None for a blank line) and the shape's first
    line as printed ('' for a blank one)."""
    for key in seq:
        sh = sample.shapes.get(key) if key else None
        yield key, sh, (sh.raw if sh is not None else "")


def _warning_text(sample: SampledLog) -> set[str]:
    """The shapes of lines that only ever continue a Python warning's message (nltk's `Therefore the BLEU score
    evaluates to 0, independently of` after `bleu_score.py:577: UserWarning:`): a library's sentence, no record,
    up to the indented source line that ends the warning."""
    inside: set[str] = set()
    outside: set[str] = set()
    for seq in sample.order:
        within = False
        for key, sh, text in _lines_of(sample, seq):
            if sh is not None and _WARNING_HEAD.match(text):
                within = True
                continue
            if within and (not text or text[:1].isspace()):
                within = False  # (the source line, indented, ends it)
                continue
            if sh is not None:
                (inside if within else outside).add(key)
    return inside - outside


def _list_tail(rec: RecordShape) -> bool:
    """A line of numbers that ends by closing brackets it never opened is the rest of a list printed over lines, no
    record of its own: a tensor's rows wrapped by torch's print (lucidrains/x-transformers train_copy.py prints
    `input:   tensor([[ 3, 10,  2, ...,` and the next line `          4, 11,  7, ..., 11]])`)."""
    text = rec.shapes[0].raw.rstrip()
    closers = len(text) - len(text.rstrip(")]"))
    if closers == 0 or "]" not in text[len(text) - closers :]:
        return False
    return text.count("]") > text.count("[") and all(k == "num" for k in rec.shapes[0].kinds)


def _fuller_first_lines(records: list[RecordShape]) -> None:
    """A line seen once or twice that prints a step record's own text up to its counter, then every key the record
    prints and more, is that record's line at a step that logs a few things once: its counter is where the
    record's is (google-deepmind/nanodo's metric writer prints `[0] __train_loss=..., n_params/all=...` with the
    model's parameter counts at step 0 only, the same keys without them at every later step)."""
    mains = [rec for rec in records if rec.counter is not None and rec.count >= MIN_REPEATS]
    for rec in records:
        if rec.counter is not None or rec.count >= MIN_REPEATS or not rec.shapes[0].kinds:
            continue
        for main in mains:
            assert main.counter is not None
            c, mine, theirs = main.counter, rec.shapes[0], main.shapes[0]
            if len(rec.slots) <= c or mine.kinds[: c + 1] != theirs.kinds[: c + 1]:
                continue
            if mine.literals[: c + 1] != theirs.literals[: c + 1] or not _is_int(v for _, v in rec.series(c)):
                continue
            keys = {sl.label for sl in main.slots if sl.label and sl.role == "value"}
            labels = {sl.label for sl in rec.slots if sl.label}
            if not keys or not keys < labels:
                continue
            for ours, its in zip(rec.slots[: c + 1], main.slots[: c + 1], strict=True):
                ours.role = its.role
            rec.counter, rec.named, rec.whole = c, main.named, main.whole
            rec.epoch = main.epoch if main.epoch is not None and main.epoch < c else None
            rec.counter_scale, rec.fuller = main.counter_scale, True
            break


def infer(slices: Iterable[Iterable[Record]], km: keymap_mod.KeyMap | None = None) -> Inferred | None:
    """The inferred reading of a log from its sampled records (the head first, then slices of the file)."""
    km = km or keymap_mod.load()
    sample = sample_shapes(slices)
    quoted = _warning_text(sample) | {
        key for key, sh in sample.shapes.items() if _NVIDIA_SMI_PROCESS.match(sh.raw)
    }
    records = [rec for rec in records_of(sample) if not all(sh.key in quoted for sh in rec.shapes)]
    apply_headers(records, sample)
    records = [part for rec in records for part in _counted_apart(rec, km)]
    _fuller_first_lines(records)
    steps: list[RecordShape] = []
    for rec in records:
        if rec.counter is None:
            rec.kind = "none"
            continue
        if not _qualifies(rec) or _tree_branch(rec) or _options_repr(rec) or _list_tail(rec):
            rec.kind = "none"
            continue
        if _save_only(rec):
            # a save's line that numbers its epoch or step and prints no value: the save's event, no step (PyTorch's
            # DDP tutorial multinode.py prints f"Epoch {epoch} | Training snapshot saved at {self.snapshot_path}")
            rec.kind = "none"
            continue
        rec.kind = "eval" if _evaluation(rec, km) else "step"
        if rec.kind == "step":
            steps.append(rec)
    for rec in steps:
        if _accuracy_check(rec, steps):
            rec.kind, rec.own_count = "eval", True  # (at an epoch, not at a step its counter numbers)
        elif _diagnostic(rec, steps, km):
            rec.kind = "none"
    for rec in records:
        if (
            rec.kind in ("none", "step")
            and rec.counter is not None
            and _epoch_summary_evaluated(rec, steps, km)
        ):
            rec.kind, rec.own_count = "eval", True
        elif rec.kind == "step" and _splits_estimated(rec, steps, km):
            rec.kind = "eval"
    steps = [rec for rec in steps if rec.kind == "step"]
    if not any(rec.count >= MIN_REPEATS for rec in steps):
        for rec in records:
            if rec.kind == "eval" and _metric_named_steps(rec):
                rec.kind = "step"
                steps.append(rec)
    for rec in records:
        if rec.kind == "none" and rec.counter is None and _within_an_epoch(rec) and _trains(rec, km):
            continue  # (training values printed many times in one epoch, an evaluation's beside them: steps)
        if (
            rec.kind == "none"
            and (rec.counter is None or rec.count < MIN_REPEATS)
            and _evaluation_text(rec)
            and not (rec.counter is None and _both_splits(rec))
        ):
            # (a counter seen too few times to make a record of steps may still number an evaluation's epochs:
            # `Test Epoch: 13\tAccuracy: ...` twice in an excerpt)
            varied = any(
                len({v for _, v in rec.series(sl.index)}) > 1
                for sl in rec.slots
                if sl.kind == "num" and sl.label
            )  # (an evaluation's metrics change; a data set's `found 16 images` line does not)
            if rec.count >= 2 and _has_values(rec) and (varied or _scores_only(rec, km)):
                rec.kind = "eval_free"
            elif rec.count == 1 and (
                _scored(rec, km)
                or _scores_only(rec, km)
                or _lone_eval_loss(rec, km)
                or _evaluation_keys(rec)
                or _opened_by_evaluation(rec)
                or _evaluation_loss_only(rec, km)
            ):
                rec.kind = "eval_free"
        elif rec.kind == "none" and rec.counter is None and rec.count == 1 and _final_score(rec, steps, km):
            rec.kind = "eval_free"
        elif rec.kind == "none" and rec.count == 1 and _evaluation_keys(rec):
            rec.kind = "eval_free"
        elif rec.kind == "none" and rec.counter is None and _monitored(rec, records):
            rec.kind = "eval_free"
        elif rec.kind == "none" and rec.counter is None and _metrics_only(rec, km):
            # a line of evaluation metrics alone says what it is even when seen once (StyleGAN2-ADA's
            # `network-snapshot-005734  time 4m 26s  fid50k_full 46.5633`)
            rec.kind = "eval_free"
    _under_evaluation_headings(records, sample, km)
    evaluations = [rec for rec in records if rec.kind in ("eval", "eval_free")]
    first_step = min((rec.first for rec in records if rec.kind == "step"), default=None)
    for rec in evaluations:
        if (
            _best_so_far(rec)
            or _resumed(rec)
            or _save_only(rec)
            or _saved_beside(rec, evaluations)
            or _setting_before_steps(rec, first_step)
            or _says_absent(rec)
        ):
            rec.kind = "none"
    _announcements(records)
    _sibling_counters(records)
    result_rows(records, sample)
    steps = _table_rows(block_counters(records, sample), km)
    if steps and all(rec.count < MIN_REPEATS for rec in steps):
        # beside an epoch's summary seen once or twice, a repeated record of training values under the same
        # epoch and no counter is the steps (a T5 fine-tuner's `Epoch 2 - Batch loss: 1.1686` lines, then
        # `Epoch 2 - Average Train Loss: 0.5625`): the summary is the epoch's, no step of its own
        found = _uncounted_steps(records, km)
        if found and found[0].epoch is not None:
            for rec in steps:
                rec.kind = "none"
            return _reading(records, sample, km)
        for rec in found:
            rec.kind = "none"
    if not steps:
        if _uncounted_steps(records, km) or _evaluations_only(records):
            return _reading(records, sample, km)
        return None
    for rec in list(steps):
        head = _epoch_heading(rec, records, sample)
        if head is not None and head not in steps:
            steps.append(head)
    steps = [rec for rec in steps if rec.kind == "step"]
    _line_over_its_bar(steps, km)
    find_blocks(steps, records, sample, km)
    _paced_by_bar(steps, records, sample, km)
    # (unless the log prints nothing else that counts: a counter named so, seen rising, alone, is the run's progress,
    # its only record of the steps it ran: Surprise's SVD.fit(verbose=True) prints "Processing epoch {}" an epoch,
    # surprise/prediction_algorithms/matrix_factorization.pyx)
    progress = _restatements_dropped([rec for rec in steps if rec.kind == "step"])
    if len(progress) != 1 or not progress[0].named or progress[0].count < MIN_REPEATS:
        progress = []
    elif any(_trains(rec, km) for rec in records if rec is not progress[0]):
        progress = []  # (lines of training values beside it are the steps, uncounted or in blocks)
    for rec in steps:  # a counter alone is a record only with the lines that print its values
        if (
            rec.kind == "step"
            and rec not in progress
            and (not _has_values(rec) or (rec.count < MIN_REPEATS and _counts_only(rec)))
            and not rec.members
            and not _listed(rec)
            and _lone_value(rec) is None
        ):
            rec.kind = "none"
    trained = [rec for rec in steps if rec.kind == "step" and rec.count >= MIN_REPEATS and _trains(rec, km)]
    for rec in steps:
        if not trained or rec.kind != "step" or rec.count != 1 or rec in trained:
            continue
        # a counter's line seen once beside a record of steps that prints training values: a banner of where the
        # run starts where it prints none, its own or on lines after it, and no score (an evaluation's), (a GPT
        # loop's `epoch: 0 | step: 0 | shard: 0`, then `total steps: 3834 | grad accum steps: 16`); or the plan in
        # the set-up echo (_plan_ahead)
        banner = not any(
            _trains(part, km) for part in records if part is rec or part.head is rec
        ) and not any(set(_words(label)) & SCORE_WORDS for label in _measured_labels(rec))
        if banner or _plan_ahead(rec, trained):
            rec.kind = "none"
    steps = [rec for rec in steps if rec.kind == "step"]
    # the lines of other workers beside the trainer's (an RL loop's actors): Acme prints every counter on every
    # logger's line; a record under a counter of its own that prints the trainer's counter among its values and
    # no training value is progress of that worker, not a step
    # (a line of its own per epoch that states the epoch's lr, Kaldi's `epoch 0, learning rate 0.001`, is the
    # epoch's header, not another worker's trainer)
    trainers = [
        rec
        for rec in steps
        if _trains(rec, km) and not (rec.counter is not None and _epoch_named(rec.slots[rec.counter].label))
    ]
    if trainers and len(trainers) < len(steps):
        # (an epoch is no worker's counter: a step line that prints its epoch, under an epoch line that states the
        # lr, is the epoch's steps, Kaldi's `Process 100/3161(...) ... objf: ..., epoch 0` under `epoch 0,
        # learning rate 0.001`)
        theirs = {_counter_key(rec) for rec in trainers if not _epoch_named(rec.slots[rec.counter].label)}
        for rec in steps:
            if rec not in trainers and _counter_key(rec) in theirs and _reports_only(rec, trainers, km):
                rec.kind = "none"
                continue
            if rec in trainers or _counter_key(rec) in theirs:
                continue
            values = {
                keymap_mod.normalize(_QUALIFIER.sub("", s.label)) for s in rec.slots if s.role == "value"
            }
            if values & theirs:
                rec.kind = "none"
        for rec in steps:
            # (nor is a record of no training value whose counter stays below the training's, though named alike:
            # a summary counted per epoch, `Training accuracy at step 1 is : 95.00%` after `(Step 000250)`)
            if (
                rec.kind == "step"
                and rec not in trainers
                and any(_lags_behind(rec, main) for main in trainers)
            ):
                rec.kind = "none"
        steps = [rec for rec in steps if rec.kind == "step"]
    for rec in steps:
        if any(_enumerated_under(rec, head, km) for head in steps):
            rec.kind = "none"
    steps = [rec for rec in steps if rec.kind == "step"]
    # beside records that repeat, a record seen once or twice counts steps only under the same counter's name
    # (timm's `*** Best metric: 100.0 (epoch 1)` after its `Train: 2 [  11/12 ...]` lines is a summary)
    repeated = {_counter_key(rec) for rec in steps if rec.count >= MIN_REPEATS}
    if repeated:
        training = any(rec.count >= MIN_REPEATS and _trains(rec, km) for rec in steps)
        for rec in steps:
            if rec.count < MIN_REPEATS and (
                _counter_key(rec) not in repeated or (training and _run_header(rec, km))
            ):
                rec.kind = "none"
        steps = [rec for rec in steps if rec.kind == "step"]
    for rec in steps:
        if (
            _epoch_summary(rec, steps, km)
            or _outer_summary(rec, steps)
            or _save_note(rec, steps)
            or _settings_line(rec, steps, km)
            or any(_cut_short(rec, main) for main in steps if main is not rec)
        ):
            rec.kind = "none"
    steps = [rec for rec in steps if rec.kind == "step"]
    for rec in steps:
        others = [main for main in steps if main is not rec and not _extends(rec, main)]
        if any(
            _measured_again(rec, main)
            or _quotes_training(rec, main, km)
            or _scored_beside(rec, main, km)
            or _evaluated_beside(rec, main, km)
            for main in others
        ):
            rec.kind = "eval"
        elif any(_second_loop(rec, main) for main in others):
            rec.kind, rec.own_count = "eval", True
    steps = [rec for rec in steps if rec.kind == "step"]
    for rec in steps:
        if _run_summary(rec, steps):
            rec.kind = "none"
    steps = [rec for rec in steps if rec.kind == "step"]
    for rec in steps:
        if any(main is not rec and main.kind == "step" and _copy_of(rec, main) for main in steps):
            rec.kind = "none"
        elif not rec.named and len(rec.shapes) == rec.count >= MIN_REPEATS and len(steps) > 1:
            # lines of one layout but each worded its own way, each printed once, beside the steps: a tally of
            # results ('Correct (format=1, answer=1): 102/2140 (4.8%)' then 'Format incorrect (...)'), whose
            # unnamed numbers only happen to rise
            rec.kind = "none"
    steps = [rec for rec in steps if rec.kind == "step"]
    for rec in steps:
        main = next((m for m in steps if m is not rec and m.kind == "step" and _other_half(rec, m)), None)
        if main is not None and rec.count < main.count and _scores_only_of_an_agent(rec):
            # at some of the steps, a line of a score or a return alone: the evaluation done there (TF-Agents'
            # DQN tutorial prints 'step = {0}: loss = {1}' every log_interval and 'step = {0}: Average Return =
            # {1}' of compute_avg_return(eval_env, ...) every eval_interval)
            rec.kind = "eval"
            continue
        if main is not None:  # the step's other values, joined to its row by the step they print
            rec.kind, rec.head, rec.attach = "block", main, "step"
            main.members += 1
    steps = [rec for rec in steps if rec.kind == "step"]
    for main in sorted(steps, key=lambda r: r.first):  # a step's lines of other shapes right after its line
        if main.kind == "step":
            for rec in _continuations(main, records, sample, km):
                _join(rec, main)
    steps = _announced_rates(steps, records, sample, km)
    for rec in steps:  # an epoch printed on a line of its own before its steps (PaddlePaddle's `Epoch 1/3`)
        if rec.epoch is None and rec.counter is not None:
            _find_marker(rec, records)
    steps = _epochs_over_bare_bars(steps, records, km)
    steps = _epochs_opening_bars(steps, records, km)
    steps = _bars_first_frames(steps, records)
    steps = _bars_after_training(steps, km)
    for rec in steps:
        _epochs_planned_by_bar(rec)
    steps = _without_progress_reports(steps)
    # a progress bar's position counts steps only where nothing else in the log does: beside records of their
    # own (Catalyst's and SpeechBrain's epoch lines), the bars are progress, their postfixes lag
    # A bar that counts to the total the records print (`step 10/120 | ...` beside a bar's `10/120`) counts the
    # same steps: its frames are kept as rows of theirs (a resume that redoes steps shows in the values the two
    # give one step), its smoothed rate left to the records' own time
    own = [rec for rec in steps if _own_counter(rec)]
    if own:
        totals = set().union(*(_totals(rec) for rec in own))
        for rec in steps:
            if rec not in own:
                if rec.counter == _tqdm_count(rec.shapes[0]) and _totals(rec) and _totals(rec) <= totals:
                    rec.beside = True
                else:
                    rec.kind = "none"
        steps = [rec for rec in steps if rec.kind == "step"]
    evals_by_epoch = not any(
        _epoch_named(rec.slots[rec.counter].label) for rec in steps if rec.counter is not None
    )
    for (
        rec
    ) in records:  # an evaluation that names its epoch beside steps that count batches: no step of theirs
        if rec.kind == "eval" and evals_by_epoch and rec.counter is not None:
            if _epoch_named(rec.slots[rec.counter].label):
                rec.slots[rec.counter].role = "value"
                rec.counter = None
    if not steps:
        return _reading(records, sample, km) if _uncounted_steps(records, km) else None
    for rec in records:
        if rec.kind == "eval" and not rec.own_count:
            rec.at_steps = _at_training_steps(rec, steps)
    return _reading(records, sample, km)


def _at_training_steps(rec: RecordShape, steps: list[RecordShape]) -> bool:
    """Whether an evaluation's counter, named as the evaluation's (`[eval] iter 400:` beside `[train] iter 400:`),
    prints the training steps it was done at: rising from one evaluation to the next, with no total of its own
    (`Val Step 1/157` counts the evaluation's batches, from 1 again each time), each value one the training's
    counter printed."""
    if rec.counter is None or any(s.role == "total" for s in rec.slots):
        return False
    texts = [v for _, v in rec.series(rec.counter)]
    if not _is_int(texts):
        return False
    values = _ints(texts)
    if not values or any(b <= a for a, b in zip(values, values[1:], strict=False)):
        return False
    printed = {v for main in steps if main.counter is not None for _, v in main.series(main.counter)}
    return all(v in printed for v in texts)


def _announcements(records: list[RecordShape]) -> None:
    """Step records that announce something rather than record a step, each no step:
    - a resume's line: the step it names is the checkpoint's, the loss it quotes the best kept so far
      (SmolLM2-Text-Generator's "Resuming from epoch {e}, step {s}, best loss {b:.6f}");
    - a bar's frame that prints the bar alone (its position, clocks and rate), beside records that print values:
      Tianshou's epoch bar before its first postfix of the epoch, `Epoch #2:  20%|##  | 100/500 [00:04<00:18,
      21.37it/s]`, counts the epoch its description names, not a step;
    - a line that says a phase starts, seen less often than another step record: the records come under it
      (Avalanche's "-- Starting training on experience 0 (Task 0) from train stream --" before its "Epoch N
      ended." blocks).
    Each test sees the records the tests before it left."""
    for rec in records:
        if rec.kind == "step" and _resumed(rec):
            rec.kind = "none"
    if any(rec.kind == "step" and not _bar_alone(rec) for rec in records):
        for rec in records:
            if rec.kind == "step" and _bar_alone(rec):
                rec.kind = "none"
    most = max((rec.count for rec in records if rec.kind == "step"), default=0)
    for rec in records:
        if rec.kind == "step" and rec.count < most and _says_starting(rec):
            rec.kind = "none"


def _plan_ahead(rec: RecordShape, trained: list[RecordShape]) -> bool:
    """A counter's line seen once before the repeated record of training values begins, its count past where that
    record starts: the run's plan in its set-up echo, no step (a PINN notebook prints "numbers of node =  20",
    "learning rate =  0.001", "epoch =  2000", then "   Epoch=0\t loss=6.020e-01" and on)."""
    first = _whole(_unsep(rec.series(rec.counter)[0][1]))
    if first is None:
        return False
    for main in trained:
        if main.counter is None or main.first <= rec.first:
            return False
        start = _whole(_unsep(main.series(main.counter)[0][1]))
        if start is None or first <= start:
            return False
    return True


def _evaluations_only(records: list[RecordShape]) -> bool:
    """Whether a log's only repeated record is an evaluation's, under a counter of its own, its lines the log's
    most (a loop that prints the validation loss alone: `Step {iter}: Val Loss {loss:.4f} | LR: {lr:.2e}`, every
    interval, before that step's update): the log's evaluations and no step, rather than those lines read as
    steps by the generic set."""
    evaluations = [rec for rec in records if rec.kind == "eval" and rec.counter is not None]
    most = max((rec.count for rec in evaluations), default=0)
    if most < MIN_REPEATS:
        return False
    return all(rec.count < most or rec.kind == "eval" for rec in records if _has_values(rec))


def _reading(records: list[RecordShape], sample: SampledLog, km: keymap_mod.KeyMap) -> Inferred:
    """The inferred set of the records found: steps, evaluations, the lines joined to them, and the saves."""
    for rec in records:
        head = rec.head
        if rec.kind == "block" and head is not None and head.kind == "none" and head.count < MIN_REPEATS:
            # (the lines of a record seen once and found to be no step are no step's: a run's closing summary,
            # STAEformer's `Early stopping at epoch: 79`, then `Best at epoch 49:` and its `Train Loss = ...`)
            rec.kind = "none"
    used = sorted(
        (rec for rec in records if rec.kind in ("step", "eval", "block", "eval_free", "marker")),
        key=lambda r: (r.kind in ("block", "marker"), -r.count, r.first),
    )[:MAX_RECORDS]
    taken = {sh.key for rec in used for sh in rec.shapes}
    saves = [sh for sh in sample.shapes.values() if sh.key not in taken and _says_saved(sh)]
    announced = _announced(records, sample, taken) if used else []
    counts = _parameter_tables(sample)
    table, keys = build_table(used, km, saves[:MAX_RECORDS], announced[:MAX_RECORDS], counts[:MAX_RECORDS])
    return Inferred(table, keys, used, frozenset(sample.shapes))


# a table of parameter counts under its heading, one `name: count` a line: karpathy/nanochat scripts/base_train.py
# (and autoresearch's train.py after it) prints "Parameter counts:" then f"  {key:24s}: {value:,}" for each part and
# `total`; a script's "Model Parameters:" then "  Total: 134,515,008 (134.52M)", "  Trainable: ..."
_PARAMS_HEADING = regex.compile(r"(?i)^\s*(?:model\s+)?param(?:eter)?s?(?:\s+counts?)?\s*:?\s*$")
_PARAMS_ROW = regex.compile(
    r"(?i)^(?P<prefix>\s*(?P<key>total|trainable)(?:\s+param(?:eter)?s)?\s*:\s*)(?P<n>\d{1,3}(?:,\d{3})+|\d+)(?![\d.])"
)
# any row of such a table (`wte                     : 65,536`): the table goes on
_COUNT_ROW = regex.compile(r"^\s*[\w.-]+(?:\s[\w.-]+)?\s*:\s*\d[\d,]*(?:\s*\(.*\))?\s*$")


def _parameter_tables(sample: SampledLog) -> list[tuple[SampledShape, str, str]]:
    """The rows of a parameter table that give the model's total or trainable count, each with its fact and the
    text before its number (the line's own: its regex reads that row alone). Its other rows (the parts) and a
    row under no such heading say nothing of the whole model."""
    out: list[tuple[SampledShape, str, str]] = []
    taken: set[str] = set()
    for seq in sample.order:
        under = False
        for key, sh, text in _lines_of(sample, seq):
            if _PARAMS_HEADING.match(text):
                under = True
                continue
            row = _PARAMS_ROW.match(text) if under else None
            if row is None:
                under = under and _COUNT_ROW.match(text) is not None  # (the table's other rows keep it open)
                continue
            if key not in taken:
                taken.add(key)
                fact = "total_params" if row.group("key").lower() == "total" else "trainable_params"
                out.append((sh, fact, row.group("prefix")))
    return out


# a line that says an evaluation starts, in words alone (`Validating...`, `Evaluating on dev set`, `Start testing`,
# `Running validation`), after a logger's prefix or a bracketed tag
_ANNOUNCED = regex.compile(
    r"(?i)^(?:.*?(?:\s-\s|\]\s*|:\s+))?(?:start(?:ing)?\s+|running\s+|begin(?:ning)?\s+|now\s+)?"
    r"(?:evaluating|validating|testing|evaluation|validation)\b(?:\s+(?:on|of|over|the|model|set|dev|data|"
    r"dataset|loss|split|index|now))*[\s.!:]*$"
)


_OVER = regex.compile(r"(?i)\b(?:finished|done|completed?|ended)\b|\bover\W*$")


def _announced(records: list[RecordShape], sample: SampledLog, taken: set[str]) -> list[SampledShape]:
    """Lines that announce an evaluation in words alone where the log prints no evaluation's values the reading
    finds: each announces one (nyu-mll/jiant's trainer logs "Validating..." before the validation's batches, Joey
    NMT-style loops "[Epoch {}] Validating..."); where evaluations are found, their own lines are the events."""
    if any(rec.kind in ("eval", "eval_free") for rec in records):
        return []
    out = []
    for sh in sample.shapes.values():
        if sh.key in taken or not sh.examples or not _words_alone(sh) or _says_saved(sh):
            continue
        text = _TOKEN.sub(" ", sh.examples[0][1]).strip()
        # (an end is no start; `over` may be a preposition: karpathy's char-rnn forks print "evaluating loss over
        # split index 2")
        if _ANNOUNCED.match(text) and not _OVER.search(text):
            out.append(sh)
    return out


# a line that reports the best score so far, no evaluation of its own: "new best", or "best" opening the line's
# words after a logger's prefix, its level or a mark (`: best metric, ...`, `INFO Best accuracy: ...`, `*** Best
# metric: ...`); not "at best" (a test score at the best validation's checkpoint is measured anew)
# (or that the best changed, the old best and the new: Bjarte Sunde's early-stopping-pytorch pytorchtools.py,
# copied by Informer, Autoformer and thuml's Time-Series-Library, prints f'Validation loss decreased
# ({self.val_loss_min:.6f} --> {val_loss:.6f}).  Saving model ...' of the loss the epoch's line states)
_BEST = regex.compile(
    r"(?i)\bnew best\b|\bbest\b[^.!?]{0,40}\bso far\b|(?:^|[:\]>|*!]\s*|\b(?:INFO|DEBUG|WARNING)\s+)best\b"
    r"|\b(?:decreased|improved|increased)\s*(?:\(|from\b)"
    r"|最佳|最优"  # (best, in Chinese)
)


def _best_so_far(rec: RecordShape) -> bool:
    """An evaluation's line that reports the best score so far: its value is an earlier evaluation's (or their
    moving average), no evaluation of its own. MIC-DKFZ/nnUNet nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py
    on_epoch_end: print_to_log_file(f"Yayy! New best EMA pseudo Dice: {np.round(self._best_ema, decimals=4)}")
    after the epoch's val_loss; PaddlePaddle/PaddleOCR tools/program.py logs 'cur metric, {}' of each evaluation,
    then 'best metric, {}' of the best; huggingface/pytorch-image-models train.py '*** Best metric: {0} (epoch
    {1})'. The words before its first value say so."""
    sh = rec.shapes[0]
    # (its counter's aside: `Epoch 2 - New best model saved with BLEU-2: 65.76`)
    first = next(
        (
            s.index
            for s in rec.slots
            if s.kind == "num"
            and s.role != "skip"
            and s.index not in (rec.counter, rec.epoch)
            and not _epoch_named(s.label)
        ),
        None,
    )
    if first is None:
        return False
    return _BEST.search(" ".join(sh.literals[: first + 1]).strip()) is not None


# a line that says the run resumes from a checkpoint, before its first value (`resumed from epoch 114  best_val
# 0.0238`, `Resuming from checkpoint ...`, `=> loaded checkpoint 'x' (epoch 10)`)
_RESUMED = regex.compile(r"(?i)\bresum(?:ed|ing|e)\b|\bloaded checkpoint\b|\brestored from\b")


# the words that announce a phase beginning
_STARTING = frozenset(
    {"start", "starts", "starting", "begin", "begins", "beginning", "commence", "commencing"}
)


def _opening(rec: RecordShape) -> str | None:
    """The text of a record's line up to its first number (None without one): the words that say what it is."""
    first = next((s.index for s in rec.slots if s.kind == "num"), None)
    return None if first is None else " ".join(rec.shapes[0].literals[: first + 1])


def _says_starting(rec: RecordShape) -> bool:
    """Whether a record's message opens with a word that says something begins (`Starting training on ...`,
    `Begin epoch 3`), after its logger's prefix: its stamp, its level, its name (`INFO:avalanche:-- Starting`,
    `2024-01-05 17:11:51 - INFO - Starting`, `[INFO] Starting`)."""
    opening = _opening(rec)
    if opening is None:
        return False
    for part in _PREFIX_PARTS.split(opening):
        words = [w for w in (w.lower() for w in regex.findall(r"[A-Za-z]+", part)) if w not in LEVEL_WORDS]
        if words and words[0] in _STARTING:
            return True
        if len(words) > 1:
            return False  # (a message of its own, past the prefix's one-word parts: it starts otherwise)
    return False


# where each part of a logger's prefix ends: _PREFIX_END's separators, and a colon with no blank after it too
# (logging's default "%(levelname)s:%(name)s:%(message)s", `INFO:avalanche:-- Starting ...`)
_PREFIX_PARTS = regex.compile(r":|\s[-|]\s|\]")


def _bar_alone(rec: RecordShape) -> bool:
    """A progress bar's frame with no value of its own, every number unnamed but a rate, counted by a number of
    its description (the epoch), not by its position (whose rate is the steps' own: tqdm over the steps)."""
    values = [s for s in rec.slots if s.role == "value"]
    return (
        any(s.kind == "bar" for s in values)
        and all(not s.label or s.rate for s in values)
        and _tqdm_count(rec.shapes[0]) != rec.counter
    )


def _resumed(rec: RecordShape) -> bool:
    """A line that says the run resumes from a checkpoint: the scores it quotes are the checkpoint's record, no
    evaluation of its own (Latticeworks1/CPTFM train.py prints f"resumed from epoch {start}  best_val {best:.4f}"
    after each restart's start-up lines, pytorch/examples imagenet/main.py "=> loaded checkpoint '{}' (epoch {})").
    The words before its first value say so."""
    opening = _opening(rec)
    return opening is not None and _RESUMED.search(opening) is not None


_ENDED = regex.compile(r"(?i)\b(?:finished|done|completed?|ended|over)\b")


def _words_alone(sh: SampledShape) -> bool:
    """A line of words, with a stamp and one whole number at most (the epoch or the step it names)."""
    return (
        sh.kinds.count("num") <= 1
        and set(sh.kinds) <= {"num", "ts"}
        and all(
            v.isdigit()
            for k, v in zip(sh.kinds, sh.values[0] if sh.values else (), strict=False)
            if k == "num"
        )
    )


def _evaluation_heading(sh: SampledShape) -> bool:
    """A line of words alone that says an evaluation (a heading may name the epoch or step it evaluates at,
    PccAI's `Validation at epoch 5`; a value it states makes it a result, LXMERT's `The valid loss is 6.6441`)."""
    if not (_words_alone(sh) and sh.examples):
        return False
    text = sh.examples[0][1]
    marks = _eval_marks(_TOKEN.sub(" ", text))
    return (
        bool(marks)
        and _names_its_step(sh, marks)
        # (not a line that says the evaluation is over: YuanGongND/ast's traintest.py prints 'start validation',
        # the scores, then 'validation finished' before the epoch's own lines)
        and not _ENDED.search(text)
        # (nor one that says a checkpoint was written: `[validation] new best model + tokenizer saved`)
        and not _says_saved(sh)
    )


def _names_its_step(sh: SampledShape, marks: frozenset[str]) -> bool:
    """A heading's one number, if it has one, is the epoch or the step it evaluates at, after the word that names
    it (`Validation at epoch 5`), or the count of what an evaluation under way goes over (`Evaluating on 500
    images`); beside a split's short name alone (`marks`: the heading's evaluation words), a count makes it a
    sentence about the data (`Using stratified val subset of 495 samples`)."""
    if "num" not in sh.kinds:
        return True
    at = sh.kinds.index("num")
    before, after = sh.literals[at], sh.literals[at + 1]
    words = _words(before)
    if words and (words[-1] in COUNTER_WORDS or _epoch_named(words[-1])):
        return True
    # (a count is followed by what it counts; a number after a key's sign is a value: `Validation accuracy: 0`)
    counted = _words(after)[:1] and not before.rstrip().endswith((":", "="))
    return bool(counted) and bool(marks - _SPLIT_NAMES)


# the short names of an evaluation's split, which a sentence about the data uses as well as an evaluation's heading
_SPLIT_NAMES = frozenset({"val", "valid", "vali", "dev", "test", "eval", "heldout"})


def _under_evaluation_headings(records: list[RecordShape], sample: SampledLog, km: keymap_mod.KeyMap) -> None:
    """An evaluation announced by a line of words alone, its results on the lines after it: the record printed
    first under every such heading is the evaluation's (one event per heading), though its own keys say nothing of
    one. xliu59/Image-Semantic-Segmentation FCN.py: print('Start testing') after each epoch, then four indented
    '    Accuracy: ...', '    Accuracy Class: ...', '    Mean IU: ...', '    FWAV Accuracy: ...'; transformers'
    Trainer.log_metrics: print(f"***** {split} metrics *****") then f"  {key: <{k_width}} = {value:>{v_width}}" per
    metric; its older examples' logger.info("***** Eval results *****") then "  %s = %s" lines. Its values must
    move from heading to heading (a data set's `Num examples = 872` under `***** Running Evaluation *****` does
    not), or, seen once, be scores or an evaluation's metrics."""
    headings = {key for key, sh in sample.shapes.items() if _evaluation_heading(sh)}
    if not headings:
        return
    seen: Counter[str] = Counter()
    under: Counter[str] = Counter()
    claimed = False
    header: dict[str, bool] = {}
    for seq in sample.order:
        after = False
        for key in seq:
            if not key:
                continue
            seen[key] += 1
            under[key] += after
            if after and key not in header:
                header[key] = _header_of(sample.shapes[key]) is not None
            # (the results may be a table: its header line between the heading and its row, stanza's "Evaluating
            # on dev set..." then `UPOS\tXPOS\tUFeats\tAllTags` and the scores under them)
            after = key in headings or (after and header[key])
    for rec in records:
        keys = [sh.key for sh in rec.shapes]
        if (
            rec.kind == "step"
            and all(seen[k] and under[k] == seen[k] for k in keys)
            and any(
                _in_layout_of(rec, main)
                or (main.count >= rec.count and not any(under[sh.key] for sh in main.shapes))
                for main in records
                if main.kind == "step" and main is not rec
            )
            # (not a line printed twice, through two loggers, the copy right after it: chnsh/DCRNN_PyTorch logs
            # 'evaluating now!', then 'Epoch [68/100] (8625) train_mae: ..., val_mae: ...' through its own handler
            # and the root logger's, the step's line that reports the evaluation done)
            and not any(
                _copy_of(main, rec) or _copy_of(rec, main)
                for main in records
                if main.kind == "step" and main is not rec
            )
        ):
            # a step's line printed only right after such a heading, beside the training's own: the evaluation's
            # pass in the training's layout (PccAI's `    batch count: 0/309, iter: 0, ...` under `Validation at
            # epoch 5`) or its result (cs231n's "Checking accuracy on validation set" then 'Got %d / %d correct
            # (%.2f)'), the heading's event with it (one event per heading)
            rec.kind, rec.own_count = "eval", True
            claimed = True
            continue
        if rec.kind != "none" or rec.counter is not None or not _has_values(rec):
            continue
        if not any(under[k] for k in keys) or sum(under[k] for k in keys) < sum(seen[k] for k in keys):
            continue
        if _both_splits(rec):
            continue  # (the epoch's summary after its validation pass: `Train Loss: 2.4997, Val Loss: 2.4865`)
        varied = any(
            len({v for _, v in rec.series(sl.index)}) > 1 for sl in rec.slots if sl.kind == "num" and sl.label
        )
        if (rec.count >= 2 and varied) or (
            rec.count == 1
            and (
                _scores_only(rec, km)
                or _metrics_only(rec, km)
                or _measured_apart(rec, km)
                or _loss_alone(rec, km)
            )
        ):
            rec.kind = "eval_free"
    if claimed:
        for rec in records:
            if rec.kind == "eval" and all(sh.key in headings for sh in rec.shapes) and not _has_values(rec):
                rec.kind = "none"


def _measured_apart(rec: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """Whether a record seen once holds measures (every keyed number with a fraction's digits) and no training
    value: under an evaluation's heading, its results whatever their names (stanza's `UPOS XPOS UFeats AllTags`
    scores); a data set's `Num examples = 872` counts, whole."""
    numbers = [s for s in rec.slots if s.kind == "num" and s.label and s.role == "value"]
    if not numbers or _trains(rec, km):
        return False
    for slot in numbers:
        m = field_plan(km, slot.label, slot.unit, [], False)
        if m is not None and not m.kept and _full(m) in TRAINING_COLUMNS:
            return False
        if any(_unsep(v).lstrip("-+").isdigit() for _, v in rec.series(slot.index)):
            return False
    return True


def _in_layout_of(rec: RecordShape, main: RecordShape) -> bool:
    """Whether rec prints main's values under main's counter, more rarely: its keyed values all among main's
    (the validation may leave a training value out: PccAI's aux_loss), an epoch aside (read as the counter of
    one and a value of the other)."""
    keys = [{k for k in _value_keys(r) if not _epoch_named(k)} for r in (rec, main)]
    return (
        main.count > rec.count
        and bool(keys[0])
        and keys[0] <= keys[1]
        and _counter_key(rec) == _counter_key(main)
    )


def _epoch_summary(rec: RecordShape, steps: list[RecordShape], km: keymap_mod.KeyMap) -> bool:
    """Whether a record counted by its epoch alone sums up epochs whose steps another record prints, each of those
    lines naming its epoch: the epoch's means after its steps, no step of its own (train-llm-from-scratch's SFT
    loop logs "SFT Epoch {e}, Step {s}/{n}, Loss: {l:.4f}, LR: {lr:.3e}" each batch, then "End of SFT Epoch {e},
    Avg Loss: {mean:.4f}"; Demucs's solver "Train | Epoch {e} | {i}/{n} | ..." then "Train Summary | Epoch {e} |
    Loss=..."). Not an evaluation either: it measures nothing again on other data. Steps that print no training
    value of their own (an epoch's tqdm bar with no postfix, `Epoch 1/400 train:  13%|...| 340/2590 [...]`) are
    the epoch's progress, and its line the only record of its training."""
    if rec.counter is None or rec.epoch is not None or not _epoch_named(rec.slots[rec.counter].label):
        return False
    ours = {_whole(v) for _, v in rec.series(rec.counter)}
    for other in steps:
        if other is rec or other.counter is None or other.epoch is None:
            continue
        if _trains(rec, km) and not _trains(other, km):
            continue
        if _epoch_named(other.slots[other.counter].label):
            continue
        if ours <= {_whole(v) for _, v in other.series(other.epoch)}:
            return True
    return False


def _run_summary(rec: RecordShape, steps: list[RecordShape]) -> bool:
    """Whether a record seen once, after a line of a record that counts the same steps under the same name,
    states that line's step again: a loop's closing summary, no step of its own. The run's, after every line
    (tianshou's trainer returns an InfoStats whose repr, printed by its examples after 'Finished training', opens
    `InfoStats(update_step=600, best_score=..., train_step=6000, ...)`: the last bar's `update_step=600` again),
    or an outer loop's, after the last step of one pass (hbing-l/multi-source logs 'The epoch_out: 0, epoch_in: 9
    of training F and G finished, losslist: [...]' after its 'epoch_out: 0, epoch_in: 9, loss: ...')."""
    if rec.count != 1 or rec.counter is None:
        return False
    ((where, value),) = rec.placed(rec.counter)
    for other in steps:
        if other is rec or other.count < MIN_REPEATS or _counter_key(other) != _counter_key(rec):
            continue
        placed = other.placed(other.counter)
        before = [_whole(_unsep(v)) for at, v in placed if at < where]
        after = [_whole(_unsep(v)) for at, v in placed if at > where]
        ours = _whole(_unsep(value))
        # (the pass's last step: the counter starts again after it, or nothing follows; a step's rarer record
        # mid-pass, the training's metrics every 25 steps, is that step's)
        if (
            before
            and before[-1] == ours
            and (not after or (after[0] is not None and ours is not None and after[0] < ours))
        ):
            return True
    return False


def _outer_summary(rec: RecordShape, steps: list[RecordShape]) -> bool:
    """Whether a record counted by an unnamed `N/M` alone sums up a loop outside the steps another record counts:
    that record prints the same `N/M` (the same total), unnamed too, before its own counter named a step, so N is
    its outer loop's (the epoch's) position and this line the loop's summary after its steps, no step of its own
    (WenmuZhou/PSENet.pytorch train.py logs '[{}/{}], [{}/{}], step: {}, ...' per display interval, then main()
    '[{}/{}], train_loss: {:.4f}, time: {:.4f}, lr: {}' per epoch; DBNet.pytorch's trainer/trainer.py '[{}/{}],
    [{}/{}], global_step: {}, speed: ...' and base/base_trainer.py _on_epoch_finish the same summary)."""
    if rec.counter is None or rec.total is None or rec.slots[rec.counter].label:
        return False
    ours = {_whole(v) for _, v in rec.series(rec.counter)}
    totals = {_whole(v) for _, v in rec.series(rec.total)}
    if None in ours or len(totals) != 1:
        return False
    for other in steps:
        if other is rec or other.counter is None or not _counter_named(other.slots[other.counter].label):
            continue
        lits = other.shapes[0].literals
        for j in range(other.counter - 1):
            n, m = other.slots[j], other.slots[j + 1]
            if n.kind != "num" or m.kind != "num" or n.label or m.label or lits[j + 1].strip() != "/":
                continue
            if {_whole(v) for _, v in other.series(j + 1)} == totals and ours <= {
                _whole(v) for _, v in other.series(j)
            }:
                return True
    return False


def _settings_line(rec: RecordShape, steps: list[RecordShape], km: keymap_mod.KeyMap) -> bool:
    """A counted line whose values never change and measure nothing the key model knows, beside a step record
    that trains: the settings an epoch (or a rank) starts with, no step of its own. Lossless-Neural-Compression's
    DDP loop prints f"[GPU{rank}] Epoch {epoch} | Batchsize: {b} | Steps: {n}" on each rank before the epoch,
    then rank 0's `Epoch [1/5], Avg Loss: 0.1883` after it."""
    values = [s for s in rec.slots if s.role == "value" and s.kind == "num" and s.label]
    if not values or rec.count < MIN_REPEATS:
        return False
    line = [s.label for s in values]
    for slot in values:
        if len({v for _, v in rec.series(slot.index)}) > 1:
            return False
        m = field_plan(km, slot.label, slot.unit, [], False, line)
        if m is not None and not m.kept:
            return False
    return any(other is not rec and _trains(other, km) for other in steps)


def _save_only(rec: RecordShape) -> bool:
    """A record that says a checkpoint was written and states no value but its counter and the numbers of the
    path it wrote: the save's event, not an evaluation, whatever checkpoint it names (B4rtekk1/CGPT
    train/train.cpp prints `Saved validation checkpoint at step 5000 to "output/.../step-5000"` after each
    validation)."""
    sh = rec.shapes[0]
    if not _says_saved(sh):
        return False
    for slot in rec.slots:
        if slot.kind != "num" or slot.role != "value" or not slot.label:
            continue
        word = sh.literals[slot.index].rsplit(None, 1)[-1] if sh.literals[slot.index].strip() else ""
        if "/" not in word and "\\" not in word:
            return False  # (a value of its own, not a part of the path)
    return True


def _saved_beside(rec: RecordShape, evaluations: list[RecordShape]) -> bool:
    """An evaluation's line that says a checkpoint was written, beside an evaluation's line that does not: the
    save's note, quoting the score the other reported, no evaluation of its own (minhyeok2001/Video-Depth-Anything
    logs "Epoch [0/15] Validation Loss: 0.0195", then "Best checkpoint saved at epoch 1 with validation loss
    0.0195"). Where it is the only line with the evaluation's score, it stays the evaluation."""
    if not _says_saved(rec.shapes[0]):
        return False
    return any(other is not rec and not _says_saved(other.shapes[0]) for other in evaluations)


def _monitored(rec: RecordShape, records: list[RecordShape]) -> bool:
    """Whether a record's value is the one a save of the best model quotes, line after line: a score that picks
    the checkpoint, an evaluation's (reczoo/FuxiCTR logs '[Metrics] AUC: 0.804410 - logloss: 0.447085', then
    checkpoint_and_earlystop's 'Save best model: monitor(max): 0.804410'), whatever its keys are named."""
    if rec.count < 2:
        return False
    for other in records:
        if other is rec or other.count < 2 or not _says_saved(other.shapes[0]):
            continue
        quoted = [
            {v for _, v in other.series(sl.index)}
            for sl in other.slots
            if sl.kind == "num" and sl.role == "value"
        ]
        quoted = [q for q in quoted if len(q) >= 2]  # (a value that changes: a score, not a setting)
        for sl in rec.slots:
            if sl.kind != "num" or sl.role != "value":
                continue
            mine = {v for _, v in rec.series(sl.index)}
            if any(q <= mine for q in quoted):
                return True
    return False


def _save_note(rec: RecordShape, steps: list[RecordShape]) -> bool:
    """A record whose own words say a checkpoint was written, beside a step record that does not: a note of the
    save at that step (the value it quotes is the step's, or the best so far), no row of its own; it is read as
    the save's event. Adityak204/SmolLM2-Implementation logs "Saved new best model at epoch {epoch} with loss
    {loss:.4f}" after each "Epoch {epoch} | Avg Loss: {loss:.4f}"; Shymaa2611/Fine-tuning_GPT2 utils.py
    save_checkpoint prints f"Checkpoint saved at epoch {epoch} with loss {loss:.4f} to {filepath}"."""

    # (the words of its keys too: `best model at epoch` is the counter's label)
    def says_save(r: RecordShape) -> bool:
        return _SAVE.search(" ".join(r.shapes[0].literals)) is not None

    return says_save(rec) and any(other is not rec and not says_save(other) for other in steps)


def _cut_short(rec: RecordShape, main: RecordShape) -> bool:
    """Whether a record prints only the first values of another's lines, each of its lines the same values as a
    line of main's at the same step: a note that leads a row (ElegantRL's evaluator prints `{id} {step:8.2e}
    {max_r:8.2f} |` when a new best is saved, then the step's full row `... |  avgR stdR ... | expR ...`), no row
    of its own."""
    if rec.counter is None or main.counter is None or rec.count >= main.count:
        return False
    width = len(rec.slots)
    if width >= len(main.slots) or rec.counter != main.counter:
        return False
    mine, theirs = rec.shapes[0].literals, main.shapes[0].literals
    if mine[:width] != theirs[:width] or any(
        a.kind != b.kind for a, b in zip(rec.slots, main.slots, strict=False)
    ):
        return False
    full = {tuple(values[:width]) for sh in main.shapes for values in sh.values}
    return all(tuple(values) in full for sh in rec.shapes for values in sh.values)


def _enumerated_under(rec: RecordShape, head: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """Whether a record numbers the parts of each step a step record prints above them: its count, named by no
    step's word, starts again after each of the head's lines and rises only between them, the head's counter a
    step's by name and the head a training value's line (tensorlayer's openpose-plus train.py prints 'Total Loss at
    iteration {} / {} is: {} Learning rate {:10e} l2_loss {:10e} Took: {}s' then, for each stage, 'Network#', ix,
    'For Branch', ix % 2 + 1, 'Loss:', ll)."""
    if rec is head or rec.counter is None or head.counter is None or head.first >= rec.first:
        return False
    if _counter_named(rec.slots[rec.counter].label) or _epoch_named(rec.slots[rec.counter].label):
        return False
    if not _counter_named(head.slots[head.counter].label) or not _trains(head, km):
        return False
    heads = sorted(where for sh in head.shapes for where in sh.seen)
    mine = [(where, _whole(_unsep(v))) for where, v in rec.placed(rec.counter)]
    falls = 0
    for (w1, a), (w2, b) in zip(mine, mine[1:], strict=False):
        if w1[0] != w2[0]:
            continue
        between = any(w1 < h < w2 for h in heads)
        if a is None or b is None or (b > a) == between:
            return False  # (a count that falls with no head between, or rises past one, is no part's)
        falls += between
    return falls >= 1


def _counter_word(rec: RecordShape) -> str:
    """The last word of a record's counter's key: the counter whatever word before it names the line's stage or
    kind (`train_step`, `opt_step`, `timing_step` are each a `step`)."""
    return _counter_key(rec).split("_")[-1]


def _repeats_in_place(printed: list[str]) -> bool:
    """Whether a counter prints one count twice within one run of it (a count again before it falls back)."""
    counts = [_whole(_unsep(v)) or 0 for v in printed]
    seen: set[int] = set()
    for a, b in zip([None, *counts], counts, strict=False):
        if a is not None and b < a:
            seen = set()  # (it starts again: a run of its own)
        if b in seen:
            return True
        seen.add(b)
    return False


def _other_half(rec: RecordShape, main: RecordShape) -> bool:
    """Whether a record prints the same steps as `main` under the same counter, each once, with keys none of
    main's: one step's values printed over two lines that each name the step (Caffe's solver logs "Iteration
    " << iter_ << ", loss = " << smoothed_loss_ in solver.cpp Step(), then "Iteration " << iter_ << ", lr = " <<
    rate in sgd_solver.cpp ApplyUpdate(), at every display interval). The one printed first of a pair (else the
    more frequent) is the row; the other joins it."""
    if rec.counter is None or main.counter is None:
        return False
    if _counter_word(rec) != _counter_word(main):
        # (one counter, named with the line's own word or not: a trainer's "opt_step=1 loss=..." then its
        # "TIMING step=1 | total=141.8s gen=42.4s ...")
        return False
    if rec.count > main.count or (rec.count == main.count and rec.first < main.first):
        return False
    ours, theirs = [v for _, v in rec.series(rec.counter)], [v for _, v in main.series(main.counter)]
    # (a line printed once at a step of main's, beside a record seen rising, is that step's too: trax's
    # supervised/training.py Loop prints every message through _log_step as 'Step % 6d: %s', its 'Total number of
    # trainable weights: %d' at step 1 just before that step's 'Ran %d train steps in %0.2f secs')
    # (or, in an excerpt of two steps, a line beside them under the same named counter: UniRec's "epoch {} training
    # [time: ..., train loss: ...]" then "epoch: {}, learning rate: {}")
    few = len(theirs) == 2 and rec.named and main.named
    if len(ours) < (1 if len(theirs) >= MIN_REPEATS else MIN_REPEATS) and not few:
        return False
    # (each step once, within each run the log holds: a continual learner's `it: 1, avg. loss: ...` then `it: 1,
    # mem avg. loss: ...`, its iterations counted again for each task)
    if _repeats_in_place(ours) or _repeats_in_place(theirs):
        return False
    if Counter(ours) - Counter(theirs):
        return False
    mine, other = _keyed_values(rec), _keyed_values(main)
    # (a key both print the same value of on every line is the step's context, not a value of either: dgl-ke's
    # `[proc 0][Train](1900/24000) average loss: ...`, one line per metric under the worker's rank)
    # (nor is another counter both print alike at each step: jdtoscano94's PINN notebooks print five lines a record,
    # each 'Epoch: {}, It: {}, ...' with two of the record's values)
    shared = {
        k
        for k in mine.keys() & other.keys()
        if not (k in _PROCESS_KEYS and _held_alike(rec, mine[k], main, other[k]))
        and not ((_counter_named(k) or _epoch_named(k)) and _moves_alike(rec, mine[k], main, other[k]))
    }
    return bool(mine.keys() - other.keys()) and not shared


def _copy_of(rec: RecordShape, main: RecordShape) -> bool:
    """Whether a record prints again, in a shape of its own, steps `main` prints and some of their values, the same
    numbers: the console's copy of a logger's line, or a second handler's (GammA-su/cfm's trainer logs "train
    step=20/6000 loss=... addr=... gen=... contrast=... step_s=..." through logging and prints "step 20/6000
    loss=... addr=... gen=..." to the console). Of two records that copy each other, the one with more keys (else
    the one printed first) is the row."""
    if rec.counter is None or main.counter is None:
        return False
    # (a bar's redraws at one position show its numbers again by design: the bar's own rules)
    if _tqdm_count(rec.shapes[0]) is not None or _tqdm_count(main.shapes[0]) is not None:
        return False
    if _counter_word(rec) != _counter_word(main):
        return False  # (`train step=20` and `step 20`: one counter, named with its stage or without)
    mine, other = _keyed_values(rec), _keyed_values(main)
    if not mine or not mine.keys() <= other.keys():
        return False
    stamped = (_stamped(rec), _stamped(main))
    if len(mine) == len(other) and (stamped[0], rec.count, -rec.first) > (
        stamped[1],
        main.count,
        -main.first,
    ):
        # (each copies the other: the stamped one, else the more frequent, else the first printed, is the row;
        # EstraNet's TensorFlow 1 logs each message as `INFO:tensorflow:...` and again behind absl's stamp)
        return False
    at = dict(_by_step(main, [other[k] for k in mine]))
    ours = _by_step(rec, [mine[k] for k in mine])
    if len(ours) < 2 or len(ours) > len(at):
        return False
    return all(step in at and _same_numbers(values, at[step]) for step, values in ours)


def _stamped(rec: RecordShape) -> bool:
    """Whether a record's lines carry a timestamp."""
    return any(sl.kind == "ts" for sl in rec.slots)


def _by_step(rec: RecordShape, slots: list[int]) -> list[tuple[str, tuple[str, ...]]]:
    """Each line of a record as (its counter, its values in `slots`), as printed."""
    assert rec.counter is not None
    values = zip(*([v for _, v in rec.series(i)] for i in slots), strict=True)
    return list(zip([v for _, v in rec.series(rec.counter)], values, strict=True))


def _same_numbers(a: Sequence[str], b: Sequence[str]) -> bool:
    """Whether two lists of printed numbers are the same numbers (`0.0125` and `1.25e-02` alike)."""
    return all(_number(x) == _number(y) and _number(x) is not None for x, y in zip(a, b, strict=True))


# an argparse Namespace's repr (or a dataclass's, `TrainConfig(...)`) opening a line, its options `key=value`
_OPTIONS_REPR = regex.compile(
    r"^(?:.*?[\s:\]>|-])?(?<![\w.])(?:Namespace|[A-Z]\w*(?:Config|Args|Arguments|Options))\(\s*\w+="
)


def _setting_before_steps(rec: RecordShape, first_step: int | None) -> bool:
    """Whether a line seen once before the first step, under no counter, holds only whole numbers or nothing: a
    start-up statement of counts or settings, not an evaluation, whatever its keys name (lcmd-epfl/EquiReact's
    "total / train / test / val: 11883 9506 1188 1189", the splits' sizes, and "checkpoint: None"). An evaluation
    before training prints a measure with a fraction (`val loss 2.3456`)."""
    if rec.kind != "eval_free" or rec.count != 1 or rec.counter is not None or first_step is None:
        return False
    if rec.first >= first_step:
        return False
    printed = _numbers_printed(rec)
    return bool(printed) and all(_unsep(v).isdigit() or v in ("None", "null") for v in printed)


# a sentence that says what is missing: flair's ModelTrainer logs "Test data not provided setting final score to 0"
_ABSENT = regex.compile(
    r"(?i)\b(?:not (?:provided|given|found|available|set)|no \w+ (?:data|set|split) (?:given|provided))\b"
)


def _says_absent(rec: RecordShape) -> bool:
    """Whether an evaluation's line printed once says its data is missing and states whole numbers only (the
    score it sets, not one it measured): no evaluation."""
    if rec.count != 1:
        return False
    sh = rec.shapes[0]
    if _ABSENT.search(" ".join(sh.literals)) is None:
        return False
    return all(_unsep(v).isdigit() for v in _numbers_printed(rec))


def _numbers_printed(rec: RecordShape) -> list[str]:
    """Every number a record's lines print, as printed."""
    return [v for sl in rec.slots if sl.kind == "num" for _, v in rec.series(sl.index)]


def _options_repr(rec: RecordShape) -> bool:
    """Whether a record printed once is the run's options as a Namespace or a config dataclass prints them
    (IzayoiSakuya111's VAE++ logs print(args): `Namespace(..., epoch=1000, ..., test='target_test', ...)`), or as
    a config of sections, a dict of dicts with a dozen numbers or more (VITS-style trainers log their hparams,
    `{'train': {'log_interval': 5, ...}, 'data': {...}, 'model': {...}}`): the settings, no step and no
    evaluation, whatever they are named."""
    if rec.count != 1:
        return False
    raw = rec.shapes[0].raw
    if _OPTIONS_REPR.match(raw) is not None:
        return True
    return _SECTIONED.search(raw) is not None and sum(s.kind == "num" for s in rec.slots) >= 12


# a dict whose first value is a dict: a config printed by its sections
_SECTIONED = regex.compile(r"""\{\s*(['"])\w+\1\s*:\s*\{""")


def _moves_alike(rec: RecordShape, i: int, main: RecordShape, j: int) -> bool:
    """Whether value i of rec and value j of main are the same number at each step both print."""
    assert rec.counter is not None and main.counter is not None
    ours = dict(zip((v for _, v in rec.series(rec.counter)), (v for _, v in rec.series(i)), strict=True))
    theirs = dict(zip((v for _, v in main.series(main.counter)), (v for _, v in main.series(j)), strict=True))
    common = ours.keys() & theirs.keys()
    return bool(common) and all(ours[k] == theirs[k] for k in common)


def _held_alike(rec: RecordShape, i: int, main: RecordShape, j: int) -> bool:
    """Whether value i of rec and value j of main are one number on every line of both."""
    return len({v for _, v in rec.series(i)} | {v for _, v in main.series(j)}) == 1


def _continuations(
    main: RecordShape, records: list[RecordShape], sample: SampledLog, km: keymap_mod.KeyMap
) -> list[RecordShape]:
    """The records that continue each line of `main` on the lines right after it: one step printed as a line of
    one shape then lines of others, each of them once after every step line and nowhere else. Such a line may
    count too, in samples (TFLearn's TermLogger, tflearn/callbacks.py termlogs(), prints per step "Training Step:
    " + str(global_step) + " | total loss: ..." then, per optimizer, "| " + name + " | epoch: %03d" + " | loss:
    %.5f" + " - acc: %.4f" + " -- iter: %0Nd/%d" with the samples seen in the epoch), or not at all (Caffe's
    solver.cpp Step() logs "Iteration N (x iter/s, ...), loss = L", then "    Train net output #k: name = v"
    per output): its counter, where it has one, moves a whole multiple of main's on every step (the batch), or
    stands still; it is a value of the same step. A line that says it is an evaluation in its own words is no
    continuation (its keys may be, TFLearn's `val_loss` on a snapshot's step)."""
    if main.counter is None or main.count < MIN_REPEATS:
        return []
    if _on_bar(main):
        return []  # (a progress bar's frame: the record after it is the step's, its postfix lags)
    if _epoch_named(main.slots[main.counter].label):
        return []  # (an epoch's line: the lines after it are its steps)
    own = {sh.key for sh in main.shapes}
    joined = {sh.key for rec in records if rec.head is main for sh in rec.shapes}
    by_shape = {sh.key: rec for rec in records for sh in rec.shapes}
    after: Counter[int] = Counter()
    twice: set[int] = set()
    together: dict[int, set[int]] = defaultdict(set)
    heads = followed = 0
    # candidate -> (main's counter, the candidate line's shape, its place among that shape's lines)
    pairs: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
    nth: Counter[str] = Counter()

    def close(run: set[int] | None) -> None:
        nonlocal followed
        if run is not None:
            followed += bool(run)
            for r in run:
                together[r] |= run

    for seq in sample.order:
        run: set[int] | None = None
        step: int | None = None
        span = 0
        for key in seq:
            n = nth[key]
            nth[key] += 1
            if key in own:
                close(run)
                heads += 1
                step = _whole(_printed(sample, key, n, main.counter))
                run, span = set(), 0
                continue
            if run is None:
                continue
            span += 1
            if span > MAX_BLOCK_LINES or _separator(sample, key) or key not in by_shape:
                close(run)
                run = None
                continue
            if key in joined:
                continue
            rec = by_shape[key]
            if id(rec) in run:
                twice.add(id(rec))
            run.add(id(rec))
            after[id(rec)] += 1
            if step is not None:
                pairs[id(rec)].append((step, key, n))
        close(run)
    if not heads or followed < BLOCK_SHARE * heads:
        return []
    found: list[RecordShape] = []
    for rec in records:
        if rec is main or rec.kind not in ("step", "none") or rec.head is not None:
            continue
        if id(rec) in twice and not _same_count(rec, pairs[id(rec)]):
            continue  # (lines of the steps within main's record: their count moves between them)
        if after[id(rec)] < BLOCK_SHARE * rec.count or rec.first < main.first or not _has_values(rec):
            continue
        if any(sl.kind == "bar" for sl in rec.slots) or _eval_marks(_own_text(rec)):
            continue
        if _says_saved(rec.shapes[0]):
            continue  # (a save after some steps, the numbers in its path no values: the save's event)
        if rec.counter is not None and _counter_key(rec) == _counter_key(main):
            continue  # (the same counter again: the step's other half, or the line printed twice, _other_half)
        if _value_keys(rec) <= _value_keys(main):
            continue  # (the step's own values again: a copy through another logger)
        found.append(rec)
    by_key: dict[str, list[RecordShape]] = defaultdict(list)
    for rec in found:
        if rec.counter is not None:
            by_key[_counter_key(rec)].append(rec)
    counted: list[RecordShape] = []
    for group in by_key.values():
        moves = _moves_with(main, group, pairs)
        if moves is False:
            found = [rec for rec in found if rec not in group]
        elif moves:
            counted += group
    # lines with no count of their own continue the step where they print what it measured (a loss, the lr);
    # statistics of something else printed after a step line that holds its values stay apart (3D-VAE's
    # "Output stats: min=..., max=..." after its losses)
    uncounted = [rec for rec in found if rec not in counted]
    if not any(_trains(rec, km) for rec in uncounted):
        found = counted

    def keys(r: RecordShape) -> set[str]:
        return {keymap_mod.normalize(sl.label) for sl in r.slots if sl.kind == "num" and sl.label}

    for rec in found:
        rec.several = id(rec) in twice
        rec.instead = any(
            (other.count, -other.first) > (rec.count, -rec.first)
            and id(other) not in together[id(rec)]
            and keys(other) & keys(rec)
            for other in found
        )
    return found


def _on_bar(rec: RecordShape) -> bool:
    """Whether a record is a progress bar's frame: it draws a bar's body, or counts as tqdm does."""
    return any(sl.kind == "bar" for sl in rec.slots) or _tqdm_count(rec.shapes[0]) is not None


def _pair_counts(rec: RecordShape, pairs: list[tuple[int, str, int]]) -> list[tuple[int, int | None]]:
    """(main's step, the count rec's line printed after it) of each of rec's lines in `pairs` (_continuations)."""
    assert rec.counter is not None
    shapes = {sh.key: sh for sh in rec.shapes}
    out: list[tuple[int, int | None]] = []
    for step, key, n in pairs:
        printed = shapes[key].values if key in shapes else []
        out.append((step, _whole(printed[n][rec.counter]) if n < len(printed) else None))
    return out


def _same_count(rec: RecordShape, pairs: list[tuple[int, str, int]]) -> bool:
    """Whether a record printed several times after each step line prints one count at each step (the step's
    samples, on a line per optimizer), or none."""
    if rec.counter is None:
        return True
    counts: dict[int, set[int | None]] = defaultdict(set)
    for step, count in _pair_counts(rec, pairs):
        counts[step].add(count)
    return all(len(c) == 1 for c in counts.values())


def _keyed_slots(rec: RecordShape) -> list[Slot]:
    """A record's numbers read as values that have a key."""
    return [s for s in rec.slots if s.kind == "num" and s.label and s.role == "value"]


def _value_labels(rec: RecordShape) -> list[str]:
    """The keys of a record's numbers read as values, as printed."""
    return [s.label for s in _keyed_slots(rec)]


def _keyed_values(rec: RecordShape) -> dict[str, int]:
    """A record's keyed values: each key as the key model looks it up -> its value's slot."""
    return {
        keymap_mod.normalize(sl.label): sl.index
        for sl in rec.slots
        if sl.role == "value" and sl.kind == "num" and sl.label
    }


def _value_keys(rec: RecordShape) -> set[str]:
    return set(_keyed_values(rec))


def _own_text(rec: RecordShape) -> str:
    """A record's text outside its keys."""
    text = " ".join(rec.shapes[0].literals)
    for sl in rec.slots:
        if sl.label:
            text = text.replace(sl.label, " ")
    return text


def _moves_with(
    main: RecordShape, group: list[RecordShape], pairs: dict[int, list[tuple[int, str, int]]]
) -> bool | None:
    """Whether the counter of the lines that continue main's steps (records that print it under one name) moves
    the same whole multiple (2 or more) of main's counter from each step to the next it rises at: a count of the
    samples (the batch a step), or the step's own count under another name (pfrl's train_agent logs "outdir:{}
    step:{} episode:{} R:{}" then "statistics:{}", agent.get_statistics(), whose DQN list holds ('cumulative_steps',
    t)). None: it never moves (an index, no count), or stands still at most steps and jumps at a few (the updates
    done so far, pfrl's PPO ('n_updates', n) after each episode: a value of the step, no count of it)."""
    seen = [
        (step, count)
        for rec in group
        for step, count in _pair_counts(rec, pairs[id(rec)])
        if count is not None
    ]
    seen.sort(key=lambda p: p[0])  # (the records of one name, in the order of main's steps)
    if len({c for _, c in seen}) <= 1:
        return None
    if all(step == count for step, count in seen):
        return True
    if 2 * sum(b2 > b1 for (_, b1), (_, b2) in zip(seen, seen[1:], strict=False)) < len(seen) - 1:
        return None
    ratios = set()
    for (a1, b1), (a2, b2) in zip(seen, seen[1:], strict=False):
        if a2 > a1 and b2 > b1:
            ratios.add((b2 - b1) / (a2 - a1))
    return len(ratios) == 1 and next(iter(ratios)) >= 2 and next(iter(ratios)).is_integer()


def _restatements_dropped(steps: list[RecordShape]) -> list[RecordShape]:
    """Of a counter seen rising and, once or twice, the same counter under the same key in a summary block
    (sbi's round summary "Epochs trained: 28" under its `\\r Training neural network. Epochs trained: 28`): the
    summary restates where the run got to and prints nothing else, no step of its own."""
    repeated = [rec for rec in steps if rec.count >= MIN_REPEATS]
    if len(repeated) != 1 or repeated[0].counter is None:
        return steps
    key = _words(repeated[0].slots[repeated[0].counter].label)[-2:]
    again = [
        rec
        for rec in steps
        if rec is not repeated[0]
        and rec.counter is not None
        and _words(rec.slots[rec.counter].label)[-2:] == key
        and not _has_values(rec)
    ]
    if not key or len(again) != len(steps) - 1:
        return steps
    for rec in again:
        rec.kind = "none"
    return repeated


def _line_over_its_bar(steps: list[RecordShape], km: keymap_mod.KeyMap) -> None:
    """A line that prints a counter and its total and no value, beside a progress bar that counts to the same total
    and prints no training value: the line is what the program logs of its progress, the bar's frames what a
    terminal showed in between (umap-learn's optimize_layout draws tqdm "Epochs completed" over the epochs and
    prints "\\tcompleted %4d / %4d epochs" every tenth of them, umap/layouts.py). The line's counter is the run's
    progress, its only record of the steps (as one counter alone is); the bar is no step."""
    bars = [
        r for r in steps if r.kind == "step" and r.total is not None and _on_bar(r) and not _trains(r, km)
    ]
    for line in steps:
        if (
            line.kind != "step"
            or line.counter is None
            or line.total is None
            or _on_bar(line)
            or _has_values(line)
            or line.count < MIN_REPEATS
        ):
            continue
        totals = {v for _, v in line.series(line.total)}
        same = [bar for bar in bars if {v for _, v in bar.series(bar.total)} == totals]
        for bar in same:
            bar.kind = "none"
        if same:
            line.named = True


def _paced_by_bar(
    steps: list[RecordShape], records: list[RecordShape], sample: SampledLog, km: keymap_mod.KeyMap
) -> None:
    """A step record that prints no time, each of its lines right after a frame of one progress bar whose count is
    the step's or the one before it (a loop that logs every few batches inside `for x in tqdm(loader)`, the bar
    drawn before the batch's update: yangdongchao/AcademiCodec's `7569/18075 [1:26:18<1:59:42,  1.46it/s]` then
    '<epoch:8, iter:7570, ...>'): the bar's rate, tqdm's smoothed iterations a second, is the step's pace. The bar's
    other numbers (its clocks count from the epoch's start) are not read."""
    bars = [
        rec
        for rec in records
        if rec.kind in ("none", "step")
        and rec.counter is not None
        and _on_bar(rec)
        and any(_bar_rate(rec, sl) for sl in rec.slots)
    ]
    if not bars:
        return
    for main in steps:
        if main.kind != "step" or main.counter is None or main.members or _on_bar(main):
            continue
        labels = [sl.label for sl in main.slots]
        if any(_timed_key(km, sl, labels) for sl in main.slots if sl.role == "value" and sl.label):
            continue
        own = {sh.key for sh in main.shapes}
        for bar in bars:
            place = _tqdm_count(bar.shapes[0])
            if place is None or bar.count > main.count * 1.25:
                continue  # (a bar drawn many times a step counts what the step's line sums up)
            theirs = {sh.key for sh in bar.shapes}
            paced = same = lines = 0
            nth: Counter[str] = Counter()
            for seq in sample.order:
                before: tuple[str, int] | None = None
                for key in seq:
                    n = nth[key]
                    nth[key] += 1
                    if key in own:
                        lines += 1
                        if before is not None:
                            step = _whole(_printed(sample, key, n, main.counter))
                            count = _whole(_printed(sample, before[0], before[1], place))
                            paced += step is not None and count is not None and 0 <= step - count <= 1
                            same += step is not None and step == count
                    before = (key, n) if key in theirs else None
            if lines >= MIN_REPEATS and paced >= 0.8 * lines:
                bar.kind, bar.head, bar.attach, bar.paced = "block", main, "next", True
                main.members += 1
                for sl in bar.slots:
                    sl.role = "value" if _bar_rate(bar, sl) else "skip"
                _bar_epoch(bar)
                if same >= 0.8 * lines:
                    _bar_total_planned(bar, place)
                bar.counter = bar.epoch = bar.total = None
                break


def _bar_total_planned(bar: RecordShape, place: int) -> None:
    """The total of a bar that counts the very steps the record prints, one total on every frame: the steps the
    run plans (allenai/open-instruct's finetune.py draws tqdm(range(max_train_steps)) and logs f"  Step:
    {completed_steps}, LR: ..., Loss: ..." behind each frame: `1/9500 [01:18<...]` then `Step: 1`)."""
    total = place + 1
    if total >= len(bar.slots) or bar.shapes[0].literals[total].strip() != "/":
        return
    if len({v for _, v in bar.series(total)}) == 1:
        bar.slots[total].role = "total"


def _bar_epoch(bar: RecordShape) -> None:
    """The epoch a bar's description prints with the epochs planned (`Epoch 1/3:  12%|█▎  | 4/32 [...]`, tqdm's
    desc=f"Epoch {epoch + 1}/{num_epochs}"): the row's epoch and the run's plan, though the bar's other numbers
    are not read."""
    slots = bar.slots
    literals = bar.shapes[0].literals
    for sl, nxt in zip(slots, slots[1:], strict=False):
        if not (_epoch_named(sl.label) and nxt.index == sl.index + 1 and literals[nxt.index].strip() == "/"):
            continue
        epochs = [(0, w) for _, v in bar.series(sl.index) if (w := _whole(v)) is not None]
        planned = [(0, w) for _, v in bar.series(nxt.index) if (w := _whole(v)) is not None]
        if (
            len(epochs) != bar.count
            or len(planned) != bar.count
            or any(e > t for (_, e), (_, t) in zip(epochs, planned, strict=True))
        ):
            return
        sl.role, nxt.role = "epoch", "epoch_total"
        bar.epoch_base = _epoch_base(epochs, planned)
        return


def _printed(sample: SampledLog, key: str, n: int, slot: int) -> str:
    """The text of a slot on the n-th line of a shape ('' where the sample holds no such line)."""
    values = sample.shapes[key].values
    return values[n][slot] if n < len(values) and slot < len(values[n]) else ""


def _announced_rates(
    steps: list[RecordShape], records: list[RecordShape], sample: SampledLog, km: keymap_mod.KeyMap
) -> list[RecordShape]:
    """A line of a learning rate alone, with no counter, printed between the lines of the one step record that
    prints no learning rate of its own: the rate the steps after it train with, the next step row's (the rate a
    scheduler sets as an epoch ends or begins: LeeJunHyun/Image_Segmentation solver.py prints 'Decay learning rate
    to lr: {}.' after an epoch's line, for the epochs after it; ChangeFormer's trainer writes 'lr: %0.7f\n' as an
    epoch begins, before its first batch's line). The rows after that next one have it from no line. A line that
    says it changes the rate, under a counter of its own, printed less often than the steps, is the same: PyTorch's
    ReduceLROnPlateau (torch/optim/lr_scheduler.py _reduce_lr, verbose) prints 'Epoch {epoch}: reducing learning
    rate of group {i} to {new_lr:.4e}.' after the epoch whose metric it read. The steps left are returned."""
    steps = [rec for rec in steps if rec.kind == "step"]
    if len(steps) > 1:
        main = max(steps, key=lambda r: r.count)
        for rec in steps:
            rate = _new_rate(rec, km)
            if rec is not main and rec.count < main.count and rate is not None:
                rate.label = "lr"
                _joins_next(rec, main, rate)  # (the epoch it was read at, the group's number skipped)
        steps = [rec for rec in steps if rec.kind == "step"]
    if len(steps) != 1:
        return steps
    (main,) = steps
    theirs = [main, *(rec for rec in records if rec.kind == "block" and rec.head is main)]
    if any(_plans_to(km, rec, sl) == "lr" for rec in theirs for sl in rec.slots if sl.role == "value"):
        return steps
    heads = {sh.key for sh in main.shapes}
    for rec in records:
        # (or joined to the step line before it but printed less often than the steps, not a line of each record,
        # or to a line that is no step's)
        joined = (
            rec.kind == "block"
            and rec.attach == "previous"
            and rec.head is not None
            and (
                rec.head.kind != "step"
                or (rec.head is main and (rec.count < main.count or _CHANGED.search(rec.shapes[0].raw)))
            )
        )
        # (or under the epoch it opens: PredNet's PaddlePaddle loop prints "Starting epoch {} current lr is {}")
        epoch = rec.counter is not None and _epoch_named(rec.slots[rec.counter].label)
        if (
            (rec.kind != "none" and not joined)
            or (rec.counter is not None and not epoch)
            or rec.count > main.count
        ):
            continue
        values = [
            sl for sl in rec.slots if sl.kind == "num" and sl.role not in ("skip", "step", "total", "epoch")
        ]
        if len(values) != 1 or _plans_to(km, rec, values[0]) != "lr":
            continue
        mine = {sh.key for sh in rec.shapes}
        # (printed between step lines: a line of it after a step line, with a step line after it; not a setting of
        # the header, nor a line after the run's last step)
        if any(_between(seq, mine, heads) for seq in sample.order):
            # (the epoch it opens skipped: the step line after it says its own)
            _joins_next(rec, main, values[0] if epoch else None)
    return steps


def _joins_next(rec: RecordShape, main: RecordShape, value: Slot | None) -> None:
    """Join a line to the row of the step line printed after it, from any head it had; with `value`, that value
    alone: the line's other numbers are skipped and it counts nothing."""
    if value is not None:
        for slot in rec.slots:
            if slot.kind == "num" and slot is not value:
                slot.role = "skip"
        rec.counter = rec.epoch = rec.total = None
    if rec.head is not main:
        if rec.head is not None:
            rec.head.members -= 1
        main.members += 1
    rec.kind, rec.head, rec.attach = "block", main, "next"


def _new_rate(rec: RecordShape, km: keymap_mod.KeyMap) -> Slot | None:
    """The learning rate a line says it changes to (`reducing learning rate of group 0 to 5.0000e-04.`): its one
    value the key model reads as the rate, or the value after `to` where the words before name the rate; None for a
    line that says no change or prints other values (whole numbers aside: an epoch, a group's number)."""
    if not _CHANGED.search(rec.shapes[0].raw):
        return None
    nums = [sl for sl in rec.slots if sl.kind == "num"]
    rates = [sl for sl in nums if sl.role == "value" and _plans_to(km, rec, sl) == "lr"]
    to = [sl for sl in nums if _words(sl.label)[-1:] == ["to"]]
    # (`learning rate of group 0 to X`: the group's number, under the rate's words, is no rate)
    if len(to) == 1 and to[0] not in rates and (rates or _LEARNING_RATE.search(rec.shapes[0].raw)):
        rates = to
    if len(rates) != 1:
        return None
    whole = [sl for sl in nums if sl is not rates[0]]
    if not all(_is_int(v for _, v in rec.series(sl.index)) for sl in whole):
        return None
    return rates[0]


_LEARNING_RATE = regex.compile(r"(?i)(?<![A-Za-z])(?:learning[ _-]rate|lr)(?![A-Za-z])")
# the words of a line that says a setting changes, for what comes after it (`Decay learning rate to lr: ...`,
# `Learning rate set to ...`, `reducing learning rate to ...`)
_CHANGED = regex.compile(
    r"(?i)\b(?:decay(?:s|ed|ing)?|set(?:ting)?|adjust(?:s|ed|ing)?|chang(?:e|es|ed|ing)|updat(?:e|es|ed|ing)"
    r"|reduc(?:e|es|ed|ing)|lower(?:s|ed|ing)?|drop(?:s|ped|ping)?|new)\b"
)


def _plans_to(km: keymap_mod.KeyMap, rec: RecordShape, slot: Slot) -> str | None:
    """The column the key model reads a record's value into, None where it keeps it or reads it nowhere."""
    m = field_plan(km, slot.label, slot.unit, [v for _, v in rec.series(slot.index)], False)
    return None if m is None or m.kept else _full(m)


def _between(seq: Sequence[str], mine: set[str], heads: set[str]) -> bool:
    """Whether a line of shapes `mine` comes between two lines of `heads` in a sequence of the sample's shapes."""
    at = [k for k, key in enumerate(seq) if key in heads]
    return bool(at) and any(at[0] < k < at[-1] for k, key in enumerate(seq) if key in mine)


def _join(rec: RecordShape, main: RecordShape) -> None:
    """Join a line to the row of the step line it follows: what counts on it is a value of that step."""
    rec.kind, rec.head, rec.attach = "block", main, "previous"
    main.members += 1
    for slot in rec.slots:
        if rec.several and slot.role in ("step", "total", "epoch", "skip", "value"):
            slot.role = "several"
        elif slot.role in ("step", "total", "epoch", "skip"):
            slot.role = "count" if slot.index == rec.counter else "value"
    rec.counter = rec.epoch = rec.total = None


def _quotes_training(rec: RecordShape, main: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """Whether a rarer record of evaluation keys repeats, beside them, only training values `main` printed at the
    same steps: an evaluation that quotes the step's training loss for comparison (mistral-finetune's
    finetune/monitoring/metrics_logger.py eval_log_msg joins "step: {:06}", "eval_perplexity: {:.3f}",
    "eval_loss: {:.3f}", "train_loss: {:.3f}" with " - ", beside train_log_msg's "step: {:06} - done (%): ... -
    loss: {:.3f} - lr: ..."; train.py logs it at the step its training line prints).
    A training round that prints the training set's metric beside the evaluation set's with no other record of
    its steps (XGBoost's `train-rmse` beside `eval-rmse`) has no `main` to repeat and stays a step."""
    if rec.counter is None or main.counter is None or rec.count >= main.count:
        return False
    if _counter_key(rec) != _counter_key(main):
        return False
    ours, theirs = rec.series(rec.counter), main.series(main.counter)
    if len(set(ours)) < len(ours) or not set(ours) <= set(theirs):
        return False

    def columns(r: RecordShape) -> tuple[dict[str, int], set[str]]:
        labels = [sl.label for sl in r.slots if sl.label]
        found: dict[str, int] = {}
        scores: set[str] = set()
        for sl in r.slots:
            if sl.role != "value" or sl.kind != "num" or not sl.label:
                continue
            if any(w in EVAL_WORDS for w in _words(sl.label)) or km.evaluation_metric(sl.label):
                scores.add(sl.label.lower())
                continue
            m = field_plan(km, sl.label, sl.unit, [], False, labels)
            found.setdefault(sl.label if m is None or m.kept else _full(m), sl.index)
        return found, scores

    (mine, my_scores), (its, its_scores) = columns(rec), columns(main)
    # (the step's line may report an evaluation of its own, of another split: chnsh/DCRNN_PyTorch's `train_mae:
    # ..., val_mae: ...` each epoch, and every tenth the same line again with `test_mae` for the test set's)
    if not my_scores or my_scores <= its_scores or not mine or not all(c in its for c in mine):
        return False
    at = {printed: k for k, printed in enumerate(theirs)}
    for c in mine:
        values, others = rec.series(mine[c]), main.series(its[c])
        if any(values[k][1] != others[at[printed]][1] for k, printed in enumerate(ours)):
            return False
    return True


def _extends(rec: RecordShape, main: RecordShape) -> bool:
    """Whether a record prints every key of a step record's and more: the same record from a later version of the
    script, or a second run in the same file with diagnostics added (Minamium/kineticEQ's log.jsonl: {"epoch",
    "train_loss", "val_loss", ..., "lr", ...}, then the same keys and eight val_*_linf), never an evaluation of it."""
    its = _keyed_values(main)
    return len(its) >= 2 and its.keys() < _keyed_values(rec).keys()


def _measured_again(rec: RecordShape, main: RecordShape) -> bool:
    """Whether a rarer record of another shape only repeats steps `main` printed, with keys of main's and other
    values for them: the same quantities measured again on other data, an evaluation at that step (Leela Zero's
    training/tf/tfprocess.py prints "step {}, policy={:g} mse={:g} reg={:g} total={:g} ({:g} pos/s)" every 1000
    steps and, at each test interval, "step {}, policy={:g} training accuracy={:g}%, mse={:g}" for the test set,
    at a step already printed). A line that adds keys of its own to a step (no key in common, or the same
    values) stays that step's; so do a progress display's redraws (a bar's frames print a step again and again as
    its running values move) and a record that says in its own words it is the training's (a summary of the
    interval's training metrics: the Flax NNX example's {"kind": "train", "step": 25, "loss": ..., "accuracy": ...}
    beside its per-step {"kind": "step", ...})."""
    if rec.counter is None or main.counter is None or rec.count >= main.count:
        return False
    if _counter_key(rec) != _counter_key(main):
        return False
    if any(sl.kind == "bar" for r in (rec, main) for sl in r.slots):
        return False
    ours, theirs = rec.series(rec.counter), main.series(main.counter)
    if len(set(ours)) < len(ours) or len(set(theirs)) < len(theirs) or not set(ours) <= set(theirs):
        return False
    text = " ".join(rec.shapes[0].literals)
    for sl in rec.slots:
        if sl.label:
            text = text.replace(sl.label, " ")
    if _names_training(text):
        return False

    mine, its = _keyed_values(rec), _keyed_values(main)
    at = {printed: k for k, printed in enumerate(theirs)}
    for key in mine.keys() & its.keys():
        values, others = rec.series(mine[key]), main.series(its[key])
        if any(values[k][1] != others[at[printed]][1] for k, printed in enumerate(ours)):
            return True
    return False


_LIST = regex.compile(r"\[#(?:, ?#)+\]$")


def _scored_beside(rec: RecordShape, main: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """Whether a record seen once or twice under the counter of a training record prints scores and no training
    value: an evaluation at that step (a GRPO loop's metrics.jsonl opens with {"iteration": 0, "accuracy": ...,
    "combined_score": ...}, the model evaluated before its first update, then {"iteration": 1, "loss": ...})."""
    if rec.count > 2 or main.count < MIN_REPEATS or _counter_key(rec) != _counter_key(main):
        return False
    if _trains(rec, km) or not _trains(main, km):
        return False
    labels = _value_labels(rec)
    # (or a key named by the evaluation alone: IST-DASLab/llmq prints `[V] step 4 [  0.0%] | time: 165 ms | eval
    # 2.945187 | train 3.295834 | tps 148k` after its `[T] step N ... | loss ...` lines)
    return any(
        set(_words(lab)) & SCORE_WORDS or km.evaluation_metric(lab) or _evaluation_named(lab)
        for lab in labels
    )


def _evaluated_beside(rec: RecordShape, main: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """Whether a rarer record at some of a training record's steps prints an evaluation's loss where main prints
    the step's: the periodic estimate of the losses on both splits (nanoGPT's estimate_loss, `step {iter}: train
    loss {train:.4f}, val loss {val:.4f}`, printed beside a per-iteration `  step {iter} | loss ... | lr ...`)."""
    if rec.counter is None or main.counter is None or rec.count >= main.count:
        return False
    if _counter_key(rec) != _counter_key(main) or not _trains(main, km):
        return False
    ours, theirs = rec.series(rec.counter), main.series(main.counter)
    if not {v for _, v in ours} <= {v for _, v in theirs}:
        return False
    line = [s.label for s in rec.slots if s.role == "value" and s.label]
    return any(
        (m := field_plan(km, label, None, [], False, line)) is not None
        and not m.kept
        and _full(m) == "eval_loss"
        for label in line
    )


def _second_loop(rec: RecordShape, main: RecordShape) -> bool:
    """Whether a rarer record prints main's line for another loop (_in_layout_of), its position counted in a
    total of its own, after main's first line (the validation pass that CoreNet's trainer prints with the
    training's own `Epoch: E [N/M], loss: ..., top1: ...` line, M then the validation set's size in place of
    the run's planned iterations)."""
    if rec.total is None or main.total is None or not _in_layout_of(rec, main):
        return False
    ours, theirs = _totals(rec), _totals(main)
    return len(ours) == len(theirs) == 1 and ours != theirs and main.first < rec.first


def _own_counter(rec: RecordShape) -> bool:
    """A step record that counts its steps itself: it holds no progress bar, or its counter is printed before the
    bar (a record the bar follows on its line, or the bar's description) and is named like a step counter
    (NVIDIA's BERT `Training Iteration: 4072 ... Iteration:  49%|...| 1350/2771`) or keeps pace with the bar
    (_paced). A bar's redraws under an unnamed epoch (Catalyst's `1/3 * Epoch (train):  4%|...| 2/50`) are the
    epoch's progress, and a counter in its postfix is set with values that lag."""
    bar = _tqdm_count(rec.shapes[0])
    if bar is None:
        return True
    if rec.counter is None or rec.counter >= bar:
        return False
    slot = rec.slots[rec.counter]
    return rec.paced or slot.shifted or _counter_named(slot.label, loose=True)


def _epoch_heading(rec: RecordShape, records: list[RecordShape], sample: SampledLog) -> RecordShape | None:
    """The epoch's banner that heads each line of a step record whose count no word names a counter, one banner a
    line, right above it: the epoch is the step, the line its values, its rising number one of them (scikit-learn's
    SGD with verbose prints "-- Epoch %d" then "Norm: %.2f, NNZs: %d, Bias: %.6f, T: %d, Avg. loss: %f" with T the
    samples seen so far, sklearn/linear_model/_sgd_fast.pyx.tp _plain_sgd). None where no such banner heads it."""
    if rec.named or rec.counter is None or rec.count < MIN_REPEATS or not _has_values(rec):
        return None
    mine = {sh.key for sh in rec.shapes}
    for m in records:
        if (
            m.kind not in ("none", "step")
            or m is rec
            or m.counter is None
            or m.count != rec.count
            or _has_values(m)
            or not _epoch_named(m.slots[m.counter].label)
        ):
            continue
        banner = {sh.key for sh in m.shapes}
        above = [
            seq[k - 1] in banner for seq in sample.order for k, key in enumerate(seq) if key in mine and k
        ]
        counts = [v for _, v in m.series(m.counter)]
        if above and all(above) and not _repeats_in_place(counts):
            rec.kind, m.kind = "none", "step"
            rec.slots[rec.counter].role, rec.counter = "value", None  # (its rising number: one of its values)
            return m
    return None


def _without_progress_reports(steps: list[RecordShape]) -> list[RecordShape]:
    """A record that prints how much of its epoch is done (`at 50.67% examples`) under an epoch that holds over its
    lines, beside a record of the same counter that rises once an epoch: the epoch's progress, no step of its own
    (gensim's word2vec logs "EPOCH %i - PROGRESS: at %.2f%% examples, %.0f words/s, ..." while an epoch trains,
    then "EPOCH %i: training on %i raw words ... took %.1fs" at its end)."""
    for rec in steps:
        if (
            rec.counter is None
            or not _epoch_named(rec.slots[rec.counter].label)
            or rec.redrawn
            or _on_bar(rec)
        ):
            continue  # (a bar's redraws are its epoch's rows, each redraw kept: Ultralytics' table under its bar)
        shares = any(s.kind == "num" and _share(rec.shapes[0], s.index) for s in rec.slots)
        epochs = [v for _, v in rec.series(rec.counter)]
        if not shares or not any(a == b for a, b in zip(epochs, epochs[1:], strict=False)):
            continue  # (an epoch printed again as it goes on)
        key = _counter_key(rec)
        if any(
            other is not rec
            and other.counter is not None
            and _counter_key(other) == key
            and other.count < rec.count
            and not _mostly_held([v for _, v in other.series(other.counter)])
            for other in steps
        ):
            rec.kind = "none"
    return [rec for rec in steps if rec.kind == "step"]


def _epochs_over_bare_bars(
    steps: list[RecordShape], records: list[RecordShape], km: keymap_mod.KeyMap
) -> list[RecordShape]:
    """A bar that draws an epoch's batches and prints no value of its own, under a line that numbers the epoch,
    beside a line of training values with no number printed once an epoch: the epoch is the step, that line its
    values, the bar its progress only (pytorch-accelerated's Trainer prints "Starting epoch N", draws tqdm over
    the batches, then f"{metric}: {value}" of its run history, `train_loss_epoch: 0.769`, callbacks.py)."""
    out = list(steps)
    for bar in steps:
        marker = next((m for m in records if m.kind == "marker" and m.head is bar and not m.leads), None)
        if (
            marker is None
            or _tqdm_count(bar.shapes[0]) is None
            or any(s.label and not s.rate for s in bar.slots)
        ):
            continue
        epochs = [
            rec
            for rec in records
            if rec.kind == "none"
            and rec.counter is None
            and rec.count == marker.count
            and _trains(rec, km)
            and not _evaluation_text(rec)
        ]
        if len(epochs) != 1 or epochs[0].first < marker.first:
            continue
        bar.kind, marker.kind, marker.head = "none", "step", None
        _join(epochs[0], marker)
        out = [marker if rec is bar else rec for rec in out]
    return out


def _epochs_opening_bars(
    steps: list[RecordShape], records: list[RecordShape], km: keymap_mod.KeyMap
) -> list[RecordShape]:
    """A bar that names its epoch in its description and prints no value of its own (a rate, its clocks), each
    epoch's bar opened by a frame of no count yet and closed by a line of training values with no number, one a
    epoch: the opening frame's epoch is the step, that line its values, the bar its progress (pythae's BaseTrainer
    draws tqdm(desc=f"Training of epoch {epoch}/{self.training_config.num_epochs}") over the batches, then logs
    f"Train loss: {np.round(epoch_train_loss, 4)}" between rules, pythae/trainers/base_trainer/base_trainer.py)."""
    out = list(steps)
    for bar in steps:
        if (
            bar.epoch is None
            or bar.kind != "step"
            or _tqdm_count(bar.shapes[0]) is None
            or any(s.label and not s.rate for s in bar.slots if s.index != bar.epoch)
        ):
            continue
        label = bar.slots[bar.epoch].label
        # (one bar's frames may fall in several shapes: its rate printed `s/batch`, then `batch/s`)
        bars = [
            b for b in steps if b.kind == "step" and b.epoch is not None and b.slots[b.epoch].label == label
        ]
        epochs = len({v for b in bars for _, v in b.series(b.epoch)})
        opening = [
            rec
            for rec in records
            if rec.kind == "none"
            and rec.counter is not None
            and rec.slots[rec.counter].label == label
            and _tqdm_count(rec.shapes[0]) is not None
            and not _has_values(rec)
            and rec.count == epochs
        ]
        if len(opening) != 1:
            continue
        closing = [
            rec
            for rec in records
            if rec.kind == "none"
            and rec.counter is None
            and rec.count == epochs
            and _trains(rec, km)
            and not _evaluation_text(rec)
            and rec.first > opening[0].first
        ]
        if len(closing) != 1:
            continue
        for b in bars:
            b.kind = "none"
        opening[0].kind = "step"
        _join(closing[0], opening[0])
        out = [rec for rec in out if rec not in bars] + opening
        for rec in records:  # (an evaluation's bar of each epoch, `Eval of epoch 1/12`, is at its epoch)
            if (
                rec.kind in ("eval", "eval_free")
                and rec.epoch is not None
                and rec.counter == _tqdm_count(rec.shapes[0])
            ):
                _counted_by_epoch(rec)
    return out


def _bars_first_frames(steps: list[RecordShape], records: list[RecordShape]) -> list[RecordShape]:
    """The frames a bar draws with its values before it has counted a step, its rate not known yet (`0/200
    [00:00<?, ?it/s]`: tqdm prints `?` for an unknown rate, so they fall in a shape of their own): the same bar's
    frames, at position 0, for they say which the loop sets first, its values or its position (steps/bars.py
    postfix_steps). CEBRA's solver sets the bar's description to the step's losses after each step, the bar its
    iterable (cebra/solver/base.py), so its first frames show losses at 0."""
    out = list(steps)
    for bar in steps:
        place = _tqdm_count(bar.shapes[0])
        if bar.kind != "step" or place is None or bar.counter != place:
            continue
        labels = _drawn_keys(bar)
        for rec in records:
            at = _tqdm_count(rec.shapes[0])
            if (
                rec.kind != "none"
                or rec.counter is not None
                or at is None
                or not labels
                or _drawn_keys(rec) != labels
                or {v for _, v in rec.series(at)} != {"0"}
            ):
                continue
            rec.kind, rec.counter, rec.named = "step", at, True
            rec.slots[at].role = "step"
            rec.total = _bar_total(rec.shapes[0], at)
            if rec.total is not None:
                rec.slots[rec.total].role = "total"
            out.append(rec)
    return out


def _bars_after_training(steps: list[RecordShape], km: keymap_mod.KeyMap) -> list[RecordShape]:
    """A bar drawn only after the last line of the record that prints the training's values, printing none of its
    own: it counts what follows the training (an evaluation's or a prediction's batches: Cornac's Experiment draws
    `Rating:` and `Ranking:` bars over the test users once its models are fit, cornac/eval_methods/base_method.py),
    no step."""
    trained = [rec for rec in steps if rec.kind == "step" and _trains(rec, km)]
    if not trained:
        return steps
    end = max(where for rec in trained for sh in rec.shapes for where in sh.seen)
    after = [
        rec
        for rec in steps
        if rec.kind == "step"
        and _on_bar(rec)
        and not _trains(rec, km)
        and min(where for sh in rec.shapes for where in sh.seen) > end
    ]
    for rec in after:
        rec.kind = "none"
    return [rec for rec in steps if rec not in after]


def _epochs_planned_by_bar(rec: RecordShape) -> None:
    """A record of each epoch that draws a bar over the epochs on its line, the bar's count never past the epoch
    the record names (tqdm counts an epoch once it is done): the bar's total is the epochs planned (TorchKGE's
    documented loop sets `Epoch {} | mean loss: {:.5f}` as the description of tqdm(range(n_epochs), unit='epoch'))."""
    place = _tqdm_count(rec.shapes[0])
    if (
        rec.kind != "step"
        or rec.counter is None
        or place is None
        or place == rec.counter
        or rec.total is not None
        or not _epoch_named(rec.slots[rec.counter].label)
    ):
        return
    of = _bar_total(rec.shapes[0], place)
    if of is None:
        return
    epochs = [_whole(v) for _, v in rec.series(rec.counter)]
    counts = [_whole(v) for _, v in rec.series(place)]
    totals = {_whole(v) for _, v in rec.series(of)}
    total = totals.pop() if len(totals) == 1 else None
    pairs = [(c, e) for c, e in zip(counts, epochs, strict=True) if c is not None and e is not None]
    if total is not None and len(pairs) == len(epochs) and all(c <= e <= total for c, e in pairs):
        rec.slots[place].role, rec.slots[of].role = "skip", "epoch_total"


def _drawn_keys(rec: RecordShape) -> list[str]:
    """The keys of a record's values, in order, but those of its bar's own figures (its rate, its share done)."""
    return [s.label for s in _keyed_slots(rec) if not s.rate and not _share(rec.shapes[0], s.index)]


def _bar_total(sh: SampledShape, place: int) -> int | None:
    """The value a bar's position `place` is counted out of (`10/100`), None where its line prints none."""
    return place + 1 if place + 1 < len(sh.kinds) and sh.literals[place + 1].strip() == "/" else None


def _counted_by_epoch(rec: RecordShape) -> None:
    """A bar's record whose step is the epoch its description names, not the bar's position."""
    assert rec.counter is not None and rec.epoch is not None
    rec.slots[rec.counter].role = "skip"
    if rec.total is not None:
        rec.slots[rec.total].role = "skip"
    rec.slots[rec.epoch].role = "step"
    rec.counter, rec.epoch, rec.total = rec.epoch, None, None


def _find_marker(rec: RecordShape, records: list[RecordShape]) -> None:
    """A line that says which epoch the steps after it are in (`Epoch 1/3`), where the step record's counter
    goes back: it becomes the epoch of the steps that follow it (attach following: a counter that goes back with
    no such line between is an evaluation's bar, an event, as Keras's evaluate() after fit), and the counter
    a position within the epoch."""
    assert rec.counter is not None
    seen = [(where, int(v)) for where, v in rec.placed(rec.counter) if v.isdigit()]
    for m in records:
        if (
            m.kind != "none"
            or m.counter is None
            or not _epoch_named(m.slots[m.counter].label)
            or _has_values(m)
        ):
            continue
        places = sorted(where for sh in m.shapes for where in sh.seen)
        # (or one epoch line before the steps of the one epoch in view: allennlp's trainer logs "Epoch %d/%d"
        # then its batches)
        restarts = _restarts_at(seen, places)
        leads = len(places) == 1 and bool(seen) and places[0] < seen[0][0] and m.total is not None
        if not restarts and not leads:
            continue
        m.kind, m.head, m.leads = "marker", rec, not restarts
        totals = None
        if rec.total is not None:
            totals = [(sl, int(v)) for sl, v in rec.series(rec.total)]
        positions = [(sl, int(v)) for sl, v in rec.series(rec.counter)]
        planned = [(0, int(v)) for _, v in m.series(m.total)] if m.total is not None else None
        m.epoch_base = _epoch_base([(0, int(v)) for _, v in m.series(m.counter)], planned, positions, totals)
        if not m.leads:
            rec.counts_from = _position_base(positions, totals)
        return


def _restarts_at(seen: list[tuple[tuple[int, int], int]], places: list[tuple[int, int]]) -> bool:
    """Whether a counter (its values where they were seen) starts again after some of `places`: the first value
    after such a place is below the highest since the place before."""
    restarts, k, high = 0, 0, None
    for place in [*places, None]:
        run: list[int] = []
        while k < len(seen) and (place is None or seen[k][0] < place):
            run.append(seen[k][1])
            k += 1
        if run and high is not None and run[0] < high:
            restarts += 1
        high = max(run) if run else high
    return restarts > 0


def _listed(rec: RecordShape) -> bool:
    """A record that is a printed list of numbers ending its line, its counter one of them (VITS's
    `[loss_disc, ..., global_step, lr]`), or a row of numbers alone (_number_row)."""
    sh = rec.shapes[0]
    if rec.counter is None:
        return False
    if _number_row(rec):
        return True
    if not _LIST.search(sh.key):
        return False
    first = max(i for i, lit in enumerate(sh.literals) if "[" in lit)
    return rec.counter >= first


def _number_row(rec: RecordShape) -> bool:
    """A line of three numbers or more and nothing else, repeated, its counter the first: a table's row printed
    with no header, its values known by their place only (hmmlearn's ConvergenceMonitor prints "{iter:>10d}
    {log_prob:>16.8f} {delta:>+16.8f}" each EM iteration, hmmlearn/base.py)."""
    sh = rec.shapes[0]
    return (
        rec.counter == 0
        and rec.count >= MIN_REPEATS
        and len(sh.kinds) >= 3
        and all(kind == "num" for kind in sh.kinds)
        and not any(ch.isalpha() for lit in sh.literals for ch in lit)
    )


def _list_start(rec: RecordShape) -> int:
    """The first value of a listed record's list (of a row of numbers alone, its first)."""
    return max((i for i, lit in enumerate(rec.shapes[0].literals) if "[" in lit), default=0)


def _listed_lr(rec: RecordShape) -> int | None:
    """The learning rate among a printed list's unnamed items (VITS's train.py: logger.info([x.item() for x in
    losses] + [global_step, lr])): the one item whose values all lie in (0, 1] and hold steady, each within 5% of
    the one before and all in one direction, as a schedule moves between two prints (a loss jumps about)."""
    if not _listed(rec):
        return None
    found = []
    for slot in rec.slots[_list_start(rec) :]:
        if slot.role != "value" or slot.kind != "num" or slot.label:
            continue
        printed = [_number(v) for _, v in rec.series(slot.index)]
        values = [v for v in printed if v is not None and 0 < v <= 1]
        if len(values) < max(MIN_REPEATS, len(printed)):
            continue
        if _one_way(values, 0.05):
            found.append(slot.index)
    return found[0] if len(found) == 1 else None


def _lone_value(rec: RecordShape) -> int | None:
    """The loss among the numbers with no key of a bare record (_bare_values), where there is one."""
    for index, column in _bare_values(rec).items():
        if column == "loss":
            return index
    return None


def _bare_values(rec: RecordShape) -> dict[int, str]:
    """What the numbers with no key mean, in a record that prints nothing else beside its rising counter (and the
    counter's total, a stamp, integers): the slot index of each number read, and its column.

    One such number is the loss, the one value a bare training loop prints (PyTorch's tutorials:
    beginner_source/examples_autograd/polynomial_autograd.py `print(t, loss.item())`; karpathy's nn-zero-to-hero
    makemore notebooks `print(f'{i:7d}/{max_steps:7d}: {loss.item():.4f}')`; `print(f'Epoch {epoch}:
    {loss.item():.4f}')`). Only a fraction counts (an integer is a count of something) and only where no word but
    the counter's own name is printed on the line (a word would name the value, or say the line is something
    else). Beside it, the time since training began and the share of the planned steps done name nothing
    (practical-pytorch char-rnn-generation.ipynb: print('[%s (%d %d%%) %.4f]' % (time_since(start), epoch, epoch /
    n_epochs * 100, loss)), with time_since printing '%dm %ds').

    Several such numbers are told apart by their values (a loop that writes `step loss ppl lr stamp` a row, as
    RWKV-PEFT's train.log does): one that is e to the power of another on every line is a perplexity, and the other
    the loss it exponentiates; one that holds steady at or below 0.01, each print within a quarter of the last and
    all in one direction, is the learning rate (a schedule moves that way, a loss jumps about), and where none does,
    the one always at or below 0.01 beside others above it (a cosine of a short period swings); the loss is then the one
    fraction left. Where the values do not settle which is the loss, none is read."""
    if rec.counter is None or rec.count < MIN_REPEATS or len(rec.shapes) != 1:
        return {}
    sh = rec.shapes[0]
    if any(s.kind not in ("num", "ts") for s in rec.slots if not _unkeyed_clock(rec, s)):
        return {}
    rest = [
        s
        for s in rec.slots
        if s.role == "value"
        and s.kind == "num"
        and not _unkeyed_clock(rec, s)
        and _share_of_plan(rec, s) is None
    ]
    if any(s.label or s.unit for s in rest):
        return {}
    counter = rec.slots[rec.counter].label
    text = " ".join(sh.literals)
    if counter:
        text = text.replace(counter, " ", 1)
    if regex.search(r"[^\W\d_]", text):
        return {}
    printed = {s.index: [v for _, v in rec.series(s.index)] for s in rest}
    fractions = [
        i for i, texts in printed.items() if texts and all(_LONE_FRACTION.fullmatch(v) for v in texts)
    ]
    if len(fractions) == 1 and len(rest) == 1:
        return {fractions[0]: "loss"}
    values = {i: [float(v) for v in printed[i]] for i in fractions}
    out: dict[int, str] = {}
    for a in fractions:
        for b in fractions:
            if a != b and a not in out and b not in out and _exponentiates(printed[a], printed[b]):
                out[a], out[b] = "loss", "perplexity"
    steady = [i for i in fractions if i not in out and _scheduled(values[i])]
    if not steady:
        # (a schedule that swings, a cosine of a short period: the one number always at or below 0.01 beside
        # others that rise above it)
        small = [i for i in fractions if i not in out and all(0 < v <= 0.01 for v in values[i])]
        if len(small) == 1 and all(
            max(values[i]) > 0.01 for i in fractions if i not in out and i != small[0]
        ):
            steady = small
    if len(steady) == 1:
        out[steady[0]] = "lr"
    left = [i for i in fractions if i not in out]
    if "loss" not in out.values() and len(left) == 1:
        out[left[0]] = "loss"
    elif "loss" not in out.values() and "lr" in out.values() and left and left[0] < steady[0]:
        out[left[0]] = "loss"  # (the first printed, before the lr: `print(i, len(loader), loss, lr, ...)`)
    if "loss" not in out.values():
        return {}
    return {i: column for i, column in out.items() if column != "perplexity"}


def _exponentiates(losses: list[str], perplexities: list[str]) -> bool:
    """Whether every printed `perplexities` value is e to the power of the `losses` value beside it, to the
    rounding of both prints (the loss's rounding grows by its exponential), over values that move."""
    if len(set(losses)) < 2:
        return False
    for x, y in zip(losses, perplexities, strict=True):
        a, b = float(x), float(y)
        if not 0 < a < 50 or b <= 1:
            return False
        grain = 10.0 ** -_decimals(x) + 0.0  # (the loss printed to this many places)
        if abs(math.exp(a) - b) > math.exp(a) * grain + 10.0 ** -_decimals(y):
            return False
    return True


def _decimals(text: str) -> int:
    """The places after the point a number was printed to (0 for an integer or an exponent form)."""
    mantissa = text.lower().split("e", 1)[0]
    return len(mantissa.split(".", 1)[1]) if "." in mantissa else 0


def _scheduled(values: list[float]) -> bool:
    """Values a learning rate's schedule prints: at most 0.01 and above 0, each within a quarter of the one before
    (a row an epoch of a cosine schedule moves a few percent), all moves in one direction."""
    if len(values) < MIN_REPEATS or not all(0 < v <= 0.01 for v in values):
        return False
    return _one_way(values, 0.25)


def _one_way(values: list[float], within: float) -> bool:
    """Whether values move as a schedule does: each within `within` (a share) of the one before, all moves in one
    direction (or none)."""
    moves = [b - a for a, b in zip(values, values[1:], strict=False)]
    return all(abs(d) <= within * a for d, a in zip(moves, values, strict=False)) and (
        all(d <= 0 for d in moves) or all(d >= 0 for d in moves)
    )


def _unkeyed_elapsed(rec: RecordShape, slot: Slot, left: bool = False) -> bool:
    """A duration with no key (`0m 19s`, `0:01:35`) that rises line after line: the time since training began; with
    `left`, one that falls line after line: the time left."""
    if slot.kind != "clock" or slot.label or slot.role != "value":
        return False
    values = _durations(rec, slot)
    return values is not None and _clock([str(-v if left else v) for v in values]) is True


def _unkeyed_clock(rec: RecordShape, slot: Slot) -> bool:
    """A duration with no key that names no value beside it: the time since the start, or the time left (pytorch/
    tutorials intermediate_source/seq2seq_translation_tutorial.py: print('%s (%d %d%%) %.4f' % (timeSince(start,
    iter / n_iters), iter, iter / n_iters * 100, print_loss_avg)), timeSince printing '%s (- %s)' of the minutes and
    seconds since the start and those left)."""
    return _unkeyed_elapsed(rec, slot) or _unkeyed_elapsed(rec, slot, left=True)


def _share_of_plan(rec: RecordShape, slot: Slot) -> int | None:
    """The planned steps, where a percentage with no key is the counter's share of them on every line (`(100 5%)`,
    `(600 30%)`: 2000 planned), as printed rounded or cut to the digits shown; None otherwise. Of the plans that fit
    every line, the roundest (a plan is set by hand: n_epochs = 2000)."""
    if rec.counter is None or slot.kind != "num" or slot.role != "value":
        return None
    if not (slot.unit == "%" and not slot.label) and not _share_key(slot):
        return None
    pairs = []
    for (_, c), (_, p) in zip(rec.series(rec.counter), rec.series(slot.index), strict=False):
        count, share = _number(c), _number(p)
        if count is None or share is None or not 0 <= share <= 100:
            return None
        pairs.append((count, share))
    if len(pairs) < MIN_REPEATS or len({p for _, p in pairs}) < 2:
        return None
    step = 10.0 ** -max(len(p.partition(".")[2]) for _, p in rec.series(slot.index))
    lo = max(max(c for c, _ in pairs), *(c * 100 / (p + step) for c, p in pairs))
    highs = [c * 100 / (p - step) for c, p in pairs if p > step]
    if not highs:
        return None
    hi = min(highs)
    for zeros in range(15, -1, -1):
        unit = 10**zeros
        planned = math.ceil(lo / unit) * unit
        if 0 < planned <= hi:
            return planned
    return None


def _share_key(slot: Slot) -> bool:
    """A key that says its value is the percentage of the run done (mistralai/mistral-finetune
    finetune/monitoring/metrics_logger.py: ("percent_done", "03.1f", "done (%)") of 100 * step / max_steps; `progress:
    12.5%`, `pct_done`)."""
    m = _SHARE_KEY.match(slot.label)
    return m is not None and (slot.unit == "%" or m["pct"] is not None)


_SHARE_KEY = regex.compile(
    r"^\s*(?:(?P<pct>pct|percent|%)[_ ]?)?(?:done|progress|complete|completed)"
    r"(?:\s*\(?(?P<pct>%|pct|percent)\)?|[_ ](?P<pct>pct|percent))?\s*$",
    regex.IGNORECASE,
)


# (Python's str of a small float has an exponent and no point: `1e-05`)
_LONE_FRACTION = regex.compile(r"[-+]?(?:\d+\.\d+|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\d+[eE]-\d+|[-+]?(?i:nan|inf)")


def _counter_key(rec: RecordShape) -> str:
    """The name a record's counter goes by (its key, normalised; '' for an unnamed one)."""
    assert rec.counter is not None
    label = _QUALIFIER.sub("", rec.slots[rec.counter].label)
    # (a sentence's measure before `at step`: pminervini/KGReasoning logs 'Training average %s at step %d: %f' for
    # each metric, a line each; their counter is the step, whatever the measure)
    at = _AT_COUNTER.search(label)
    measured = at is not None and any(
        s.role == "value" and s.label and s.label == label[: at.start()].strip() for s in rec.slots
    )  # (the sentence names the value the line prints, not an event: `Early stopping at epoch: 79`)
    return keymap_mod.normalize(at.group("word") if at is not None and measured else label)


# (`at step`, and an RL loop's `in episode`: `Total rewards in episode 73 is ...`, `Avg reward at episode 5: ...`)
_AT_COUNTER = regex.compile(r"(?i)(?:^|\s)(?:at|@|in)\s+(?P<word>step|iteration|iter|epoch|batch|episode)$")


def _qualifies(rec: RecordShape) -> bool:
    """A record with a counter and a value, seen rising (or seen once or twice with a counter named so); a
    counter named so alone may head a record printed over lines (find_blocks)."""
    if not _has_values(rec):
        if _lone_value(rec) is not None:
            return True
        if rec.count >= MIN_REPEATS and _listed(rec):
            return True  # a printed list of values (VITS's `[loss, ..., step, lr]`): its rising number counts
        loose = rec.count >= MIN_REPEATS and (
            _counter_named(rec.slots[rec.counter].label, loose=True)
            # (or a position out of its total that heads the lines printing its values: CNN_Numpy's
            # '{}/{} (batchs) completed!' over 'train mean loss: ...', found joined or left by find_blocks)
            or (rec.total is not None and len({v for _, v in rec.series(rec.total)}) == 1)
            # (or a number alone between rules, the banner of each block of values: pointclass2's
            # print('-----' + str(epoch) + '------') over its `train_mean loss: ...` lines)
            or _ruled_number(rec)
        )
        # (the counter's own total is no value: `Train Epoch: {i} / {num_epochs}` heads the line of its values)
        return (rec.named or loose) and all(s.role in ("step", "total") for s in rec.slots if s.kind == "num")
    if rec.count < MIN_REPEATS:
        return rec.named or rec.fuller
    return True


def _ruled_number(rec: RecordShape) -> bool:
    """A line that prints one number and nothing but rules or punctuation about it (`-----3------`, `== 3 ==`)."""
    sh = rec.shapes[0]
    return len(rec.slots) == 1 and not any(ch.isalnum() for text in sh.literals for ch in text)


# a branch of a drawn tree: `├─` or `└──` before a name (torchinfo's summary, `│    └─Conv1d: 3-1  [1, 512, 98]
# 163,840`, torchinfo/layer_info.py's depth-idx; rich's Tree); a box's rules (`├───┼───┤`) name nothing
# (or a module printed by torch.nn.Module.__repr__ among its numbered children, `  (3): GraphConv(64->64)`, a
# ModuleList's or a Sequential's: its index counts layers)
_TREE_BRANCH = regex.compile(r"[├└┣┗╠╚][─━═]+\s?[A-Za-z_]|^\s*\(\d+\): [A-Z][A-Za-z0-9_]*\(")


def _tree_branch(rec: RecordShape) -> bool:
    """A line of a drawn tree (a model's layers under their parents): its numbers index the tree, no step."""
    return _TREE_BRANCH.search(rec.shapes[0].raw or rec.shapes[0].literals[0]) is not None


def _table_rows(steps: list[RecordShape], km: keymap_mod.KeyMap) -> list[RecordShape]:
    """The step records that are a table's rows count steps only where the table's counter column rises over
    MIN_REPEATS rows at least: a table printed once with a row or two (a final result, an evaluation's summary
    per epoch) is no run of steps, unless its counter column is named a step's or an epoch's and its rows hold
    what only training prints (fastai's `epoch train_loss valid_loss ... time` of a one- or two-epoch fit:
    fastai/callback/progress.py ProgressCallback prints a row per epoch). The rows of one table may fall in several
    shapes (a cell's unit changes: turicreate's table printer prints `30us`, then `4.05s`, then `1m 40s`): the
    rows under one counter's name count together. A row that prints its counter's total (`1/100`, an epoch of a
    plan) is progress however few are in view; a column named a counter loosely (`Batch`) rising once is, where
    its rows print the lr (wenet-e2e/wespeaker wespeaker/utils/executor.py: tp.row((epoch, i + 1,
    scheduler.get_lr(), margin, loss, acc)) under tableprint's header `Epoch|Batch|Lr|Margin|Loss|Acc`; an
    evaluation's or a benchmark's table of batch sizes prints no lr). Beside records that count steps under a
    counter's name, a table whose rising column is named no counter (`k`, `top-k`: an evaluation's cut-offs) is
    none of theirs."""
    tables: dict[str, list[RecordShape]] = defaultdict(list)
    for rec in steps:
        if rec.counter is not None and rec.slots[rec.counter].header and rec.total is None:
            tables[_counter_key(rec)].append(rec)
    rows = {id(rec) for group in tables.values() for rec in group}
    named = any(rec.named for rec in steps if id(rec) not in rows)
    for group in tables.values():
        label = group[0].slots[group[0].counter or 0].label
        if named and not (_counter_named(label, loose=True) or _epoch_named(label)):
            for rec in group:
                rec.kind = "none"
            continue
        seen = sorted(p for rec in group if rec.counter is not None for p in rec.placed(rec.counter))
        series = [(sl, n) for (sl, _), v in seen if (n := _whole(_unsep(v))) is not None]
        ups, downs, distinct = _moves(series)
        least = MIN_REPEATS
        if (_counter_named(label) or _epoch_named(label)) and any(_trains(rec, km) for rec in group):
            least = 1
        elif _counter_named(label, loose=True) and any(_trains(rec, km, ("lr",)) for rec in group):
            least = 2  # (`Batch` beside the lr: training's rows, seen to rise once in a short paste)
        if distinct < least or ups < RISING * (ups + downs):
            for rec in group:
                rec.kind = "none"
    return [rec for rec in steps if rec.kind == "step"]


def _epoch_of_uncounted_steps(rec: RecordShape) -> None:
    """An epoch's number that stays the same over most of its record's consecutive lines while their values move is
    no counter of steps: the lines are the epoch's steps, printed without their number (KichangKim/DeepDanbooru
    prints 'Epoch[{}] Loss={:.6f}, P=..., Speed = {:.1f} samples/s, ...' every few batches; a T5 fine-tuning
    script logs f"Epoch {epoch} - Batch loss: {loss:.4f}" each batch). The number is the record's epoch, and its
    steps are numbered in order (_uncounted_steps)."""
    if rec.counter is None or rec.epoch is not None or not _epoch_named(rec.slots[rec.counter].label):
        return
    if _on_bar(rec):
        return  # (an epoch's progress bar redrawn: one epoch's running values, no steps of their own)
    epochs = [v for _, v in rec.series(rec.counter)]
    if len(epochs) < MIN_REPEATS or not _is_int(epochs):
        return
    if not _mostly_held(epochs):
        return
    moving = [
        s
        for s in rec.slots
        if s.role == "value" and s.kind == "num" and s.label and len({v for _, v in rec.series(s.index)}) > 1
    ]
    if not moving:
        return  # (an epoch's line repeated as it is: a redraw, no steps)
    slot = rec.slots[rec.counter]
    slot.role, rec.epoch, rec.counter = "epoch", rec.counter, None
    after = slot.index + 1
    if after < len(rec.slots) and rec.slots[after].role == "total":
        # (the epoch's total, `Epoch [1/5], Batch Loss: ...`: the epochs planned, no steps' total)
        rec.slots[after].role = "epoch_total"
        if rec.total == after:
            rec.total = None


def _lags_behind(rec: RecordShape, main: RecordShape) -> bool:
    """Whether every line of rec that comes after a line of main counts below the count main printed last (twice at
    least): rec's counter counts something slower than main's steps, whatever its name."""
    assert rec.counter is not None and main.counter is not None
    theirs = [(where, _whole(v)) for where, v in main.placed(main.counter)]
    below = 0
    for where, v in rec.placed(rec.counter):
        x = _whole(v)
        before = [y for w, y in theirs if w[0] == where[0] and w[1] < where[1]]
        if not before or before[-1] is None or x is None:
            continue
        if x >= before[-1]:
            return False
        below += 1
    return below >= 2


def _finished_bar(rec: RecordShape, index: int) -> bool:
    """Whether value `index` is the position or the total of a progress bar drawn at its end on every line
    sampled (`1511/1511`): a bar kept once it finished, which counts nothing from line to line."""
    bar = _tqdm_count(rec.shapes[0])
    if bar is None or index not in (bar, bar + 1) or rec.shapes[0].literals[bar + 1].strip() != "/":
        return False
    return all(a == b for (_, a), (_, b) in zip(rec.series(bar), rec.series(bar + 1), strict=True))


def _uncounted_steps(records: list[RecordShape], km: keymap_mod.KeyMap) -> list[RecordShape]:
    """Where no record counts steps, the one repeated record that holds what only training prints (a loss, the lr,
    a gradient norm) and no evaluation's word: the training's steps, printed without their number (okuvshynov/
    slowllama finetune.py logs f'backprop done, loss after forward pass = {loss}' each iteration, its counter on a
    line of its own that a log may leave out). Its rows are numbered in the order they come, as resolving steps
    says. None where two such records compete, where the record prints a number with no key, or where a record
    of training values with a number of its own, printed as often, was not read as steps (its steps are not read,
    rather than read from a summary beside them)."""
    found = [
        rec
        for rec in records
        if rec.kind == "none"
        and rec.counter is None
        and rec.count >= MIN_REPEATS
        and _trains(rec, km)
        and (not _evaluation_text(rec) or _within_an_epoch(rec))
        # (a number with no key could be a counter no rule read: such a record is no step's, unread)
        and all(
            s.label
            or s.unit
            or s.kind != "num"
            or s.role != "value"
            or _share(rec.shapes[0], s.index)  # (a share done, `99.88 %`)
            # (or a finished progress bar's position and total, an epoch's bar kept at its end: `Train Loss:
            # 7.577: 100%|##########| 1511/1511 [12:59<00:00,  1.94it/s]`, its values in the description)
            or _finished_bar(rec, s.index)
            # (or the running mean in brackets after a keyed value: MonoCon's `Loss   6.5571 (  7.0738)`)
            or (
                rec.shapes[0].literals[s.index].rstrip().endswith("(")
                and s.index > 0
                and rec.slots[s.index - 1].label
            )
            for s in rec.slots
        )
        # (nor one that names its counter, `iter: 6319`, where the counter did not qualify: the pattern sets read it)
        and not any(
            s.label
            and s.role == "value"
            and _counter_named(s.label)
            and _is_int(v for _, v in rec.series(s.index))
            for s in rec.slots
        )
    ]
    if len(found) != 1:
        return []
    rivals = [
        rec
        for rec in records
        if rec is not found[0]
        and rec.count >= found[0].count
        and _trains(rec, km)
        and any(s.kind == "num" and s.role != "value" or not s.label for s in rec.slots if s.kind == "num")
    ]
    if rivals:
        return []
    found[0].kind = "step"
    return found


def _within_an_epoch(rec: RecordShape) -> bool:
    """Whether a record prints its epoch and that epoch holds still over every line of it sampled, three at least:
    it is printed many times within one epoch, its lines are steps, whatever evaluation it also reports
    (MorvanZhou's PyTorch-Tutorial 402_RNN_classifier.py prints, every 50 batches, 'Epoch: ', epoch, '| train
    loss: %.4f' % loss, '| test accuracy: %.2f' % accuracy), over as many epochs as the run has. An epoch's
    summary, printed once an epoch, has its epoch rising."""
    epochs = [s.index for s in rec.slots if s.role == "epoch"]
    if len(epochs) != 1 or rec.count < MIN_REPEATS:
        return False
    return _mostly_held([v for _, v in rec.series(epochs[0])])


def _mostly_held(values: Sequence[str]) -> bool:
    """Whether a printed number stays the same from one line to the next at least as often as it changes: an
    epoch printed several times within each epoch, not once per epoch."""
    same = sum(a == b for a, b in zip(values, values[1:], strict=False))
    return same * 2 >= len(values) - 1


def _trains(
    rec: RecordShape, km: keymap_mod.KeyMap, columns: tuple[str, ...] = ("loss", "lr", "grad_norm")
) -> bool:
    """Whether a record holds what only training prints: a loss, the lr, a gradient norm (or those of
    `columns`)."""
    line = [s.label for s in rec.slots if s.role == "value" and s.label]
    for slot in rec.slots:
        if slot.role != "value" or slot.kind != "num" or not slot.label:
            continue
        m = field_plan(km, slot.label, slot.unit, [], False, line)
        if m is not None and (m.column in columns or (m.kept and _loss_word(slot.label))):
            return True
    return False


_MEASURED = (
    "loss",
    "lr",
    "grad_norm",
    "step_time_s",
    "tokens_per_s",
    "samples_per_s",
    "memory_gib",
    "eval_loss",
)


def _reports_only(rec: RecordShape, trainers: list[RecordShape], km: keymap_mod.KeyMap) -> bool:
    """Whether a record under a training record's counter, printed more often than it, measures nothing a step
    does (no loss, rate, time, throughput or memory): an RL loop's episode reports between its updates
    (LionelCCC/RL-Dodge-Agent's ppo_agent.py: f'ep {episodes_done:5d} | step {global_step:7d} | survived
    {cur_ep_len:4d} | rollout {update}/{num_updates}' per episode, f'=== upd {update:4d}/{num_updates} | step
    {global_step:7d} | ... | pg_loss ... | v_loss ... ===' per update)."""
    key = _counter_key(rec)
    mains = [m for m in trainers if _counter_key(m) == key]
    return bool(mains) and all(rec.count > m.count for m in mains) and not _trains(rec, km, _MEASURED)


def _run_header(rec: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """Whether a record seen once or twice beside repeated training records states the run's settings and no
    training value: a header under the steps' counter name at step 0 (eblancocabana/grpo-training-engine's
    metrics.jsonl opens with {"effective_batch": 4, "event": "run_info", "max_steps": 120, "step": 0,
    "steps_per_epoch": 7473, ...}), its settings the run's facts."""
    if _trains(rec, km):
        return False
    labels = [sl.label for sl in rec.slots if sl.label and sl.role in ("value", "total")]
    return any((m := km.lookup(label, "config")) is not None and m.kind == "config" for label in labels)


def _sibling_counters(records: list[RecordShape]) -> None:
    """An evaluation seen too few times to show a counter of its own that is printed as a step record is, the
    same text up to the step's counter and the same kinds of values after it, only its keys other words
    (karpathy/build-nanogpt train_gpt2.py: f"{step} val {val_loss:.4f}" beside f"{step} train {loss:.6f}"):
    its number in the counter's place is the step it was made at."""
    steps = [rec for rec in records if rec.kind == "step" and rec.counter is not None]
    for rec in records:
        if rec.kind != "eval_free" or rec.counter is not None:
            continue
        sh = rec.shapes[0]
        for step in steps:
            c, other = step.counter, step.shapes[0]
            if c is None or other.kinds != sh.kinds or other.literals[: c + 1] != sh.literals[: c + 1]:
                continue
            if step.slots[c].label != rec.slots[c].label or not _is_int(v for _, v in rec.series(c)):
                continue
            rec.counter, rec.kind, rec.at_steps = c, "eval", True
            rec.slots[c].role = "step"
            break


# the distances a regression or an image restorer minimizes, by the names its loss prints under (not a root mean
# square, which reports the square root of what an objective minimizes)
# (and the divergence an embedding minimizes: openTSNE's gradient descent logs "Iteration %4d, KL divergence %6.4f,
# %d iterations in %.4f sec", openTSNE/tsne.py)
_DISTANCES = keymap_mod.SPLIT_DISTANCES | {"smooth_l1", "charbonnier", "huber", "kl_divergence", "kl_div"}


def _addend(sh: SampledShape, rec: RecordShape, slot: Slot) -> bool:
    """Whether a number is written right after another and a `+` (`64.9+3.4s`)."""
    i = slot.index
    return i > 0 and sh.literals[i] == "+" and rec.slots[i - 1].kind == "num"


def _named_alone_loss(rec: RecordShape, slot: Slot, km: keymap_mod.KeyMap) -> str | None:
    """Why a step record's value of no known key is its loss by the name it stands under alone, or None."""
    key = slot.label
    if _distance_alone(rec, slot):
        return f"a distance's name ({key!r}), the record's only keyed value: the loss it minimizes"
    if _split_alone(rec, slot, km):
        return (
            f"the training split's name alone ({key!r}) on the record's only value: the loss, as `val` alone is "
            "the evaluation's"
        )
    if _split_distance(rec, slot, km):
        return f"the training split's distance ({key!r}) where no key names a loss: the loss it minimizes"
    if _total_alone(rec, slot):
        return (
            f"a fractional total ({key!r}), the record's only keyed value: the sum of the terms it minimizes"
        )
    if _split_counterpart(rec, slot, km):
        return (
            f"the one other value ({key!r}) beside the evaluation's loss under a split's name alone, of its "
            "magnitude: the same loss on the training data"
        )
    return None


def _split_counterpart(rec: RecordShape, slot: Slot, km: keymap_mod.KeyMap) -> bool:
    """A step record of two keyed values: one under a split's name alone (`val = 0.4547`, the evaluation's loss)
    and `slot`, a key no table knows, no score's or evaluation's word in it, whose values are within a factor of
    ten of the evaluation's on every line: the training's loss, printed under the loop's own name (GNTPP's
    amdn_train.py logs f'Epoch {epoch+1:4d}, trlast = {loss:.4f}, val = {loss_val:.4f}', the last batch's
    loss)."""
    values = [s for s in rec.slots if s.kind == "num" and s.role == "value" and s.label and not s.unit]
    if len(values) != 2 or slot not in values or set(_words(slot.label.lower())) & (EVAL_WORDS | SCORE_WORDS):
        return False
    other = values[0] if values[1] is slot else values[1]
    if other.label.strip().lower() not in _SPLITS:
        return False
    plan = field_plan(km, other.label, None, [], True)
    if plan is None or plan.column != "eval_loss":
        return False
    pairs = [
        (_number(a), _number(b))
        for (_, a), (_, b) in zip(rec.series(slot.index), rec.series(other.index), strict=True)
    ]
    return bool(pairs) and all(
        a is not None and b is not None and a > 0 and b > 0 and 0.1 <= a / b <= 10 for a, b in pairs
    )


def _total_alone(rec: RecordShape, slot: Slot) -> bool:
    """A step record's only keyed value, fractional, under `total` alone: the loss, the sum of its terms whatever
    they are (And1210/FER_SSL's train.out: `[epoch: 1/200, iter: 375/489] total: 1.657671`). A whole number there
    counts something; beside other keyed values a total may be of anything."""
    if keymap_mod.normalize(slot.label) != "total" or _is_int(v for _, v in rec.series(slot.index)):
        return False
    return [s for s in _keyed_slots(rec) if not s.unit] == [slot]


def _split_distance(rec: RecordShape, slot: Slot, km: keymap_mod.KeyMap) -> bool:
    """A step record's one value named for the training split and a distance, where no key of the record names a
    loss (chnsh/DCRNN_PyTorch dcrnn_supervisor.py logs 'Epoch [{}/{}] ({}) train_mae: {:.4f}, val_mae: {:.4f}, lr:
    {:.6f}, {:.1f}s', the masked MAE it trains on and the same on the validation set)."""
    words = _words(keymap_mod.normalize(slot.label))
    if len(words) != 2 or words[0] not in keymap_mod.TRAIN_WORDS or words[1] not in _DISTANCES:
        return False
    for other in rec.slots:
        if other is slot or other.kind != "num" or other.role != "value" or not other.label:
            continue
        theirs = _words(keymap_mod.normalize(other.label))
        if theirs[:1] == words[:1] and theirs[1:2] != words[1:2] and theirs[-1:] and theirs[-1] in _DISTANCES:
            return False  # (two distances of the training split: terms, or measures, no one of them the loss)
        m = field_plan(km, other.label, other.unit, [], False)
        if m is not None and not m.kept and m.column == "loss":
            return False
    return True


def _distance_alone(rec: RecordShape, slot: Slot) -> bool:
    """A step record's only keyed value under a distance's name: the loss (sanghyun-son/EDSR-PyTorch src/loss/
    __init__.py display_loss prints '[{}: {:.4f}]' of each term by its type, and its super-resolution forks keep it:
    `[1600/16000]\t[L1: 0.0897]\t64.9+3.4s`). Beside other keyed values it is a term (pix2pix's `G_L1` beside
    `G_GAN`, leela-zero's `mse` beside `policy` and their `total`)."""
    if keymap_mod.normalize(slot.label) not in _DISTANCES:
        return False
    return [s for s in _keyed_slots(rec) if not s.unit] == [slot]  # (beside times and amounts in their units)


def _loss_alone(rec: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """A line whose one keyed value is a loss by its key (`   Loss: 0.5301`): under an evaluation's heading, the
    evaluation's loss (a GPT-2 LoRA trainer's logger.info("📊 Evaluation Results:") then f"   Loss: {loss:.4f}",
    f"   Perplexity: {ppl:.2f}", ...)."""
    keyed = _keyed_slots(rec)
    if len(keyed) != 1:
        return False
    m = field_plan(km, keyed[0].label, keyed[0].unit, [], False)
    return m is not None and not m.kept and m.column == "loss"


def _split_alone(rec: RecordShape, slot: Slot, km: keymap_mod.KeyMap) -> bool:
    """A step record's one value under the training split's name and nothing else (karpathy/build-nanogpt
    train_gpt2.py writes its log file with f.write(f"{step} train {loss_accum.item():.6f}\\n"), beside
    f"{step} val {val_loss_accum.item():.4f}\\n"): the loss; so it is beside the evaluation split's loss and the
    step's known values. Beside a loss or values of no known kind the word names something else (a node
    classifier's `Loss: 3.9669, Train: 0.1308, Val: 0.1680`, accuracies of its splits)."""
    if keymap_mod.normalize(slot.label) not in ("train", "training"):
        return False
    values = [s for s in rec.slots if s.kind == "num" and s.role == "value" and s is not slot]
    if not values:
        return True
    # (beside the evaluation split's loss and settings of the step, the lr, its time: bjorvack/lorcana-training's
    # f"[pretrain] epoch {e:3d}/{n}  train={loss:.4f}  heldout={held:.4f}  lr={lr:.2e}")
    others = [field_plan(km, s.label, s.unit, [], False) if s.label else None for s in values]
    return all(m is not None and not m.kept and m.column != "loss" for m in others) and any(
        m is not None and m.column == "eval_loss" for m in others
    )


def _loss_word(label: str) -> bool:
    """A key that names a loss (`kl_loss`, `Mask_Loss`), not a time spent on one (Det3D's `loss_parse_time`)."""
    words = _words(label)
    return "loss" in words and words[-1] not in _TIMED_WORDS


_TIMED_WORDS = frozenset({"time", "times", "duration", "s", "ms", "sec", "secs", "seconds"})


def _evaluation_text(rec: RecordShape) -> bool:
    """An evaluation's word in the record's keys (`val_loss`) or standing alone in its other text."""
    labels = [s.label for s in rec.slots if s.label]
    return bool(_eval_marks(_own_text(rec))) or any(
        w in EVAL_WORDS for label in labels for w in _words(label)
    )


def _scored(rec: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """A line printed once that says it is an evaluation in its own words (not only in a key) and prints a loss or
    an evaluation metric: the one evaluation an excerpt holds (flair's trainer.py f"DEV : loss {result.loss} -
    {result.main_score_name} {score}" after each epoch; pytorch/examples mnist/main.py test(): '\nTest set:
    Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'). The word names the line: it stands before its first
    number (a config echo's `split=val, ..., iou=0.7` is no evaluation). Seen twice, an evaluation's values must
    also move."""
    literals = rec.shapes[0].literals
    first = next((s.index for s in rec.slots if s.kind == "num" and s.role != "skip"), None)
    if first is None:
        return False
    text = " ".join(literals[: first + 1])
    labels = _value_labels(rec)
    opening = rec.slots[first].label
    if (
        opening
        and literals[0].strip().lower().startswith(opening.lower())
        and _eval_marks(opening)
        and any(_eval_marks(label) for label in labels if label != opening)
    ):
        # (the line's heading is its first number's key, and its values' keys say so too: eric-mitchell's
        # direct-preference-optimization trainers.py prints f'eval after {self.example_counter}: {formatted}' of
        # a dict of 'rewards_eval/chosen', ..., 'loss/eval')
        return True
    if (
        opening
        and literals[0].strip().lower().startswith(opening.lower())
        and _eval_marks(opening)
        and (_epoch_named(opening) or _counter_named(opening))
        and len(labels) >= 2
    ):
        # (or its heading names the epoch or step the evaluation is of: pytorch/tutorials' speech command
        # recognition prints f"\nTest Epoch: {epoch}\tAccuracy: {correct}/{len(test_loader.dataset)}
        # ({100. * correct / len(test_loader.dataset):.0f}%)\n" after each epoch's `Train Epoch: ...` lines)
        return True
    for label in labels:
        text = text.replace(label, " ")
    if not _eval_marks(text):
        # (a line of one key, its words the line's own, says it in the key: sebtheiler/tutorials dqn/train_dqn.py
        # prints print('Evaluation score:', final_score) between its `Game number: ...` lines)
        return (
            len(labels) == 1
            and _single(rec)
            and bool(_eval_marks(labels[0]))
            and bool(set(_words(labels[0].lower())) & (SCORE_WORDS | _RETURNS))
        )
    for label in labels:
        # (or a score, or an agent's reward or return, said of the evaluation: `Evaluation: Average reward over 10
        # episodes: 500.00`)
        if km.evaluation_metric(label) or set(_words(label)) & (SCORE_WORDS | _RETURNS):
            return True
        m = field_plan(km, label, None, [], True)
        if m is not None and not m.kept and _full(m) == "eval_loss":
            return True
    return False


def _lone_eval_loss(rec: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """A line printed once that opens with an evaluation's loss by its key (an evaluation's word before a loss
    name), with a fraction's digits: karpathy/build-nanogpt train_gpt2.py prints print(f"validation loss:
    {val_loss_accum.item():.4f}") every 250 steps, the first before step 0's line, and the loops that copy it
    alike; shentianxiao/language-style-transfer code/style.py prints each epoch's dev_losses.output('dev'): "dev
    loss 25.11, rec 19.31, adv 5.80, d0 0.65, d1 1.89", the step line's losses on the dev set. A setting named
    after the loss (`val_loss_every: 250`) is whole, and no eval_loss by the key model; the best so far is no
    evaluation of its own (HarderThenHarder/transformers_tasks chatglm_finetune train.py: "Min eval loss has been
    updated: {:.5f} --> {:.5f}" after its "Evaluation Loss: {:.5f}"). Its log file's line f"{step} val {loss:.4f}"
    leads with the step it evaluates at."""
    numbers = [s for s in rec.slots if s.kind == "num" and s.role != "skip"]
    when = numbers[0].label.lower().endswith(" at") if numbers else False  # (`val_loss at 0 epoch: ...`)
    if len(numbers) == 2 and (not numbers[0].label or when) and _leading_step(rec, numbers[0]):
        numbers = numbers[
            1:
        ]  # (the step it evaluates at, leading the line: build-nanogpt's `250 val 2.2391`)
    first = numbers[0] if numbers else None
    if first is None or not first.label or first.role != "value":
        return False
    # (by the key alone: `loss has been updated` is none; an average's word before it names the same loss, the
    # evaluation's mean: C-SWM's train.py print('====> Average valid loss: {:.6f}'.format(...)))
    # (so does a word of when it was made, before training or after it: dichev/deep-learning-from-scratch's GPT-2
    # reproduction prints f"Initial val loss: {loss:.4f}" before its first step)
    return _evaluation_loss_at(rec, first, km, _without_when(first.label))


def _leading_step(rec: RecordShape, slot: Slot) -> bool:
    """Whether a number is the step a line leads with: whole, before anything else the line prints
    (build-nanogpt's log file line f"{step} val {loss:.4f}")."""
    printed = [v for _, v in rec.series(slot.index)]
    return slot.index == 0 and bool(printed) and all(v.isdigit() for v in printed)


def _evaluation_loss_at(rec: RecordShape, slot: Slot, km: keymap_mod.KeyMap, key: str) -> bool:
    """Whether a value is an evaluation's loss by its key (`key`, as the key model reads it), printed with a
    fraction's digits; a bound over the evaluations so far (`Min eval loss`, `best val_loss`) is none."""
    if {w.lower() for w in _words(slot.label)} & _BOUND_WORDS:
        return False
    printed = [v for _, v in rec.series(slot.index)]
    if not printed or any(_unsep(v).lstrip("-+").isdigit() for v in printed):
        return False
    m = field_plan(km, key, slot.unit, [], False)
    return m is not None and not m.kept and _full(m) == "eval_loss"


# the words of a loss or of a measure made of it (its exponential, the perplexity; per character or byte in bits)
_LOSS_MEASURES = frozenset({"loss", "ppl", "perplexity", "nll", "xent", "bpc", "bpb"})


def _opened_by_evaluation(rec: RecordShape) -> bool:
    """A line seen once whose first key opens with an evaluation's word, after at most the step it evaluates at
    (a bare whole number leading the line), and that prints a loss or its perplexity with a fraction's digits:
    ucsd-cse251b's nanoGPT course loop writes f"{step} evaluate ppl {ppl:.4f} loss {loss:.6f} tok {n} sec
    {secs:.2f}" beside its f"{step} train {loss:.6f} ..." lines; OpenNMT (Lua) prints 'Validation perplexity:
    ' .. validPpl after each epoch."""
    numbers = [s for s in rec.slots if s.kind == "num" and s.role != "skip"]
    if numbers and not numbers[0].label and _leading_step(rec, numbers[0]):
        numbers = numbers[1:]
    if not numbers or not numbers[0].label:
        return False
    words = _words(numbers[0].label.lower())
    if not words or words[0] not in EVAL_WORDS:
        return False
    return any(
        set(_words(sl.label.lower())) & _LOSS_MEASURES and all("." in v for _, v in rec.series(sl.index))
        for sl in numbers
        if sl.label
    )


def _evaluation_loss_only(rec: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """A line seen once that prints an evaluation's loss under its key, with a fraction's digits, and none of the
    training's values (a loss, the lr, a gradient norm): an evaluation, whatever counts and times it states
    besides (LLaMA-Factory's trainer_log.jsonl writes {"current_steps": 25, "total_steps": 42, "eval_loss":
    0.1905, "epoch": 1.72, ...} between the steps' lines). A bound over the evaluations so far (`best val_loss`)
    is none."""
    if _trains(rec, km):
        return False
    return any(
        _evaluation_loss_at(rec, sl, km, sl.label)
        for sl in rec.slots
        if sl.kind == "num" and sl.role == "value" and sl.label
    )


# the words of a key that make its value a bound over the evaluations so far, not one evaluation's
_BOUND_WORDS = frozenset({"min", "max", "minimum", "maximum", "best", "lowest", "highest", "smallest"})


def _metrics_only(rec: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """A record whose keyed numbers name evaluation metrics (the key model's [evaluation] metrics), beside times
    and counts at most: no training value, no other quantity. A number glued to a name by a dash is part of the
    name (`network-snapshot-005734`: the snapshot the metrics are of)."""
    literals = rec.shapes[0].literals
    labels = [
        s.label
        for s in rec.slots
        if s.kind == "num" and s.label and s.role == "value" and not literals[s.index].endswith(("-", "_"))
    ]
    metrics = [lab for lab in labels if km.evaluation_metric(lab)]
    if not metrics:
        return False
    for label in labels:
        if label in metrics:
            continue
        m = field_plan(km, label, None, [], False)
        if m is None or m.kept or _full(m) in TRAINING_COLUMNS:
            return False
    return True


# words of a score measured on data, which training lines print beside their loss too (so not the key model's
# evaluation metrics): on a line of its own with no training value they are an evaluation's (CPM-Bee's
# tutorials/decoder_tuning runner: print("val acc:", eval_res), print("test acc at best val:", test_res) and,
# after its epochs, print("Final acc:", res))
SCORE_WORDS = frozenset(
    {"acc", "accuracy", "top1", "top5", "prec", "precision", "recall", "f1", "em", "exact"}
    # a retrieval's and a detector's: average precision, its normalized cumulative gain, its reciprocal rank
    # (ISChenawei/DMNIL's "Recall@1: 49.7583 - Recall@5: ... - AP: 54.9932" after its `[Evaluate]` rule)
    | {"ap", "ndcg", "mrr"}
    # the confusion matrix's counts a classifier's line prints beside its scores (`tp: 0, fn: 11, fp: 0, tn: 53`):
    # counts of answers, never a counter of steps
    | {"tp", "fp", "tn", "fn"}
)
# what an agent's evaluation measures: its episodes' reward or return, or the game's score
_RETURNS = frozenset({"reward", "rewards", "return", "returns", "score"})


def _scores_only_of_an_agent(rec: RecordShape) -> bool:
    """A record whose keyed numbers are all scores or an agent's returns (`Average Return`, `accuracy`)."""
    labels = _value_labels(rec)
    return bool(labels) and all(set(_words(label)) & (SCORE_WORDS | _RETURNS) for label in labels)


def _metric_named_steps(rec: RecordShape) -> bool:
    """Where a log has no repeated step record, a record under a counter named a step's, repeated, that is an evaluation's
    only by an evaluation metric among its values (no word of its text or keys says so): the training's own
    steps, which measure the batch as well (Darmasus/Darma training/train_base.py: f"[ep {epoch} step
    {global_step:5d} t={elapsed:7.0f}s vram={peak_mem_mb:5d}MB] L=... D=... PSNR={psnr:5.2f} R=... bpp")."""
    if rec.counter is None or rec.count < MIN_REPEATS:
        return False
    counter = rec.slots[rec.counter].label
    if counter and not (_counter_named(counter) or _epoch_named(counter)):
        # (an epoch's too: a Flux loop's println("epoch $epoch, mae $(train_err())"); a counter with no name is
        # one too, where it rises on every line: river's progressive validation prints f"[{step:,d}] {metric}",
        # the examples learnt so far and the error made on each before it was learnt)
        return False
    return not _evaluation_text(rec) and not any(_evaluation_named(label) for label in _value_labels(rec))


def _accuracy_check(rec: RecordShape, steps: list[RecordShape]) -> bool:
    """A record of scores only (`train acc` beside `val_acc`), under a counter of its own beside the record of
    the steps (more lines, another counter): an accuracy check at the epoch's end on the training set and on
    the validation set, an evaluation (cs231n's Solver: '(Iteration %d / %d) loss: %f' and, each epoch, '(Epoch
    %d / %d) train acc: %f; val_acc: %f'). A step's record with its score and no loss is the steps themselves."""
    labels = _value_labels(rec)
    if not labels or not all(set(_words(label)) & SCORE_WORDS for label in labels):
        return False
    if not any(set(_words(label)) & EVAL_WORDS for label in labels):
        return False
    return any(_steps_beside(rec, main) for main in steps)


# a logging level that says a line reports a problem, not a measurement (Python logging's WARNING, ERROR, CRITICAL;
# glog's and loguru's spellings)
_PROBLEM_LEVEL = regex.compile(r"(?<![A-Za-z])(?:WARNING|WARN|ERROR|CRITICAL|FATAL)(?![A-Za-z])")


def _diagnostic(rec: RecordShape, steps: list[RecordShape], km: keymap_mod.KeyMap) -> bool:
    """A record logged at a warning or error level that prints no training value, beside a step record logged
    otherwise that prints one (or is printed more often): the loop's diagnostic, which numbers the step it concerns (Sanulajr/
    surgeon_attention's `[WARNING] Low attention weight detected: min=0.029 (batch 225, step 225)` between its
    `[INFO] Epoch 1 [240/1855] total=... pose=... gaze=...` lines)."""
    if _trains(rec, km) or not all(_PROBLEM_LEVEL.search(_before_first_value(sh)) for sh in rec.shapes):
        return False
    return any(
        main is not rec
        and (_trains(main, km) or main.count > rec.count)
        and not any(_PROBLEM_LEVEL.search(_before_first_value(sh)) for sh in main.shapes)
        for main in steps
    )


def _before_first_value(sh: SampledShape) -> str:
    """A line's text up to its first value that is no stamp: its logger's prefix, where a level word stands."""
    text = []
    for literal, kind, value in zip(sh.literals, sh.kinds, sh.values[0] if sh.values else (), strict=False):
        text.append(literal)
        if kind != "ts":
            return "".join(text)
        text.append(value)
    return "".join(sh.literals)


def _steps_beside(rec: RecordShape, main: RecordShape) -> bool:
    """Whether `main` is another record, printed more often, under a counter of another name: the steps beside
    a record printed once in a while (an epoch's)."""
    return main is not rec and main.count > rec.count and _counter_key(main) != _counter_key(rec)


def _epoch_summary_evaluated(rec: RecordShape, steps: list[RecordShape], km: keymap_mod.KeyMap) -> bool:
    """A record under a counter of its own, printed less often than the steps' record, that states an evaluation
    set's loss beside the training's: the summary of an epoch with its validation, an evaluation at the epoch's
    end (ConcatBERT's 'Epoch {:2d} | Time {} sec | Train Acc | Train Loss | Valid Loss' after its 'Epoch | Batch
    i/N | Time/Batch(ms) | Train Loss' lines). Without the steps' record beside it, its lines are the steps."""
    labels = _value_labels(rec)
    # (or an evaluation's metric: NayeonKim925's taxonomy classifier prints each epoch's 'EPOCH RESULT: {"epoch":
    # 0, "train_loss": ..., "p@1": ..., "mrr_filtered": ..., "f1_top3": ...}' after its step lines)
    # (or the stage's words alone as keys, the training's value and the evaluation's side by side: Lukas1121/
    # LogSentinel's finetune.py prints f"[{phase}] Epoch {e}/{n} -- train: {tr:.4f}  val: {va:.4f}  ppl: ..." after
    # its `step {s}/{n}  loss {avg}` lines)
    if not any(
        (set(_words(label)) & EVAL_WORDS and set(_words(label)) & km.loss.words)
        or km.evaluation_metric(label)
        for label in labels
    ) and not _stage_words_alone(rec):
        return False
    # (a bar of the epoch's progress, no loss of its own, leaves the summary the step; steps that print no epoch
    # count within one where their counter starts again under an epoch's summary)
    epoch = _epoch_named(rec.slots[rec.counter].label) if rec.counter is not None else False
    return any(
        main.kind == "step"
        and (main.epoch is not None or (epoch and _falls_back(main)))
        and _steps_beside(rec, main)
        and _trains(main, km)
        for main in steps
    )


def _stage_words_alone(rec: RecordShape) -> bool:
    """Whether a record keys its values by the stage words alone, the training's and an evaluation's side by side
    (`train: 1.23  val: 1.31`)."""
    bare = {keymap_mod.normalize(label) for label in _value_labels(rec)}
    return bool(bare & _TRAIN_STAGE and bare & EVAL_WORDS)


def _splits_of_one_quantity(rec: RecordShape) -> bool:
    """Whether a record's keys name one quantity of the training split and of an evaluation's, a stage word and the
    same other words (`train loss` and `val loss`, `train_ppl` and `valid_ppl`), and every key is such a pair's."""
    quantities: dict[str, set[str]] = {}
    for label in _value_labels(rec):
        words = [w.lower() for w in _words(label)]
        stage = [w for w in words if w in _TRAIN_STAGE or w in EVAL_WORDS]
        if len(stage) != 1 or len(words) < 2:
            return False
        rest = " ".join(w for w in words if w != stage[0])
        quantities.setdefault(rest, set()).add("train" if stage[0] in _TRAIN_STAGE else "eval")
    return bool(quantities) and all(sides == {"train", "eval"} for sides in quantities.values())


def _splits_estimated(rec: RecordShape, steps: list[RecordShape], km: keymap_mod.KeyMap) -> bool:
    """A record keyed by the stage words alone (`train 2.59 | val 2.59`) under the counter of another record that
    prints the training's loss by its own name: the loss estimated on each split at that step, however often
    (oliverma-california/olivergpt's `step   100 | train 2.5931 | val 2.5916 | lr ... | 14s` every 100 steps beside
    `  step   500 | loss 1.9145 | lr ...`), an evaluation at the step its counter prints. So is a record that names
    one quantity of both splits (`train loss` beside `val loss`: karpathy/nanoGPT's estimate_loss() print,
    f"step {i}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}", that course loops copy beside
    their own f"step {i}, loss: {loss:.4f}, lr: {lr:.6f}")."""
    alone = _stage_words_alone(rec)
    if not (alone or _splits_of_one_quantity(rec)):
        return False
    return any(
        main is not rec
        and main.kind == "step"
        and _counter_key(main) == _counter_key(rec)
        and not {keymap_mod.normalize(label) for label in _value_labels(main)} & _TRAIN_STAGE
        # (named so, the estimate is printed less often than the steps it estimates at)
        and (_trains(main, km) if alone else main.count > rec.count and _names_the_loss(main, km))
        for main in steps
    )


def _names_the_loss(rec: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """Whether a record prints the training's loss under a key the key model reads as the loss (`loss`), not
    only a key that holds the word (an epoch's `Save Best Loss: 0.0760 Model` note)."""
    line = [s.label for s in rec.slots if s.role == "value" and s.label]
    return any(
        (m := field_plan(km, s.label, s.unit, [], False, line)) is not None
        and not m.kept
        and m.column == "loss"
        for s in rec.slots
        if s.role == "value" and s.kind == "num" and s.label
    )


def _falls_back(rec: RecordShape) -> bool:
    """Whether a record's counter goes down somewhere in the sample (it counts within an epoch)."""
    counts = [_number(v) for _, v in rec.series(rec.counter)] if rec.counter is not None else []
    return any(a is not None and b is not None and b < a for a, b in zip(counts, counts[1:], strict=False))


_CAMEL_SPLIT = regex.compile(r"(?<=[a-z0-9])(?=[A-Z])")  # (`ValPerp`: val, perp)


def _evaluation_keys(rec: RecordShape) -> bool:
    """Whether a record's keyed numbers are two or more and every key names an evaluation (`eval_loss`,
    `val/acc`, `test accuracy`): a line seen once that says so is one (clu's LoggingWriter writes the
    evaluation's summary as the steps' are, "[6255] eval_accuracy=0.3713, eval_loss=2.9286"). Beside them, the
    training's value quoted under the stage's word alone is the comparison it reports (dl4mt's trainer prints
    'Train: {cost} Val: {valid_err} ValPerp: {valid_perplexity}' after each validation)."""
    labels = _value_labels(rec)
    named = [label for label in labels if set(_words(_CAMEL_SPLIT.sub("_", label))) & EVAL_WORDS]
    quoted = [label for label in labels if label not in named and set(_words(label)) <= _TRAIN_STAGE]
    return (
        len(labels) >= 2
        and len(named) + len(quoted) == len(labels)
        and len(quoted) <= 1
        and len(named) >= len(quoted) + 1
        and not any(set(_words(label)) & _SETTING_WORDS for label in labels)
    )


# words of an evaluation's settings, not its measures: DDAD's config echo "config.model.test_trajectoy_steps=250 ,
# config.data.test_batch_size=16", `eval_interval`, `val_every`, `num_eval_workers`
_SETTING_WORDS = frozenset(
    {"batch", "bs", "size", "steps", "interval", "freq", "frequency", "every", "workers", "seed"}
)


def _scores_only(rec: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """A record whose keyed numbers are all scores (accuracy, precision, F1) and none names the training
    (`train acc`): what an evaluation reports. A line of a training step prints its loss beside its accuracy.
    The process that printed it is no value of it (FaceX-Zoo's face_lightning search.py: f"rank: {rank}, acc =
    {acc:.6f}" after each epoch)."""
    labels = _measured_labels(rec)
    if not labels or _trains(rec, km):
        return False
    for label in labels:
        words = set(_words(label))
        if not words & SCORE_WORDS or words & _TRAIN_STAGE:
            return False
    return True


def _measured_labels(rec: RecordShape) -> list[str]:
    """The keys of a record's values but those that name the process printing it (`rank`)."""
    return [label for label in _value_labels(rec) if keymap_mod.normalize(label) not in _PROCESS_KEYS]


def _final_score(rec: RecordShape, steps: list[RecordShape], km: keymap_mod.KeyMap) -> bool:
    """A score printed once on a line of its own, with no counter and no training value, after steps began and
    with a fraction's digits: the final evaluation's (CPM-Bee's decoder_tuning runner: print("Final acc:", res)
    after its epochs). A setting that shares a score's name (`precision: 16`, a config's) is printed before the
    steps, and whole."""
    if not _scores_only(rec, km) or not any(s.first < rec.first for s in steps):
        return False
    measured = set(_measured_labels(rec))
    printed = [
        v for sl in rec.slots if sl.kind == "num" and sl.label in measured for _, v in rec.series(sl.index)
    ]
    return bool(printed) and not any(_unsep(v).isdigit() for v in printed)


def _counts_only(rec: RecordShape) -> bool:
    """Whether every keyed value of a record counts epochs or steps: a heading of what follows it, naming where the
    run is (lixingw's SFT script prints "Example Generation at Epoch 1 Step 1911:" above a generated sample)."""
    keyed = [s for s in rec.slots if s.label and s.kind == "num" and s.role == "value"]
    return bool(keyed) and all(_epoch_named(s.label) or _counter_named(s.label, loose=True) for s in keyed)


def _has_values(rec: RecordShape) -> bool:
    return any(s.label and s.kind == "num" and s.role == "value" for s in rec.slots)


def _read_in_its_unit(spec: Table, first_unit: str | None) -> None:
    """A field whose value prints its own unit of time: read as a time (seconds), its scale the column's beyond the
    unit the first line printed; a kept column named after that unit is named in seconds."""
    per = _time_unit(first_unit) or 1.0
    scale = float(spec.get("scale", 1.0)) / per
    spec["units"] = "time"
    if abs(scale - 1.0) < 1e-12:
        spec.pop("scale", None)
    else:
        spec["scale"] = scale
    column = str(spec["column"])
    if first_unit and column.startswith("x_") and column.endswith("_" + first_unit.lower()):
        spec["column"] = column[: -len(first_unit)] + "s"


def _undecided_loss(m: FieldPlan) -> bool:
    """A loss the key model kept as one of several a line prints with no total."""
    return m.use is not None and m.use.why.endswith(keymap_mod.LOSS_UNDECIDED)


def _epochs_counted(rec: RecordShape) -> bool:
    """A record whose counter is the epoch, one line an epoch: its step is an epoch."""
    return rec.kind == "step" and rec.counter is not None and _epoch_named(sh_label(rec, rec.counter))


_EPOCH_WORD = regex.compile(r"(?i)(?<![A-Za-z])epoch(?![A-Za-z])")


def _epoch_time(
    km: keymap_mod.KeyMap, key: str, slot: Slot, texts: Sequence[str], line: Sequence[str]
) -> FieldPlan | None:
    """The time of an epoch on a record counted in epochs is its step's time: the key read with `step` for
    `epoch` (facebookresearch/end-to-end-negotiator engine.py: '| epoch %03d | train_loss %.3f | train_ppl %.3f |
    s/epoch %.2f | lr %0.8f'; `epoch_time`, `time/epoch`)."""
    if _EPOCH_WORD.search(key) is None:
        return None
    m = field_plan(km, _EPOCH_WORD.sub("step", key), slot.unit, texts, False, line)
    if m is None or m.kept or m.column != "step_time_s":
        return None
    why = f"a time per epoch ({key!r}) on a record counted in epochs: the step's time"
    use = None if m.use is None else keymap_mod.KeyUse(m.use, m.use.rule, why, m.use.unit, m.use.scale)
    return replace(m, reason=why, use=use)


def _literal_rx(variants: Sequence[str], first: bool, last: bool) -> str:
    """A literal text of the shape (any of its variants, whitespace as blanks of any width: at least one between
    two values, which would otherwise read as one)."""
    outs: list[str] = []
    for text in variants:
        if first:
            text = text.lstrip()
        if last:
            text = text.rstrip()
        if text and text.isspace():
            rx = r"\s+"
        else:
            pieces = (p for p in regex.split(r"(\s+)", text) if p)
            rx = "".join(r"\s*" if p.isspace() else regex.escape(p, special_only=True) for p in pieces)
        if rx not in outs:
            outs.append(rx)
    if len(outs) == 1:
        return outs[0]
    return "(?:" + "|".join(outs) + ")"


# The keys a record's own clock is printed under, as seconds since 1970 (time.time()): Jayluci4/mamba-integer
# src/monitor.py DyadicMonitor.log_step writes {"step": ..., "loss": ..., "timestamp": time.time(), ...} a line of
# metrics.jsonl; TensorBoard's scalar events carry `wall_time`, wandb's history `_timestamp`, loops that print
# f"time={int(time.time())}" or {"ts": time.time()}. The value decides as much as the name: a time in seconds since
# 1970 is above 1e9 (2001) and below 2e9 (2033), milliseconds (JavaScript's Date.now(), Java's currentTimeMillis)
# a thousand times that; a step's duration under the same `time` key is far below either and stays a step time.
_UNIX_KEYS = frozenset(
    {
        "timestamp",
        "time_stamp",
        "unix_timestamp",
        "time",
        "ts",
        "wall_time",
        "walltime",
        "wallclock",
        "unix_time",
        "unixtime",
        "unix_ts",
        "epoch_time",
        "now",
        "created",
        "created_at",
        "logged_at",
    }
)


def _unix_seconds(slot: Slot, texts: Sequence[str]) -> float | None:
    """The scale to seconds (1 or 1e-3) of a value that is the time since 1970 under a clock's key (every value
    sampled in the range, none falling back), else None."""
    name = keymap_mod.normalize(slot.label).lstrip("_")
    name = regex.split(r"[/.]", name)[-1]
    if name not in _UNIX_KEYS or len(texts) < 2 or slot.unit:
        return None
    try:
        values = [float(t.replace(",", "")) for t in texts]
    except ValueError:
        return None
    for scale in (1.0, 1e-3):
        if all(1e9 <= v * scale < 2e9 for v in values):
            rising = sum(b >= a for a, b in zip(values, values[1:], strict=False))
            return scale if rising >= RISING * (len(values) - 1) else None
    return None


_STEP_RATE = regex.compile(r"(?i)\b(?:it|iters?|iterations?|steps?|batch(?:es)?)\b")


_BAR_RATE = regex.compile(r"(?:s/it|it/s)(?=\]|,)")


# a rate in epochs: `1.45epoch/s`, `3.2s/epoch`
_EPOCH_RATE = regex.compile(r"(?i)^(?:epochs?/s(?:ec)?|s(?:ec)?/epochs?)$")


def _counts_epochs(rec: RecordShape, km: keymap_mod.KeyMap) -> bool:
    """Whether a step record's counter counts epochs: named so, or unnamed with its total (`[5/30]`) on a line
    that also prints an evaluation's loss, made once an epoch (a forecasting notebook's print(f"[{epoch}/{epochs}]
    Training loss: {tl:.4f}\t Validation loss: {vl:.4f}")); a counter named otherwise (`step 500/5000`) counts
    steps whatever the line evaluates."""
    label = sh_label(rec, rec.counter)
    if _epoch_named(label):
        return True
    if any(s.rate and _EPOCH_RATE.search(s.label) for s in rec.slots):
        return True  # (a bar whose pace is epochs a second counts epochs: tqdm(range(n), unit="epoch"), PyKEEN's)
    # (or the word after its total names what it counts: umap-learn's "completed 50 / 500 epochs")
    if (
        rec.total is not None
        and not _on_bar(rec)
        and _epoch_named(_after_total(rec.shapes[0].literals, rec.total))
    ):
        return True
    if (
        label
        or rec.total is None
        or _on_bar(rec)
        or any(_STEP_RATE.search(s.label) for s in rec.slots if s.rate)
    ):
        return False  # (a bar's count, or a count whose pace is given in iterations, counts steps)
    for slot in rec.slots:
        if slot.kind != "num" or slot.role != "value" or not slot.label:
            continue
        m = field_plan(km, slot.label, slot.unit, [], False)
        if m is not None and not m.kept and m.column == "eval_loss":
            return True
    return False


def _line_table(
    rec: RecordShape, name: str, km: keymap_mod.KeyMap, block: Block | None = None
) -> tuple[Table, list[tuple[str, str, str]]]:
    """The [[line]] of a record: its regex (the shape's literal text, a group for each value read) and fields.
    `block`: the record printed over lines this line is one of (its keys, the columns its lines took so far)."""
    sh = rec.shapes[0]
    evaluation = rec.kind in ("eval", "eval_free")
    fields: dict[str, Table] = {}
    keys: list[tuple[str, str, str]] = []
    groups: dict[int, str] = {}
    taken: set[str] = set()
    taken_by: dict[str, tuple[int, str]] = {}  # a column -> the slot and key that took it
    if rec.kind == "marker" and not rec.leads:
        assert rec.counter is not None
        groups[rec.counter] = "epoch_index"
        fields["epoch_index"] = {"column": "epoch_index", "type": "int"}
        if rec.epoch_base:
            fields["epoch_index"]["offset"] = -rec.epoch_base
    if rec.kind == "marker":
        if rec.total is not None:  # `epoch 14/300`: the epochs the run plans
            groups[rec.total] = "epoch_total"
            fields["epoch_total"] = {"column": "epoch_total", "type": "int"}
            if rec.epoch_base == 0:
                # epochs counted from 0 beside their total: the total is the last epoch's number, as the loops
                # that print an epoch 0 with one do (pytorch/tutorials transfer_learning_tutorial.py and its many
                # copies: 'Epoch {}/{}'.format(epoch, num_epochs - 1); allennlp 0.x training/trainer.py:
                # logger.info("Epoch %d/%d", epoch, self._num_epochs - 1))
                fields["epoch_total"]["offset"] = 1
    stamp = next((s.index for s in rec.slots if s.kind == "ts"), None)
    if stamp is None and rec.kind != "marker":
        stamp = _day_clock(rec, km)
    if rec.kind == "block" and rec.head is not None and _trains(rec.head, km):
        stamp = None  # the record's head prints the step's training values: its stamp is the row's
    if stamp is not None and (
        stamp < (rec.counter or 0)
        or (sh.kinds.count(sh.kinds[stamp]) == 1 and not _projected(rec, km, stamp))
    ):
        rec.slots[stamp].role = "timestamp"
        groups[stamp] = "timestamp"
        fields["timestamp"] = {"column": "timestamp", "type": "timestamp"}
    for slot in rec.slots:
        if rec.kind == "marker":
            break
        if (
            slot.role == "step"
            and evaluation
            and (rec.own_count or (any(w in EVAL_WORDS for w in _words(slot.label)) and not rec.at_steps))
        ):
            continue  # the evaluation's own counter (`Val Step 1/157`), not the training step
        if slot.role == "step":
            groups[slot.index] = "step"
            fields["step"] = {"column": "step", "type": "int"}
            if rec.counter_scale != 1:
                fields["step"]["scale"] = rec.counter_scale
        elif (
            slot.role == "total"
            and evaluation
            and rec.own_count
            and slot.index > 0
            and _epoch_named(sh_label(rec, slot.index - 1))
        ):
            # an epoch's evaluation out of the epochs planned (`Epoch 1/500 -- train: ... val: ...`): they are the
            # run's epochs where no step line says so
            groups[slot.index] = "epoch_total"
            fields["epoch_total"] = {"column": "epoch_total", "type": "int"}
        elif slot.role == "total" and not evaluation:
            groups[slot.index] = "progress_total"
            fields["progress_total"] = {"column": "progress_total", "type": "int"}
            if _counts_epochs(rec, km):
                # an epoch counted as the step (`Training Epoch:[137/1500]`): its total is also the epochs planned
                fields["epoch_total"] = {"column": "epoch_total", "type": "int"}
        elif slot.role == "epoch_total" and not evaluation:
            groups[slot.index] = "epoch_total"
            fields["epoch_total"] = {"column": "epoch_total", "type": "int"}
        elif slot.role == "epoch_fraction" and not evaluation:
            groups[slot.index] = "epoch"
            fields["epoch"] = {"column": "epoch", "type": "float"}
        elif slot.role == "epoch" and not evaluation:
            groups[slot.index] = "epoch_index"
            fields["epoch_index"] = {"column": "epoch_index", "type": "int"}
            if rec.epoch_base:  # the column counts epochs from 0
                fields["epoch_index"]["offset"] = -rec.epoch_base
    bar = next((s.index for s in rec.slots if s.kind == "bar"), None)
    counted = _tqdm_count(sh)  # the number a tqdm bar counts, when the record holds a bar
    summed = (
        _summed_total(rec, km)
        if (rec.kind == "step" and block is None)
        # (or a line of a step's block, where no line of the block names a loss: neural-enhance's `Epoch #N at
        # ..., lr=...` then `  - generator total=... prcpt=... smthn=...`)
        or (block is not None and not evaluation and not any(_loss_word(k) for k in block.keys))
        else None
    )
    redrawn = rec.kind == "step" and _counted_before_bar(rec, counted)
    if rec.kind == "step":
        _name_keyless_time(rec)
    # the record's keys together (a block's: those of all its lines)
    line = block.keys if block is not None else [s.label for s in rec.slots if s.role == "value" and s.label]
    if block is not None and block.step_time is not None and not evaluation:
        # (the block's step time is on one of its lines, found over them all: every other time of its lines is a part)
        longest = block.step_time[1] if block.step_time[0] == id(rec) else -1
    else:
        longest = _longest_time(rec, km, line) if not evaluation and rec.kind != "marker" else None
    latest = _latest_beside_average(rec, km) if rec.kind == "step" else None
    total = _bare_total(rec, km, line) if rec.kind == "step" and latest is None else None

    def read_as(slot: Slot, spec: Table, key: str, why: str) -> None:
        """The slot's value read as `spec` says, its column taken, and said in the generic notes under `key`."""
        group = f"v{slot.index}"
        groups[slot.index] = group
        fields[group] = spec
        taken.add(spec["column"])
        keys.append(("mapped", key, keymap_mod.KeyUse(spec["column"], "values", why, None)))

    # (the numbers with no key of a bare record, read once: the loss and the lr among them)
    unkeyed = _bare_values(rec) if rec.kind == "step" else {}
    bare = "loss" in unkeyed.values()
    again = _group_again(rec) if rec.kind == "step" else set()
    elapsed = counted + 2 if counted is not None and rec.kind == "step" and not evaluation else None
    if (
        elapsed is not None
        and elapsed < len(rec.slots)
        and rec.slots[elapsed].kind == "clock"
        and rec.slots[elapsed].role == "value"
        and sh.literals[elapsed].strip() == "["
        and "train_elapsed_s" not in taken
    ):
        # tqdm's `n/N [elapsed<remaining, rate]`: the bar's own clock, the time since it started
        why = "the clock a progress bar draws after its position: the time since the bar started"
        read_as(
            rec.slots[elapsed], {"column": "train_elapsed_s", "type": "duration"}, f"value {elapsed + 1}", why
        )
    for slot in rec.slots if rec.kind != "marker" else ():
        if bare and "train_elapsed_s" not in taken and _unkeyed_elapsed(rec, slot):
            # (beside a bare loop's lone value a rising duration is the one clock such a loop prints: its start)
            why = "a duration with no key that rises line after line: the time since training began"
            read_as(slot, {"column": "train_elapsed_s", "type": "duration"}, f"value {slot.index + 1}", why)
            continue
        if slot.kind == "clock" and slot.role == "value" and slot.label and not evaluation:
            epoch_long = _epochs_counted(rec) and _EPOCH_WORD.search(slot.label) is not None
            stepped = "step_time_s" not in taken and _step_duration(rec, km, slot, line)
            if epoch_long and stepped:
                why = f"an epoch's duration where the steps are epochs: the step's own time ({slot.label!r})"
                read_as(slot, {"column": "step_time_s", "type": "duration"}, slot.label, why)
            elif "train_elapsed_s" not in taken and _elapsed_clock(rec, km, slot, line):
                # a duration that rises line after line under a time's key: the clock since training began
                why = f"a duration that rises line after line: the time since training began ({slot.label!r})"
                read_as(slot, {"column": "train_elapsed_s", "type": "duration"}, slot.label, why)
            elif stepped:
                why = f"a duration under a step time's key that goes up and down: the step's own time ({slot.label!r})"
                read_as(slot, {"column": "step_time_s", "type": "duration"}, slot.label, why)
            else:  # (said, not dropped: detectron2's `eta: 0:43:51`, the time left)
                why = (
                    km.skipped(slot.label)
                    or "a duration neither the step's time nor the time since training began"
                )
                keys.append(("skipped", slot.label, keymap_mod.skipped_use(why)))
            continue
        if slot.role == "skip" and slot.header and slot.label:
            why = "a printed list of numbers in the column's cell: which item, or their sum, is its value is not known"
            keys.append(("skipped", slot.label, keymap_mod.skipped_use(why)))
            continue
        if not slot.label and "train_elapsed_s" not in taken and not evaluation and _counter_clock(rec, slot):
            why = "a number with no key in the counter's brackets that grows with the steps: the time since training began"
            read_as(slot, {"column": "train_elapsed_s"}, f"value {slot.index + 1}", why)
            continue
        if slot.role == "several" and slot.label and slot.kind == "num":
            why = "printed on several lines of each step (one per optimizer): which line's is the step's is not known"
            keys.append(("skipped", slot.label, keymap_mod.skipped_use(why)))
            continue
        if slot.role == "count" and slot.label and not evaluation:
            # a count on a line that continues the step (the samples of the epoch seen so far): the step's value
            column = keymap_mod.column_name("x_", slot.label, slot.unit)
            if column not in taken and (block is None or column not in block.taken):
                why = f"a count that moves with the step on a line continuing it ({slot.label!r}): kept as printed"
                groups[slot.index] = f"v{slot.index}"
                fields[f"v{slot.index}"] = {"column": column}
                taken.add(column)
                keys.append(("kept", slot.label, keymap_mod.KeyUse(column, "kept", why, slot.unit)))
            continue
        if slot.role != "value" or slot.kind != "num" or not slot.label:
            continue
        if counted is not None and slot.index < counted and sh.literals[slot.index + 1].startswith("%"):
            # (the bar's description keys its percentage, `SFT:   3%|`: no value of the step's)
            why = "the progress bar's percentage done: its position and total say it"
            keys.append(("skipped", slot.label, keymap_mod.skipped_use(why)))
            continue
        if (
            _average(sh, slot)
            and not slot.bracketed
            # (after the counter or its total, one record a step, no average: `Epoch 1/100 [138.0s]`, the epoch's own
            # time; where records are steps apart, TF's `loss = 0.52, step = 100 (162.563 sec)`, it may cover them)
            and not (
                rec.slots[slot.index - 1].role in ("step", "total", "epoch", "epoch_total")
                and _every_step(rec)
            )
        ):
            continue
        if counted is not None and slot.index > counted and _bar_rate(rec, slot):
            if evaluation or rec.beside:
                continue
            if counted != rec.counter and not rec.paced and not _bar_counts_steps(rec, counted):
                # the bar counts something else (an RL collector's env steps)
                group = f"v{slot.index}"
                groups[slot.index] = group
                fields[group] = {"column": keymap_mod.column_name("x_", slot.label)}
                keys.append(("kept", slot.label, fields[group]["column"]))
                continue
            # tqdm's rate is an exponential moving average (smoothing 0.3 by default: tqdm/std.py), as the
            # generic set's tqdm line reads it
            group = f"v{slot.index}"
            groups[slot.index] = group
            fields[group] = {"column": "step_time_s", "smoothing": "ema", "alpha": 0.3}
            if slot.label.endswith("/s"):
                fields[group]["invert"] = True
            taken.add("step_time_s")
            continue
        texts = [v for _, v in rec.series(slot.index)]
        if rec.kind == "step" and "progress_total" not in taken and _share_key(slot):
            planned = _share_of_plan(rec, slot)
            if planned is not None:
                # the plan the share implies on every line sampled (count / planned * 100), as the line's total
                groups[slot.index] = f"v{slot.index}"
                fields[f"v{slot.index}"] = {
                    "column": "progress_total",
                    "type": "int",
                    "scale": 0.0,
                    "offset": planned,
                }
                taken.add("progress_total")
                why = f"the share of the run done ({slot.label!r}) of the counter: {planned} steps planned"
                keys.append(("mapped", slot.label, keymap_mod.KeyUse("progress_total", "values", why)))
                continue
        if keymap_mod.normalize(slot.label) in RANK_KEYS and _is_int(texts) and not evaluation:
            # the process a line says it comes from (`rank 1: step 10/80 | ...`, no launcher prefix): the row's
            # rank, as a launcher's prefix gives it
            groups[slot.index] = "rank"
            fields["rank"] = {"column": "rank", "type": "int"}
            continue
        unix = (
            None
            if evaluation or "timestamp" in fields or "timestamp" in taken
            else _unix_seconds(slot, texts)
        )
        if unix is not None:
            why = f"a clock's key ({slot.label!r}) whose value is seconds since 1970 rising with the steps: the row's time"
            spec: Table = {"column": "timestamp"} if unix == 1.0 else {"column": "timestamp", "scale": unix}
            read_as(slot, spec, slot.label, why)
            continue
        if _addend(sh, rec, slot):
            # (the second of two numbers added in the text, `64.9+3.4s`, EDSR's model and data seconds of an
            # interval: a part of a sum, no value of its own to read)
            why = "a number added to the one before it in the text: a part of a sum"
            keys.append(("skipped", slot.label or f"value {slot.index + 1}", keymap_mod.skipped_use(why)))
            continue
        key = slot.label
        m = field_plan(km, key, slot.unit, texts, evaluation or slot.index in again, line)
        if m is not None and m.kept and block is not None and rec.kind == "step" and _undecided_loss(m):
            # of losses over a block's lines and no total, the one its head line prints is the step's (Paddle's
            # benchmark `Iter[100]; Avg loss: 1.339` over its `kpis\ttrain_cost\t1.339496` copy for a monitor)
            own = [s.label for s in rec.slots if s.role == "value" and s.label]
            alone = field_plan(km, key, slot.unit, texts, evaluation or slot.index in again, own)
            if alone is not None and not alone.kept and alone.column == "loss":
                m = replace(alone, reason=f"{alone.reason}, the loss of the block's first line")
        if m is not None and m.kept and evaluation:
            m = _evaluation_loss_said_when(km, key, slot, texts) or m
        if (m is None or m.kept) and not evaluation and _epochs_counted(rec):
            # (`epoch time 12m 44s` read by no name of its own: the step's time where the steps are epochs)
            m = _epoch_time(km, key, slot, texts, line) or m
        if m is not None and slot.per > 1 and not m.kept:
            m = replace(m, scale=m.scale / slot.per, reason=f"{m.reason}, over {slot.per} steps")
        over = slot.per_of if m is not None and not m.kept else None
        if m is not None and over is not None:
            m = replace(m, reason=f"{m.reason}, over the steps its line counts (value {over + 1})")
        if m is not None and not m.kept and keymap_mod.normalize(key) in km.interval:
            m = _over_interval(rec, m, key, slot.unit)
        outer = _outer_key(sh, slot.index)
        if m is not None and m.kept and outer is not None:
            # `grad_norm={'0_default': 66.5}`: the only number of a dict is its key's value
            known = field_plan(km, outer, slot.unit, texts, evaluation, line)
            if known is not None and not known.kept:
                m = replace(known, reason=f"the only value of the dict of {outer!r}")
        if latest is not None and slot.index == latest[1] and m is not None and not m.kept:
            column = keymap_mod.column_name("x_", key, slot.unit)
            why = f"the running average of the loss ({key!r}) beside the step's own value: kept as printed"
            m = FieldPlan(
                column, kept=True, reason=why, use=keymap_mod.KeyUse(column, "kept", why, slot.unit)
            )
        elif latest is not None and slot.index == latest[0]:
            why = f"the value beside the loss's running average ({rec.slots[latest[1]].label!r}): the step's own loss"
            m = FieldPlan("loss", reason=why, use=keymap_mod.KeyUse("loss", "loss", why, None))
        if slot.index == total and slot.index != summed and m is not None and m.kept:
            # (a total that is the plain sum of its terms is said so by the summed rule below)
            why = f"a bare total ({key!r}) above each named term of its line: the loss rule's total"
            m = FieldPlan("loss", reason=why, use=keymap_mod.KeyUse("loss", "loss", why, None))
        if m is not None and m.kept and rec.kind == "step" and not slot.unit:
            m = _by_values(m, key, texts, _counts(rec)) or m
        if m is not None and m.kept and rec.kind == "step":
            m = _tokens_so_far(key, slot.unit, texts, _counts(rec)) or m
        if m is not None and m.kept and rec.kind == "step":
            why = _named_alone_loss(rec, slot, km)
            if why is not None:
                m = FieldPlan("loss", reason=why, use=keymap_mod.KeyUse("loss", "values", why, None))
        if slot.index == summed and m is not None and m.kept:
            parts = ", ".join(
                repr(rec.slots[i].label) for i in _parts_of(rec, slot.index) or _parts_after(rec, slot.index)
            )
            why = f"the record's total ({key!r}), the sum of {parts} in every line sampled: the loss rule's total"
            m = FieldPlan("loss", reason=why, use=keymap_mod.KeyUse("loss", "loss", why, None))
        if m is not None and m.kept and not evaluation and not slot.unit and _bare_rate(key, texts):
            why = f"a rate with no noun above 1 on every line: samples per second ({key!r})"
            use = keymap_mod.KeyUse("samples_per_s", "values", why)
            m = FieldPlan("samples_per_s", scope="global", reason=why, use=use)
        if m is None:
            # (a value the table says is no step's: said in the generic notes, not dropped unseen)
            why = km.skip.get(keymap_mod.normalize(key)) if key and not evaluation else None
            if why is not None:
                keys.append(("skipped", key, keymap_mod.skipped_use(why)))
            continue
        if m.column == "step_time_s" and not evaluation and not _epochs_counted(rec):
            # (where the steps are epochs, an hour's epoch is as common as a second's step: seconds stay seconds)
            m = _milliseconds_unsaid(m, key, texts)
        if not evaluation and m.scope == "global" and _per_process(rec, slot.index):
            why = f"{m.reason}; printed by each of several processes for one step, each its own"
            m = replace(m, scope="per_gpu", reason=why)
        if m.kept and not evaluation and slot.unit in _TIME_UNITS and "train_elapsed_s" not in taken:
            m = _kept_clock(km, m, slot, texts, _counts(rec))
        if m.kept and rec.kind == "step" and slot.unit in _TIME_UNITS and "step_time_s" not in taken:
            m = _took(rec, km, m, slot, texts)
            if m.kept and not _step_times(rec, km, line)[0]:
                m = _time_worded(km, m, slot, texts)
        if not evaluation:
            # (a record's only time: of several, the longest is the step's and the others its parts)
            m = _timed(km, m, slot, texts, _counts(rec) if longest is None else ())
            if slot.per == 1 and over is None and (stamp is None or groups.get(stamp) != "timestamp"):
                m = _since_last_record(rec, km, m, slot, texts)
            if _full(m) == "step_time_s" and m.invert and longest is not None and slot.index != longest:
                many = _counted_per_step(rec, slot.index, longest)
                if many is not None:
                    why = (
                        f"a rate ({key!r}) that, times the step's time, makes {many:,.0f} a step, not one: what it "
                        "counts a second are samples (a reinforcement-learning runner's environment steps)"
                    )
                    use = keymap_mod.KeyUse("samples_per_s", "values", why)
                    m = FieldPlan("samples_per_s", scope="global", reason=why, use=use)
            if _full(m) == "step_time_s" and longest is not None and slot.index != longest:
                if _bare_time(slot):
                    continue  # a time with no key beside the step's: not known what it is
                m = _part_of_step(slot, _clock(texts) is True)
            if _full(m) == "step_time_s" and not m.kept and not m.invert and slot.per == 1 and over is None:
                if stamp is not None and groups.get(stamp) == "timestamp":
                    # (seconds that match the gaps between the stamps are the interval's, before any reading of
                    # them as milliseconds of a step: MMSR's `time:84.443` every 100 iterations, 84.4 s apart)
                    timed = _stamped_interval(rec, m, slot, stamp, km)
                    if timed is m:
                        timed = _stamped_interval(
                            rec, _stamped_milliseconds(rec, m, slot, stamp), slot, stamp, km
                        )
                    m = timed
                else:
                    m = _rated_interval(rec, m, slot, km, line)
            if m.kept and stamp is not None and groups.get(stamp) == "timestamp" and longest is None:
                m = _stamped_time(rec, km, m, slot, stamp)
        full = _full(m)
        if evaluation and full != "eval_loss":
            continue  # an evaluation's other values are not the step's
        if full in taken:
            earlier = taken_by.get(full)
            if earlier is None or m.kept or not _finer_copy(rec, earlier[0], slot.index):
                if earlier is not None:
                    why = f"{full} is read from {earlier[1]!r}, printed before it on the line"
                    keys.append(("skipped", key, keymap_mod.skipped_use(why)))
                continue
            # the same value printed again with more digits (`training loss=0.40` then `"train_loss":0.4045...`):
            # the column takes the finer copy, the coarser is kept as printed
            e_index, e_key = earlier
            e_column = keymap_mod.column_name("x_", e_key, rec.slots[e_index].unit)
            fields[groups[e_index]] = {"column": e_column}
            why = f"the value of {key!r} printed with fewer digits: kept as printed"
            keys[:] = [k for k in keys if k[1] != e_key]
            keys.append(("kept", e_key, keymap_mod.KeyUse(e_column, "kept", why, rec.slots[e_index].unit)))
            taken.discard(full)
        if m.kept and block is not None and "loss" in block.taken and _undecided_loss(m):
            assert m.use is not None
            why = f"another loss beside the one the record's first line prints ({key!r})"
            m = replace(m, reason=why, use=keymap_mod.KeyUse(m.column, m.use.rule, why, m.use.unit))
        if block is not None and full in block.taken:
            # another line of the record took the column: this one's number is kept under its own key
            column = keymap_mod.column_name("x_", key, slot.unit)
            why = f"{full} was taken by another line of the record ({key!r})"
            m = FieldPlan(
                column, kept=True, reason=why, use=keymap_mod.KeyUse(column, "kept", why, slot.unit)
            )
            full = column
        taken.add(full)
        if block is not None:
            block.taken.add(full)
        group = f"v{slot.index}"
        groups[slot.index] = group
        spec: Table = {"column": m.column}
        if m.scope is not None:
            spec["scope"] = m.scope
        if m.type != "float":
            spec["type"] = m.type
        if m.scale != 1.0:
            spec["scale"] = m.scale
        if m.invert:
            spec["invert"] = True
        if rec.redrawn or redrawn:
            spec["aggregate"] = "last"
        if over is not None and over not in groups:
            groups[over] = spec["per"] = f"_n{over}"
        fields[group] = spec
        use = m.use
        if use is None or str(use) != full:  # an evaluation's loss, a throughput's scope: the field's column
            use = keymap_mod.KeyUse(
                full, use.rule if use else "name", m.reason, use.unit if use else slot.unit
            )
        keys.append(("kept" if m.kept else "mapped", key, use))
        taken_by[full] = (slot.index, key)
    item = _listed_lr(rec) if rec.kind == "step" and "lr" not in taken else None
    if item is not None:
        groups[item] = f"v{item}"
        fields[f"v{item}"] = {"column": "lr"}
        why = "the one item of the printed list that holds steady below 1, as a learning rate's schedule does"
        key = f"list item {item - _list_start(rec) + 1}"
        keys.append(("mapped", key, keymap_mod.KeyUse("lr", "values", why)))
    if latest is not None and not rec.slots[latest[0]].label and "loss" not in taken:
        groups[latest[0]] = f"v{latest[0]}"
        fields[f"v{latest[0]}"] = {"column": "loss"}
        taken.add("loss")
        why = (
            f"the number with no key before the loss's running average ({rec.slots[latest[1]].label!r}): the step's "
            "own loss"
        )
        keys.append(("mapped", f"value {latest[0] + 1}", keymap_mod.KeyUse("loss", "values", why)))
    lone = next((i for i, c in unkeyed.items() if c == "loss"), None) if "loss" not in taken else None
    if lone is not None:
        groups[lone] = f"v{lone}"
        fields[f"v{lone}"] = {"column": "loss"}
        why = (
            "the one number with no key of a record that prints only a rising counter beside it: the loss, the one "
            "value a bare training loop prints"
            if sum(s.role == "value" and s.kind == "num" for s in rec.slots) == 1
            else "the number with no key whose exponential is printed beside it (its perplexity), or the one left "
            "when the learning rate is told apart: the loss of a bare training loop"
        )
        keys.append(("mapped", f"value {lone + 1}", keymap_mod.KeyUse("loss", "values", why)))
        for index, column in unkeyed.items():
            if column == "lr" and "lr" not in taken:
                groups[index] = f"v{index}"
                fields[f"v{index}"] = {"column": "lr"}
                taken.add("lr")
                why = (
                    "the number with no key that holds steady at or below 0.01, each print within a quarter of the "
                    "last and all in one direction, as a learning rate's schedule does (a loss jumps about); or, "
                    "where none does, the one always at or below 0.01 beside others above it"
                )
                keys.append(("mapped", f"value {index + 1}", keymap_mod.KeyUse("lr", "values", why)))
        for slot in rec.slots:
            planned = _share_of_plan(rec, slot) if "progress_total" not in taken else None
            if planned is not None:
                # the plan the share implies on every line sampled (count / planned * 100), as the line's total
                groups[slot.index] = "progress_total"
                fields["progress_total"] = {
                    "column": "progress_total",
                    "type": "int",
                    "scale": 0.0,
                    "offset": planned,
                }
                taken.add("progress_total")
                why = f"the counter's share of the planned steps, {planned} on every line sampled"
                keys.append(
                    ("mapped", f"value {slot.index + 1}", keymap_mod.KeyUse("progress_total", "values", why))
                )
    # (a record also printed after a bar's frame on the same line: the frame may come first)
    parts = [LINE_START + (_BEHIND_FRAME_RX if any(s.behind_bar for s in rec.shapes) else "")]
    n = len(sh.kinds)
    mixed = _mixed_time_units(rec) if len(rec.shapes) > 1 else {}
    for i in range(n + 1):
        variants = sorted({lit for s in rec.shapes for lit in (s.variants[i] if i < len(s.variants) else [])})
        if i - 1 in mixed and groups.get(i - 1) is not None:
            # the unit is read with its value (below): the text after it is what follows the unit
            cut = regex.compile("^(?:" + _unit_alternatives(mixed[i - 1]) + ")")
            variants = sorted({cut.sub("", v, count=1) for v in variants})
        rate = _BAR_RATE.match(variants[0]) if i and len(variants) == 1 and groups.get(i - 1) else None
        postfix = rate is not None and variants[0][rate.end() :].startswith(",")
        if (
            rate is not None
            and _tqdm_count(sh) is not None
            and (postfix or any(shape.glued for shape in rec.shapes))
        ):
            # a bar's rate, drawn `?it/s` before the bar has timed a step (tqdm/std.py format_meter): the frame a
            # loop's print is glued to, or whose postfix a loop set before the first step counted, is the same
            # record's, its rate not known yet (the bar's own opening draw, `0/375 [00:00<?, ?it/s]` with no
            # postfix, is no step)
            parts[-1] = f"(?:{parts[-1]}{regex.escape(rate.group())}|\\?it/s)"
            variants = [variants[0][rate.end() :]]
        parts.append(_literal_rx(variants, i == 0, i == n))
        if i < n:
            kind = sh.kinds[i]
            group = groups.get(i)
            if group is not None and i in mixed and group in fields:
                parts.append(f"(?P<{group}>(?:{NUMBER_GROUP})(?:{_unit_alternatives(mixed[i])}))")
                _read_in_its_unit(fields[group], mixed[i][0])
            elif group is None:
                parts.append(PIECE_RX[kind])
            elif group == "step" and rec.whole:
                parts.append(f"(?P<step>{NUMBER_GROUP})")
            elif (
                group == "progress_total" and "epoch_total" in fields and "epoch_total" not in groups.values()
            ):
                # the same number read twice: the steps planned and the epochs planned
                parts.append(f"(?=(?P<epoch_total>{COUNTER_GROUP}))(?P<progress_total>{COUNTER_GROUP})")
            elif group in ("step", "progress_total", "epoch_index", "epoch_total"):
                parts.append(f"(?P<{group}>{COUNTER_GROUP})")
            elif group == "timestamp":
                stamp_rx = PIECE_RX[kind] if kind == "clock" else TS_RX
                parts.append(f"(?P<timestamp>{stamp_rx})")
            elif kind == "clock":
                parts.append(f"(?P<{group}>{PIECE_RX[kind]})")
            else:
                parts.append(f"(?P<{group}>{NUMBER_GROUP})")
    # (a line whose bar frame some print is glued to ends where the frame does)
    parts.append("" if any(sh.glued for sh in rec.shapes) else r"\s*$")
    line: Table = {"name": name, "kind": "step" if rec.kind in ("step", "block", "marker") else "event"}
    if rec.kind == "marker":
        line["attach"] = "following"
    if rec.kind in ("eval", "eval_free"):
        line["event"] = "eval"
    if rec.kind == "step":
        # (a record printed once an epoch, the epoch its only counter: its total is the epochs planned, not the
        # steps, frame/assemble.py _steps_planned)
        line["step"] = "epoch" if _counts_epochs(rec, km) else "optimizer"
        on_bar = bar is not None and rec.counter == bar + 1
        line["note"] = BAR_NOTE if on_bar else NOTE
        if redrawn:
            line["note"] += REDRAWN_NOTE
        if on_bar:
            line["name"] = "tqdm" + name[len("step") :]
            # values drawn on the bar (a postfix, a description) are redrawn apart from its position: each step's
            # values are those of the redraw drawn with it (steps/bars.postfix_steps); a redraw with no postfix yet
            # (tqdm's draws before the first set_postfix) is one of the same bar's
            line["postfix"] = True
    if rec.kind == "block":
        line["attach"] = rec.attach
    if rec.kind == "step" and rec.counts_from is not None:
        line["counts_from"] = rec.counts_from
    if rec.kind == "step" and rec.total is not None and _global_named(sh_label(rec, rec.counter)):
        line["whole_run"] = True
    elif rec.kind == "step" and rec.total is not None and _batch_named(sh_label(rec, rec.counter)):
        line["within_epoch"] = True
    line["regex"] = "".join(parts)
    line["fields"] = fields
    return line, keys


# the words of a key that say its value is a running average (`517.63 avg`, `average loss`, `avg loss`)
_AVERAGE_WORDS = frozenset({"avg", "average", "mean", "running", "smoothed", "avr"})
_MADE_WORDS = frozenset({"initial", "final", "starting"})  # (an evaluation before training, after it)
# (not an average's word: `iter_time_avg`, ignite's Timer(average=True), is the mean since the epoch began)
_WINDOW_WORDS = frozenset({"window", "interval"})


def _latest_beside_average(rec: RecordShape, km: keymap_mod.KeyMap) -> tuple[int, int] | None:
    """(latest, average): a step record that prints the loss's running average under an average's key, of the loss
    or of nothing else, next to a value with no key: that value is the step's own loss, the average a smoothing
    of it (pjreddie/darknet examples/detector.c train_detector: printf("%ld: %f, %f avg, %f rate, %lf seconds, %d
    images\n", ..., loss, avg_loss, ...), the same in examples/classifier.c train_classifier and examples/rnn.c;
    AlexeyAB/darknet src/detector.c: "%d: %f, %f avg loss, %f rate, ..."). A value whose key says only that it is
    the latest (`since last`, `current`) names no loss: the average is the loss then (Vowpal Wabbit's progress
    table prints `average loss`, the progressive mean its summary reports, beside `since last`, the mean since the
    row before: vowpalwabbit/core/src/shared_data.cc print_update). Only fractions on every line sampled, and only
    one such pair."""
    found = []
    for a, b in zip(rec.slots, rec.slots[1:], strict=False):
        for avg, own in ((b, a), (a, b)):
            if avg.role != "value" or own.role != "value" or avg.kind != "num" or own.kind != "num":
                continue
            words = set(_words(avg.label))
            if not words & _AVERAGE_WORDS or not words <= _AVERAGE_WORDS | km.loss.words:
                continue
            if own.unit or avg.unit or own.rate or avg.rate or own.label:
                continue
            if own is b:
                continue  # (a number with no key names nothing after the average: only the one before it)
            texts = [v for i in (own.index, avg.index) for _, v in rec.series(i)]
            if texts and all(_LONE_FRACTION.fullmatch(v) for v in texts):
                found.append((own.index, avg.index))
    return found[0] if len(found) == 1 else None


def _bare_total(rec: RecordShape, km: keymap_mod.KeyMap, line: Sequence[str]) -> int | None:
    """A value keyed by a total's word alone (`total=2.546`) beside two named terms or more that the key model does
    not know (none of them a loss it knows), and at least as large as each of them on every line sampled, as a sum of the terms a trainer
    minimizes is: the loss rule's total (leela-zero training/tf/tfprocess.py: "step {}, policy={:g} mse={:g}
    reg={:g} total={:g} ({:g} pos/s)", total = policy + 4 * mse + reg; LeelaChessZero lczero-training
    tf/tfprocess.py prints the same `total=` after its policy, mse and reg terms). A total with a unit (a time) or a
    whole number (a count) is none."""
    totals = [
        s
        for s in rec.slots
        if s.role == "value"
        and s.kind == "num"
        and not s.unit
        and not s.rate
        and keymap_mod.normalize(s.label) in km.loss.total
    ]
    if len(totals) != 1:
        return None
    total = totals[0]
    terms = [
        s
        for s in rec.slots
        if s is not total and s.role == "value" and s.kind == "num" and s.label and not s.unit and not s.rate
    ]
    unknown = []
    for s in terms:
        m = field_plan(km, s.label, s.unit, [v for _, v in rec.series(s.index)], False, line)
        if m is not None and m.column == "loss":
            return None
        if m is None or m.kept:
            unknown.append(s)  # (a known quantity, a time or the lr, is no term of a loss)
    terms = unknown
    sums = [v for _, v in rec.series(total.index)]
    if len(terms) < 2 or not sums or not all(_LONE_FRACTION.fullmatch(v) for v in sums):
        return None
    parts = [s for s in terms if all(_LONE_FRACTION.fullmatch(v) for _, v in rec.series(s.index))]
    if len(parts) < 2:
        return None
    rows = zip(*([_number(v) for _, v in rec.series(s.index)] for s in (total, *parts)), strict=False)
    for row in rows:
        if any(v is None or not math.isfinite(v) or v < 0 for v in row) or any(v > row[0] for v in row[1:]):
            return None
    return total.index


# the nouns of a cumulative count of samples printed beside the step (`4800 images`, `samples: 12800`)
_SAMPLE_WORDS = frozenset({"images", "imgs", "samples", "examples", "sequences", "seqs", "seen", "total"})


# the nouns of a count of tokens printed beside the step (`Tokens: 2.05K`)
_TOKEN_WORDS = frozenset({"tokens", "token", "toks", "tok"})


def _tokens_so_far(
    key: str, unit: str | None, texts: Sequence[str], steps: Sequence[str]
) -> FieldPlan | None:
    """A count of tokens alone (`Tokens`) whose values are the step counter times one number, to the precision
    printed: the tokens consumed so far, a step's tokens each step since the first (huggingface/picotron train.py
    prints f"Tokens: {to_readable_format(trained_tokens)}" beside the step, 3 significant digits and a letter). A
    count that stays (a step's tokens) or does not follow the counter is none."""
    if not set(_words(key)) or not set(_words(key)) <= _TOKEN_WORDS or not _is_int(steps):
        return None
    if unit is not None and unit.lower() not in keymap_mod.COUNT:
        return None
    factor = keymap_mod.COUNT[unit.lower()] if unit else 1.0
    counts, values = _ints(steps), [_number(t) for t in texts]
    if len(values) < MIN_REPEATS or len(counts) != len(values) or any(v is None or v <= 0 for v in values):
        return None
    if any(b <= a for a, b in zip(counts, counts[1:], strict=False)) or counts[0] <= 0:
        return None
    per = values[-1] * factor / counts[-1]  # type: ignore[operator]
    for text, v, c in zip(texts, values, counts, strict=True):
        digits = text.split(".")[1] if "." in text else ""
        ulp = 10.0 ** -len(regex.sub(r"\D.*", "", digits)) * factor  # (the printed value's last place)
        if abs(v * factor - per * c) > ulp + 0.001 * per * c:  # type: ignore[operator]
            return None
    why = f"a count of tokens ({key!r}) that is the step counter times {per:,.0f}: the tokens consumed so far"
    use = keymap_mod.KeyUse("consumed_tokens", "values", why, unit)
    return FieldPlan("consumed_tokens", scale=factor, reason=why, use=use)


def _by_values(m: FieldPlan, key: str, texts: Sequence[str], steps: Sequence[str]) -> FieldPlan | None:
    """What a key the key model does not know is, from its values on a training step's line:
    - `rate` alone, its values fractions in [0, 1] that move one way or turn once (a schedule's warm-up then decay):
      the learning rate (darknet's `0.001000 rate`: get_current_rate(net), pjreddie/darknet examples/detector.c);
      above 1 it is a rate of samples (_bare_rate);
    - a count of samples (`images`, `samples`, `examples`, `seen`) that rises by the same number each step: the
      samples consumed so far (darknet's `%d images` of *net->seen, which grows by the batch each iteration;
      torchvision-style loops' `samples seen`). A count that stays (the batch) or jumps about is none."""
    name = keymap_mod.normalize(key)
    words = set(_words(key))
    if name == "rate":
        values = [_number(t) for t in texts]
        if len(values) < MIN_REPEATS or not all(_LONE_FRACTION.fullmatch(t) for t in texts):
            return None
        if any(v is None or not 0 <= v <= 1 for v in values):
            return None
        moves = [b - a for a, b in zip(values, values[1:], strict=False) if b != a]  # type: ignore[operator]
        turns = sum((x > 0) != (y > 0) for x, y in zip(moves, moves[1:], strict=False))
        if turns > 1:
            return None
        why = f"{key!r} alone, fractions in [0, 1] that move as a schedule does on a training step: the learning rate"
        return FieldPlan("lr", reason=why, use=keymap_mod.KeyUse("lr", "values", why))
    if (
        words
        and words <= _SAMPLE_WORDS
        and words != {"total"}
        and _is_int(texts)
        and len(steps) == len(texts)
    ):
        values, counts = _ints(texts), _ints(steps) if _is_int(steps) else []
        if len(values) < MIN_REPEATS or len(counts) != len(values):
            return None
        per = set()
        for (v0, v1), (c0, c1) in zip(
            zip(values, values[1:], strict=False), zip(counts, counts[1:], strict=False), strict=False
        ):
            if c1 <= c0 or v1 <= v0 or (v1 - v0) % (c1 - c0):
                return None
            per.add((v1 - v0) // (c1 - c0))
        if len(per) != 1:
            return None
        why = f"a count of samples ({key!r}) that rises by {per.pop()} each step: the samples consumed so far"
        return FieldPlan(
            "consumed_samples",
            type="int",
            reason=why,
            use=keymap_mod.KeyUse("consumed_samples", "values", why),
        )
    return None


def _projected(rec: RecordShape, km: keymap_mod.KeyMap, index: int) -> bool:
    """A date printed after the record's counter under a key the key model skips: a projected end, no clock of the
    line (jiwoon-ahn/irn step/train_cam.py: 'etc:%s' % timer.str_estimated_complete(), misc/pyutils.py:
    time.ctime(self.est_finish), the start plus the elapsed time over the share done)."""
    slot = rec.slots[index]
    return slot.kind == "ts" and bool(slot.label) and km.ignored(slot.label)


# what a progress bar draws of itself: its position, its total and its rate
BAR_OWN = frozenset(("step", "progress_total", "step_time_s", "epoch_index"))


def _group_again(rec: RecordShape) -> set[int]:
    """The slots of a step line's keys printed a second time in the same order, two keys or more, after the
    first group: another pass's values, the evaluation's (CenterNet's main.py writes 'epoch: {} |', then
    '{} {:8f} | ' for each of the training's log items and, at a validation epoch, for each of the validation's:
    `loss 0.915650 | hm_loss ... | time 33.98 | loss 0.878701 | hm_loss ... | time 19.50 |`)."""
    labelled = [s for s in rec.slots if s.role == "value" and s.kind == "num" and s.label]
    names = [keymap_mod.normalize(s.label) for s in labelled]
    for j in range(2, len(names) // 2 + 1):
        if names[j : 2 * j] == names[:j] and names[0] not in names[1:j]:
            # (nothing but separators before the second group: a name there says what it is, icefall's
            # `loss[...], tot_loss[...]` the epoch's running average)
            between = rec.shapes[0].literals[labelled[j].index].replace(labelled[j].label, "")
            return set() if regex.search(r"[A-Za-z]", between) else {s.index for s in labelled[j : 2 * j]}
    return set()


def _finer_copy(rec: RecordShape, coarse: int, fine: int) -> bool:
    """Whether value `fine` is value `coarse` printed with more digits on every line sampled: the two agree to the
    coarser's last digit, and `fine` prints more of them."""
    pairs = list(zip((v for _, v in rec.series(coarse)), (v for _, v in rec.series(fine)), strict=False))
    if not pairs:
        return False
    for a, b in pairs:
        x, y = _number(a), _number(b)
        if x is None or y is None or not _half_unit(b) < _half_unit(a) or abs(x - y) > _half_unit(a) * 1.01:
            return False
    return True


def _half_unit(text: str) -> float:
    """Half a unit of the last digit a number is printed with: how far the printed value may be from the
    value (`0.1019` -> 0.00005, `1.2e-03` -> 0.00005)."""
    m = regex.match(r"[-+]?\d*(?:\.(\d*))?(?:[eE]([-+]?\d+))?$", text.replace(",", ""))
    if m is None:
        return math.inf
    return 0.5 * 10.0 ** (int(m.group(2) or 0) - len(m.group(1) or ""))


def _parts_of(rec: RecordShape, index: int) -> list[int]:
    """The values a `total` sums: the record's values printed just before it without a key of their own beyond
    a table's column name, from the nearest back to the first whose sum matches it in every line sampled."""
    before = []
    for slot in reversed(rec.slots[:index]):
        if slot.kind != "num" or slot.role != "value" or not slot.label or slot.unit or slot.rate:
            break
        before.insert(0, slot.index)
    rows = [values for sh in rec.shapes for values in sh.values]
    for start in range(len(before) - 1):
        parts = before[start:]
        if all(_sums_to(row, parts, index) for row in rows):
            return parts
    return []


def _parts_after(rec: RecordShape, index: int) -> list[int]:
    """The values a key named a total sums when they are printed after it, each under a key of its own: the first
    two or more after it whose sum matches it in every line sampled (alexjc/neural-enhance enhance.py prints
    '  - generator total=8.44e+04 prcpt=8.41e+04 smthn=3.07e+02': the perceptual and the smoothness losses, and the
    generator's total of them)."""
    after = []
    for slot in rec.slots[index + 1 :]:
        if slot.kind != "num" or slot.role != "value" or not slot.label or slot.unit or slot.rate:
            break
        after.append(slot.index)
    rows = [values for sh in rec.shapes for values in sh.values]
    for stop in range(2, len(after) + 1):
        parts = after[:stop]
        if all(_sums_to(row, parts, index) for row in rows):
            return parts
    return []


def _zero_term(rec: RecordShape, parts: list[int]) -> bool:
    """Whether a term is 0 (or no number) in a line sampled."""
    for sh in rec.shapes:
        for row in sh.values:
            for i in parts:
                try:
                    if float(row[i]) == 0:
                        return True
                except ValueError:
                    return True
    return False


def _sums_to(row: Sequence[str], parts: list[int], index: int) -> bool:
    try:
        total = float(row[index])
        values = [float(row[i]) for i in parts]
    except ValueError:
        return False
    slack = _half_unit(row[index]) + sum(_half_unit(row[i]) for i in parts)
    return math.isfinite(total) and total != 0 and abs(sum(values) - total) <= slack * 1.01


def _summed_total(rec: RecordShape, km: keymap_mod.KeyMap) -> int | None:
    """A table's column `total` that is, in every line sampled, the sum of the columns before it (YOLOv7's
    and YOLOv3's table `box obj cls total`: train.py prints mloss, the running means of the loss's three terms
    and their sum, under ('Epoch', 'gpu_mem', 'box', 'obj', 'cls', 'total', 'labels', 'img_size')), in a record
    whose keys name no loss and no other known quantity: the record's total, which the loss rule makes its loss.
    Any other key unknown to the key model is such a total where it is the sum of three values or more before it
    in every line sampled, two lines at least (that many terms do not meet a sum by chance): YOLACT's train.py
    prints ' B: %.3f | C: %.3f | M: %.3f | S: %.3f | T: %.3f' with T = the sum of the box, class, mask and
    semantic losses. None otherwise."""
    labels = [s.label for s in rec.slots if s.role == "value" and s.label]
    lines = sum(len(sh.values) for sh in rec.shapes)
    found = None
    for slot in rec.slots:
        if slot.role != "value" or slot.kind != "num" or not slot.label:
            continue
        # (a key named `total` alone on a line's keys, the sum of the terms before it on many lines sampled: CEBRA's
        # bar "pos: -0.9078 neg:  5.5175 total:  4.6097 temperature: 1.0000", cebra/solver/base.py)
        named = _words(slot.label) == ["total"] and (slot.header or lines >= 2 * MIN_REPEATS)
        after = (
            _parts_after(rec, slot.index)
            if not named
            and lines >= 2
            and not slot.unit
            and [w.lower() for w in _words(slot.label)][-1:] == ["total"]
            else []
        )
        if after and not _zero_term(rec, after):
            found = slot.index  # (a key named a total before the terms it sums)
            continue
        if named or (lines >= 2 and not slot.unit and not slot.rate):
            parts = _parts_of(rec, slot.index)
            own = None if named else field_plan(km, slot.label, None, [], False, labels)
            if not named and (len(parts) < 3 or own is None or not own.kept or _zero_term(rec, parts)):
                continue  # (a term that is 0 makes any value the sum of the others)
            plans = [field_plan(km, rec.slots[i].label, None, [], False, labels) for i in parts]
            if parts and all(m is not None and m.kept for m in plans):  # (a time's parts would be known keys)
                found = slot.index
        elif "loss" in _words(slot.label):
            return None
        else:
            m = field_plan(km, slot.label, slot.unit, [], False, labels)
            if m is not None and m.column == "loss":
                return None
    return found


_TQDM_COUNT = regex.compile(r"^\s*(?:it|s|[A-Za-z]{1,8})?\s*\[$")


# what lies between a progress display's percentage and its count: a bar of glyphs, blanks, a bracket
# (Ultralytics' `25% ━━━───────── 2/8`, fastprogress's `4.00% [2/50 00:00<00:00]`)
_AFTER_PERCENT = regex.compile(r"^%[\s\[|#=>\-─━█▏▎▍▌▋▊▉░▒▓·.]*$")


# a step's time above this with no unit anywhere is in milliseconds: a quarter of an hour per step is no training
# loop's, a thousand milliseconds many a one's
_MS_UNSAID = 1000.0


def _milliseconds_unsaid(m: FieldPlan, key: str, texts: Sequence[str]) -> FieldPlan:
    """A step time whose key and value say no unit, above 1,000 on every line sampled: milliseconds (Archai's
    DLLogger table prints `train_time/batch` as avg_elapsed * 1000, archai/nlp/trainers/nvidia/trainer.py)."""
    if not _no_unit_said(m):
        return m
    values = [_number(t) for t in texts]
    if not values or any(v is None or v < _MS_UNSAID for v in values):
        return m
    return _in_milliseconds(m, f"above {_MS_UNSAID:,.0f} on every line with no unit")


def _no_unit_said(m: FieldPlan) -> bool:
    """Whether a time is read as printed, its key and value having said no unit (and no rate was inverted)."""
    return m.scale == 1.0 and not m.invert and (m.use is None or m.use.unit is None)


def _in_milliseconds(m: FieldPlan, because: str) -> FieldPlan:
    """A time printed with no unit read in milliseconds, for the reason `because` gives."""
    why = f"{m.reason}; {because}: milliseconds"
    use = keymap_mod.KeyUse(m.column, m.use.rule if m.use else "values", why, "ms")
    return replace(m, scale=1e-3, reason=why, use=use)


def _counted_before_bar(rec: RecordShape, bar: int | None) -> bool:
    """Whether the step counter is printed in a bar's description or postfix and the bar redrawn beside it: lines
    in a row that print the same step as the bar's position moves on or stays (tqdm redraws a description set
    once per step: Yet-Another-EfficientDet-Pytorch train.py progress_bar.set_description('Step: {}. Epoch: {}/{}.
    Iteration: {}/{}. Cls loss: {:.5f}. ...'); Tianshou's trainer sets the postfix `..., update_step=N` after each
    update and the bar draws it again at its next position). A step's values are then those of its last draw."""
    if bar is None or rec.counter is None or rec.counter == bar:
        return False  # (a step that is the bar's own position is drawn once a position)
    seen = [
        (where, step, _whole(place))
        for (where, step), (_, place) in zip(rec.placed(rec.counter), rec.placed(bar), strict=True)
    ]
    again = sum(
        1
        for (a, x, m), (b, y, n) in zip(seen, seen[1:], strict=False)
        if a[0] == b[0] and b[1] - a[1] in (0, 1) and x == y and m is not None and n is not None and n >= m
    )
    return again >= 2 and again * 4 >= len(seen)


def _tqdm_count(sh: SampledShape) -> int | None:
    """The value a progress display counts in a shape: a tqdm bar's position (`10%|##   | 10/100 [00:01<00:09,
    ...`), the count before tqdm's clock (`50001it [00:40, 1244.54it/s, ...]`), the count after a percentage
    and a bar of another style (Ultralytics', fastprogress's); None without one."""
    for i, kind in enumerate(sh.kinds):
        if (
            kind == "bar"
            and i + 2 < len(sh.kinds)
            and sh.kinds[i + 1] == "num"
            and sh.literals[i + 2].strip() == "/"
        ):
            return i + 1
        if kind == "clock" and i > 0 and sh.kinds[i - 1] == "num" and _TQDM_COUNT.match(sh.literals[i]):
            return i - 1
        if (
            kind == "num"
            and i > 0
            and sh.kinds[i - 1] == "num"
            and _AFTER_PERCENT.match(sh.literals[i])
            and i + 1 < len(sh.kinds)
            and sh.literals[i + 1].strip() == "/"
        ):
            return i
    return None


def _bar_counts_steps(rec: RecordShape, counted: int) -> bool:
    """Whether a progress bar drawn beside a record's own counter counts the record's steps: the bar's total is
    the counter's total on every line sampled (meta-llama/llama-recipes src/llama_recipes/utils/train_utils.py: a
    bar of total=len(train_dataloader) // gradient_accumulation_steps, updated once an optimizer step, described
    f"Training Epoch: {epoch+1}/{num_epochs}, step {step}/{len(train_dataloader)} completed (loss: ...)": with
    no accumulation, both count the steps), or the bar's position is the counter plus a constant on every line
    sampled (BeyonderXX/TRACE model/base_model.py: the description f"Epoch {epoch+1}, Step {step}, Loss: ..." set
    each micro-batch, shown from the bar's next redraw: position = step + 2). Its rate is then the step's."""
    sh = rec.shapes[0]
    if rec.counter is not None:
        steps = [v for _, v in rec.series(rec.counter)]
        places = [v for _, v in rec.series(counted)]
        if _is_int(steps) and _is_int(places):
            shifts = {p - s for p, s in zip(_ints(places), _ints(steps), strict=True)}
            # (or the bar at the counter itself on every line, though both stand still: an epoch's bar kept at its
            # end, `[E1] step 1562/1562 | Loss=1.068 ...: : 1562it [22:08,  1.18it/s]`)
            if len(shifts) == 1 and (len(set(steps)) > 1 or shifts == {0}):
                return True
    if rec.total is None or counted + 1 >= len(sh.kinds) or sh.literals[counted + 1].strip() != "/":
        return False
    totals, bars = rec.series(rec.total), rec.series(counted + 1)
    return bool(totals) and all(a == b for a, b in zip(totals, bars, strict=True))


# A line that says a checkpoint was written (`Checkpoint at step 1080`, `Saving model and optimizer state at
# iteration 0 to ...`, `save model in ./output/latest`), and the step it names. What was saved may be named by
# its path alone, the word a part of it between `_`, `/` or `.` (rasbt/LLMs-from-scratch
# ch05/03_bonus_pretraining_on_gutenberg/pretraining_simple.py: print(f"Saved {file_name}") of
# model_checkpoints/model_pg_{global_step}.pth; loops that print f"Saved checkpoint_{step}.pth" or
# "... Saving to model_best.pth")
# (3D Gaussian splatting's model is its Gaussians: graphdeco-inria/gaussian-splatting train.py prints "\n[ITER {}]
# Saving Gaussians" beside "\n[ITER {}] Saving Checkpoint", copied by its many forks)
# (a module or a snapshot as well: Ma-787639046/NLP_Trans logs "[Epoch {}] Module saved!", PyTorch's DDP tutorial
# "Training snapshot saved at {path}")
# (and the network's parameters, MXNet's word for its weights: GluonCV's scripts log "[Epoch {}] Saving parameters to
# {prefix}_{epoch:04d}_{map:.4f}.params")
_SAVED = r"(?:checkpoints?|ckpt|models?|weights|states?(?:_dict)?|gaussians|module|snapshot|param(?:eter)?s)"
# the extensions a checkpoint's file is written with (MXNet Gluon's save_parameters writes .params)
_CHECKPOINT_FILE = r"(?:pt|pth|ckpt|bin|safetensors|npz|h5|pdparams|msgpack|params)"
_OTHER_SAVE_VERB = (
    r"\b(?:menyimpan|disimpan|tersimpan|guardando|guardado|guardar|salvando|salvo|salvar|sauvegard\w*|enregistr\w*"
    r"|gespeichert|speichere|speichern|сохран\w*)"
)
_OTHER_SAVED = (
    r"\b(?:checkpoints?|ckpt|model\w*|modèle|weights|pesos|poids|gewichte|чекпоинт\w*|модел\w*|веса)\b"
)
_SAVE = regex.compile(
    # (not an option's or a setting's name: a command line's `--save-dir .../checkpoints`, `save-interval`)
    r"(?i)\b(?:(?<![-_])sav(?:e|ed|ing)\b(?![-_])[^.!?]{0,60}?"
    # the word alone, or glued into a file's name (not a folder's: nanochat's checkpoint_manager logs "Saved
    # metadata to: .../base_checkpoints/d2/meta_000040.json", the checkpoint's metadata beside its model's save)
    # (a module's source file is none: orbax's logger ends its lines with "(pid:checkpoint_manager.py:1453)")
    rf"(?:\b{_SAVED}\b|(?<![A-Za-z]){_SAVED}(?=[_.-])(?![\w.-]*\.py\b)|(?<=[_.-]){_SAVED}(?![A-Za-z/]))"
    # (or an RL loop's agent or policy, the verb just before it: pfrl's train_agent logs "Saved the agent to %s";
    # not a folder of that name in a path the line names)
    r"|\bsav(?:e|ed|ing)\s+(?:the\s+)?(?:agent|policy)\b(?![/\\])"
    # (`@` for at: kandivault-source/Sprocket-500M's "  checkpoint @ iter {it} -> {path}")
    r"|checkpoints?\b[^.!?]{0,40}?(?:\b(?:saved|written|at)|\s@)\s(?:step|iter(?:ation)?|epoch)\b"
    # (or triggered: skorch's Checkpoint callback, skorch/callbacks/training.py, prints "A checkpoint was triggered
    # in epoch {}." when it saves)
    r"|checkpoints?\b[^.!?]{0,40}?\b(?:saved|written|triggered)\b"
    # (or a tag of its own before the path it wrote: Jiaaqiliu's WSD trainer prints f"  [SAVE] {ckpt_dir}")
    # (or with no path after it: an image-search trainer's f"    [SAVED] best val_loss={v:.4f}")
    r"|(?<=\[)(?:save|saved|saving|ckpt|checkpoint)\]:?(?:\s+\S*[/\\]|\s+best\b|\s*$)"
    rf"|{_SAVED} (?:is |has been |was )?(?:saved|written)\b"
    # (or the words that end the message: NLP_Trans's "Best Module in [Epoch {}] saved!")
    rf"|(?i:\b{_SAVED}\b)[^.!?]{{0,40}}?\b(?:saved|written)!?\s*$"
    # (or an arrow from the word to the path it went to, or from the line's start to the word and the path after a
    # colon: an ACT policy trainer's print(f"checkpoint -> {path}"), a forecasting loop's "→ Checkpoint mới: {path}")
    rf"|\b{_SAVED}\b(?![_-])\s*(?:->|→|=>)\s*\S*[/\\]\S*"
    rf"|(?<=(?:->|→|=>)\s{{0,3}}){_SAVED}\b(?![_-])[^:\n]{{0,20}}:\s*\S*[/\\]\S*"
    # (or the path it wrote between them: easytorch's "Checkpoint {} saved" of the .pt file)
    rf"|\b{_SAVED}\s+\S+\.{_CHECKPOINT_FILE}\s+(?:saved|written)\b"
    # or the name of the function that saves, the message alone (KevinZH3/Faster-R-CNN-for-VOC2007-'s
    # logger.info("save_model!!") after each epoch; not a setting, `save_model: True`)
    r"|(?<![-\w])sav(?:e|ed|ing)_(?:model|checkpoint|ckpt|weights)[!.]*\s*$"
    # or the verb checkpointing what it writes (baidu-research/ba-dls-deepspeech utils.py: "Checkpointing model to:
    # ./model/"), not a setting's name (`gradient checkpointing`, `activation checkpointing`: recomputation)
    r"|(?<!gradient )(?<!activation )\bcheckpointing\s+(?:the\s+)?(?:model|weights|state|to\b|at\b)"
    # (or the word alone before an ellipsis: the Straight Dope's Gluon VQA loop logs "Best validation acc found.
    # Checkpointing...")
    r"|(?<!gradient )(?<!activation )\bcheckpointing\s*(?:\.{2,}|…)\s*$"
    # or saving into a path, a file of no picture, text or table (torch7 dp's SaveToFile: "SaveToFile: saving to
    # /home/.../save/xps:1432747515:1.dat")
    r"|\bsav(?:e|ed|ing)\s+(?:it\s+)?(?:to|into)\s+['\"]?\S*[/\\]\S*"
    r"(?<!\.(?:png|jpe?g|gif|svg|pdf|txt|log|csv|tsv|json|jsonl|ya?ml|html|wav|mp3|mp4|npy|pkl))['\"]?\s*$"
    # or the word alone before an ellipsis, the whole message (kuangliu/pytorch-cifar main.py: print('Saving..')
    # before torch.save(state, './checkpoint/ckpt.pth'), copied into many loops: yl4579/PL-BERT's train.py)
    r"|(?:^|[:>\]|]\s*)saving\s?\.{2,}\s*$"
    # or the word before the file it wrote, a checkpoint by its extension (arsallls/tiny-shrek train.py prints
    # f"  saved {ckpt_path}" of pretrain.pt; dreamer121121/googlenet's print('-----save:{}'.format(...ckpt)))
    # or the path of the file alone, a folder's name before it (dxli94/WLASL's I3D train_i3d.py prints
    # print(model_name) then torch.save(i3d.module.state_dict(), model_name + '.pt'): `checkpoints/nslt_2000_...pt`)
    rf"|^\s*[\w.-]+/[\w./-]*\.{_CHECKPOINT_FILE}\s*$"
    # (a few words between them: RecBole's trainer logs "Saving current best: saved/MBHT-Feb-22-2023_06-34-56.pth")
    rf"|sav(?:e|ed|ing)\b(?:[^.!?:\n]{{0,30}}?:\s*|\s+)(?:(?:to|at|as)\s+)?\S*\.{_CHECKPOINT_FILE}\b"
    # or a new best score and an arrow to the file it went to (GeorgiySav/diffusionblocks_llm's trainer: "step    400
    # | new best val loss 2.6934 -> checkpoints/llama.ckpt.best")
    # (a pickle of the model too: caofy0307/T-GRAASP's "✔ Best! Corr={:.4f}  →  checkpoints/best_finetune_model.pkl")
    rf"|\bbest\b!?[^!?]{{0,60}}?\s(?:->|=>|→)\s*\S*\.(?:{_CHECKPOINT_FILE}|pkl)\b"
    # or in Chinese: 保存 (save) before the model, the checkpoint or the weights it writes ("保存最佳模型", "模型已保存",
    # and with its homophone 以 for 已, as 小土堆's tutorial prints it: print("模型以保存"))
    r"|保存[^，。！？,.!?]{0,8}?(?:模型|检查点|权重|参数|checkpoint|model|ckpt)|(?:模型|检查点|权重)(?:已经|已|以)?保存"
    # in Korean, 저장 (save) after the checkpoint, the model or the weights (choijun9040/vlm_project's "체크포인트
    # 저장: checkpoints/.../step_1000"), or before them; in Japanese, 保存 after them ("モデルを保存")
    r"|(?:체크포인트|모델|가중치)(?:를|을)?\s*저장|저장[^.!?]{0,8}?(?:체크포인트|모델|가중치)"
    r"|(?:チェックポイント|モデル|重み)を?保存"
    # in other languages a loop's author writes in: the verb of saving (Indonesian menyimpan/disimpan, Spanish
    # guardar, Portuguese salvar, French sauvegarder/enregistrer, German speichern, Russian сохранить) before or after
    # what it saved (Akhyar11/SpikingTranslation prints "Menyimpan checkpoint...")
    rf"|{_OTHER_SAVE_VERB}[^.!?]{{0,40}}?{_OTHER_SAVED}|{_OTHER_SAVED}[^.!?]{{0,40}}?{_OTHER_SAVE_VERB})"
)


# (or in the name of the file it wrote: `CHECKPOINT: saved checkpoint_step_250.pt` of a loop that prints the line
# before its step's own)
def _says_saved(sh: SampledShape) -> bool:
    """Whether a shape's line says a checkpoint was written: not where it says one will be (a start-up line that
    names the folder, gaurav-chawla-2/ERA-V4's "Checkpoints will be saved to: /content/drive/.../checkpoints")."""
    text = sh.examples[0][1]
    if _SAVE.search(text) is None or _SAVE_PLANNED.search(text) is not None:
        return False
    # (nor where it says a checkpoint was read: "[LOAD] Checkpoint loaded at step 5000"; nor where what it wrote is
    # no model's state, whatever folder it went to: "Metrics saved to checkpoints/metrics_0.pt")
    return _LOADED.search(text) is None and _SAVED_OTHER.search(text) is None


# a checkpoint read back, not written: its verb, with no verb of writing beside it
_LOADED = regex.compile(
    r"(?i)^(?!.*\b(?:sav(?:e|ed|ing)|writ(?:e|ten|ing))\b).*\b(?:load(?:ed|ing)?|restor(?:e|ed|ing))\b"
)
# what a loop saves that is no checkpoint, named before the verb or just after it
_SAVED_OTHER = regex.compile(
    r"(?i)\b(?:metrics?|logs?|plots?|figures?|charts?|curves?|histor(?:y|ies)|results?|predictions?|samples?|images?|"
    r"stats|statistics|losses)\b\s+(?:(?:is|are|was|were|has\s+been|have\s+been)\s+)?(?:saved|written)\b"
    r"|\b(?:saved|saving|wrote|writing)\s+(?:the\s+)?(?:metrics?|logs?|plots?|figures?|curves?|histor(?:y|ies)|results?|predictions?|samples?|stats|statistics)\b"
)


# the future a plan says its saves in: `will be saved`, `will save`, `to be saved`, `will be written`
_SAVE_PLANNED = regex.compile(r"(?i)\bwill\s+(?:be\s+)?(?:sav|writ)|\bto\s+be\s+(?:saved|written)\b")


_SAVE_STEP = regex.compile(
    r"(?i)(?:\b|(?<=[_/-]))(?:global[_ ]step|step|iter(?:ation)?)(?:\s*[:=#]?\s*|[_-])(\d+)(?![\d.]\d)"
)


# the epoch a save names, where the steps' own counter is the epoch (`Checkpoint saved -> ckpt_best.pt  (epoch 534,
# loss 7.5e-02)` beside `epoch    500 | loss ...` rows: saved at a step no row prints)
_SAVE_EPOCH = regex.compile(r"(?i)\bepoch(?:\s*[:=#]?\s*|[_-])(\d+)(?![\d.]\d)")
# the counter a line starts with, `N: ` (the reader keeps it in the text only where the file's lines lead with their
# own counter, reader.leading_counters): a save logged so is at that step (lucidrains/audiolm-pytorch's trainer
# prints f"{steps}: saving model to {results_folder}" beside f"{steps}: soundstream total loss: ...")
_SAVE_LEAD = regex.compile(r"^\s*(\d+): ")


def _save_line(sh: SampledShape, name: str, epochs_counted: bool = False) -> Table:
    """A checkpoint-save event line for a shape: its text up to what says so (and the step it names: the epoch,
    where the steps are epochs), its timestamp; what follows (a path) may change from save to save."""
    said = _SAVE.search(sh.examples[0][1])
    assert said is not None
    return _event_line(sh, name, "checkpoint_save", said.end(), said.start(), epochs_counted)


def _event_line(
    sh: SampledShape, name: str, event: str, cut: int, said: int | None = None, epochs_counted: bool = False
) -> Table:
    """An event line for a shape: its text up to `cut` (and the step it names after `said`), its timestamp."""
    text = sh.examples[0][1]
    step = _SAVE_STEP.search(text, said) if said is not None else None
    if step is None and said is not None and epochs_counted:
        step = _SAVE_EPOCH.search(text, said)
    if step is None and said is not None:
        step = _SAVE_LEAD.match(text, 0, said)
    cut = max(cut, step.end(1) if step is not None else 0)
    parts = [LINE_START]
    fields: Table = {}
    at = 0
    pieces = [(m.start(), m.end(), m.lastgroup or "num") for m in _TOKEN.finditer(text)]
    if step is not None:
        # (the step may be glued into the name of the file it wrote, where the tokenizer sees no number)
        pieces = [p for p in pieces if p[1] <= step.start(1) or p[0] >= step.end(1)]
        pieces = sorted([*pieces, (step.start(1), step.end(1), "step")])
    for start, end, kind in pieces:
        if start >= cut:
            break
        parts.append(_literal_rx([text[at:start]], at == 0, False))
        if kind == "ts" and not fields:
            parts.append(f"(?P<timestamp>{TS_RX})")
            fields["timestamp"] = {"column": "timestamp", "type": "timestamp"}
        elif kind == "step":
            parts.append(f"(?P<step>{COUNTER_GROUP})")
            fields["step"] = {"column": "step", "type": "int"}
        else:
            parts.append(PIECE_RX[kind])
        at = end
    parts.append(_literal_rx([text[at:cut]], at == 0, False))
    return {
        "name": name,
        "kind": "event",
        "event": event,
        "regex": "".join(parts),
        "fields": fields,
    }


_DICT_KEY = regex.compile(r"(?:['\"]?(?P<key>[A-Za-z_][\w/.-]*)['\"]?\s*[:=]\s*)\{[^{}#]*$")


def _outer_key(sh: SampledShape, index: int) -> str | None:
    """The key of the dict a value is the only number of (`grad_norm={'0_default': 66.5}`), None otherwise."""
    before = "".join(lit + "#" for lit in sh.literals[:index]) + sh.literals[index]
    m = _DICT_KEY.search(before)
    if m is None:
        return None
    after = "#".join(sh.literals[index + 1 :])  # (each "#" a value printed after this one)
    close = after.find("}")
    return m.group("key") if close >= 0 and "#" not in after[:close] and len(sh.kinds) > index else None


def _every_step(rec: RecordShape) -> bool:
    """Whether a record's counter moves by one from line to line: a record for every step (or epoch)."""
    if rec.counter is None:
        return False
    counts = [v for _, v in rec.series(rec.counter)]
    if not _is_int(counts):
        return False
    moves = [b - a for a, b in zip(_ints(counts), _ints(counts[1:]), strict=False)]
    return bool(moves) and sum(m == 1 for m in moves) * 2 > len(moves)


def _average(sh: SampledShape, slot: Slot) -> bool:
    """A value printed in brackets right after another value: its running average (`loss: 1.08 (1.10)`); not
    one its own rate unit names apart from the value before it (TF-slim's `loss = 0.2970 (1.647 sec/step)`), nor
    a time after a value printed in no time unit (CrossForcing's `v30=0.17834  (5.2s)`, the epoch's seconds)."""
    i = slot.index
    if not (i > 0 and sh.literals[i].strip() in ("(", "[") and sh.kinds[i - 1] == "num"):
        return False
    before = label_of(sh.literals, sh.kinds, i - 1)
    if (slot.unit or "").lower() in _TIME_UNITS and before[1] != slot.unit:
        return False
    return not slot.rate or before[0] == slot.label


def _clock(texts: Sequence[str]) -> bool | None:
    """Whether a record's time values are a clock (rising through the log, as time since training began does)
    or not (a step's time goes up and down, or stays); None when too few to say."""
    values = [v for v in map(_number, texts) if v is not None and math.isfinite(v)]
    if len(values) < MIN_REPEATS:
        return None
    ups = sum(b > a for a, b in zip(values, values[1:], strict=False))
    downs = sum(b < a for a, b in zip(values, values[1:], strict=False))
    if ups + downs == 0:
        return False if values[0] else None  # a clock moves (one printed coarsely may stay at 0.00m a while)
    if len(values) < 5:
        return None if downs == 0 else False  # (a step's time may go up three times running)
    return ups >= RISING * (ups + downs)


def _timed(
    km: keymap_mod.KeyMap, m: FieldPlan, slot: Slot, texts: Sequence[str], steps: Sequence[str] = ()
) -> FieldPlan:
    """A time the key model reads as a clock since training began whose values do not rise is the step's time
    (espnet2's `train_time=0.014` on every line: espnet2/train/trainer.py registers the seconds since the last
    iteration ended); a step's time whose values rise line after line is a clock (OpenNMT-py's `6641 sec`,
    time.time() - start), under a step time's key only where they grow with the steps (`steps`: the counter's
    values on the same lines, given for a record's only time) as a clock does (_grows_with_steps)."""
    column = {"train_elapsed_s": "step_time_s", "step_time_s": "train_elapsed_s"}.get(m.column)
    if column is None or m.kept or m.invert:
        return m
    keyed = column == "train_elapsed_s" and not _bare_time(slot)
    if keyed and (set(_words(slot.label)) - _TIME_WORDS or not _grows_with_steps(texts, steps)):
        return m  # a key that names a step's time keeps its meaning (detectron2's `time:`, a global average, rises)
    clock = True if keyed else _clock(texts)  # (growing with the steps says so from fewer lines)
    if clock is None and m.column == "train_elapsed_s" and len(steps) >= MIN_REPEATS and _is_int(steps):
        # (too few to say by their moves, yet a clock's values grow with the steps the lines are apart: a
        # stage's `(train)0.8s` printed every 5 epochs, 0.8, 0.8, 0.8, 1.0, does not; a clock printed too
        # coarsely to move yet, nanochat's `total time: 0.00m`, says nothing)
        values = {_number(t) for t in texts}
        if len(values) > 1 and all(v is not None and v > 0 for v in values):
            clock = _grows_with_steps(texts, steps)
    if clock is None or clock == (m.column == "train_elapsed_s"):
        return m
    mapping = km.lookup("time" if column == "step_time_s" else "elapsed", "step")
    if mapping is None or mapping.column != column:
        return m
    how = "rise line after line: a clock" if clock else "do not rise: no clock, the step's own time"
    if keyed:
        how = "grow with the steps as a clock since training began does"
    reason = f"its values {how} ({slot.label!r})"
    use = keymap_mod.KeyUse(column, "values", reason, m.use.unit if m.use else slot.unit, m.scale)
    return replace(m, column=column, reason=reason, use=use)


def _kept_clock(
    km: keymap_mod.KeyMap, m: FieldPlan, slot: Slot, texts: Sequence[str], steps: Sequence[str]
) -> FieldPlan:
    """A number printed with a time unit under a key the key model does not know and that names no quantity but a
    total (`total`, `overall`, `cumulative`), whose values grow with the steps as a clock since training began
    does (_grows_with_steps): that clock (CatBoost's `total: 45.4s` beside its `remaining: 1h 42m 22s`, the
    seconds since training began). A total of something named (`total data: 81.2s`, the loader's wait summed)
    grows as well and is no clock: left as it was."""
    if not set(_words(slot.label)) <= _TOTAL_WORDS or not _grows_with_steps(texts, steps):
        return m
    reason = f"a time under a key of no known quantity whose values grow with the steps as a clock's do ({slot.label!r})"
    return _time_as(km, m, slot, texts, ("elapsed", "train_elapsed_s"), reason)


def _time_as(
    km: keymap_mod.KeyMap, m: FieldPlan, slot: Slot, texts: Sequence[str], key: tuple[str, str], reason: str
) -> FieldPlan:
    """A kept time read as the column the key model maps `key` = (name, column) to, for `reason`; m where the key
    model maps it elsewhere or the values do not convert."""
    name, column = key
    mapping = km.lookup(name, "step")
    if mapping is None or mapping.column != column:
        return m
    use = keymap_mod.KeyUse(column, "values", reason, slot.unit)
    plan = _planned(mapping, slot.unit, texts, False, reason, slot.label, use)
    return replace(plan, reason=reason) if plan is not None else m


_TOTAL_WORDS = frozenset({"total", "overall", "cumulative", "cum", "elapsed", "so", "far"})


def _took(
    rec: RecordShape, km: keymap_mod.KeyMap, m: FieldPlan, slot: Slot, texts: Sequence[str]
) -> FieldPlan:
    """A time a step line printed at every step says its work took, under words that end in `in` or `took` and name
    no quantity the key model knows, and that does not grow as a clock since training began would: the step's time
    (BigDL's DistriOptimizer: s"Trained $batchSize records in $time seconds."; `step 12 done in 0.52s`). Printed
    every few steps, what it covers is not known (_since_last_record reads a time since a start): left as kept."""
    words = _words(slot.label)
    if not words or words[-1] not in _TOOK_WORDS or _grows_with_steps(texts, _counts(rec)):
        return m
    if rec.counter is None or {stride for _, stride, _ in _rises(rec, slot.index)} != {1}:
        return m
    reason = f"the time the step line says its work took ({slot.label!r})"
    return _time_as(km, m, slot, texts, ("step_time", "step_time_s"), reason)


_TOOK_WORDS = frozenset({"in", "took", "takes", "taking"})


def _time_worded(km: keymap_mod.KeyMap, m: FieldPlan, slot: Slot, texts: Sequence[str]) -> FieldPlan:
    """A number printed with a time unit under a key the key model does not know, whose words say only that it is
    a time or what a time is spent on (`Cost: 6.79s`, `Cost_time: 0.55s`, `time cost: 1.2s`, `duration 3s`),
    on a step line that prints no other step time: the step's time (lufficc/SSD ssd/engine/trainer.py prints
    'Cost: {:.2f}s' of the seconds since its last line, attentive-gan-derainnet's 'Cost_time: {:.5f}s' one
    iteration's). A key that names what else it times (`data`, `eta`, `eval`, `total`) is not this;
    whether the time is a step's or its print interval's, and whether it is a clock, the rules after this
    one say (_timed, _stamped_interval)."""
    words = set(_words(slot.label))
    if keymap_mod.normalize(slot.label) in _TIME_PER_STEP:
        # (`[tps: 2.84s]`: with a time unit, MOTIP's time per step, no tokens a second)
        words = {"time", "step"}
    if not words & _SPENT_WORDS or not words <= _SPENT_WORDS | _OF_A_STEP:
        return m
    reason = f"a time under a key that says only that it is one ({slot.label!r}), the line's only time"
    return _time_as(km, m, slot, texts, ("step_time", "step_time_s"), reason)


# the words that say a number is time spent, and the words that say it is a step's (no other span, no other work)
_SPENT_WORDS = frozenset({"time", "cost", "costs", "duration", "spent", "consumed", "consumption", "elapse"})
_OF_A_STEP = frozenset({"step", "iter", "iteration", "batch", "train", "training", "update", "per", "it"})
# the initials of a time per step or iteration, read so only where the value has a time unit
_TIME_PER_STEP = frozenset({"tps", "tpi"})


# the words of a key that says only that it is a time (`time`, `Time(s)`): what it times is for its values to say; a
# key that names the step (`step_time`, `iter_time`, `batch_time`) is the step's time whatever its values do
_TIME_WORDS = frozenset({"time", "s", "sec", "secs", "seconds", "ms"})


def _grows_with_steps(texts: Sequence[str], steps: Sequence[str]) -> bool:
    """Whether a time's values, printed beside the step counter's `steps`, are the seconds since training began
    (DCGAN-tensorflow model.py: "Epoch: [%2d] [%4d/%4d] time: %4.4f, d_loss: %.8f, g_loss: %.8f" % (epoch, idx,
    batch_idxs, time.time() - start_time, ...)): they never go down, and the seconds they add a step, times the
    steps counted to the last line, are at least half the last value, as a clock's are (its value is that
    product plus the time before the first step), and not much more (a slower stretch lifts it a little; steps
    that would take far longer than the clock shows are not what it counts). A step's time averaged over the
    run (detectron2's `time:`, the global average, creeping up) adds a sliver of that."""
    values = [_number(t) for t in texts]
    counts = _ints(steps) if len(steps) == len(texts) and _is_int(steps) else []
    if len(counts) < MIN_REPEATS or any(v is None or not math.isfinite(v) for v in values):
        return False
    v = [float(x) for x in values if x is not None]
    if any(b < a for a, b in zip(v, v[1:], strict=False)) or any(
        b <= a for a, b in zip(counts, counts[1:], strict=False)
    ):
        return False
    if v[-1] <= v[0] or v[-1] <= 0:
        return False
    per_step = (v[-1] - v[0]) / (counts[-1] - counts[0])
    return 0.5 * v[-1] <= per_step * (counts[-1] + 1) <= 1.5 * v[-1]


def _longest_time(rec: RecordShape, km: keymap_mod.KeyMap, line: list[str]) -> int | None:
    """The value that is the step's time when a record prints several times of a step (espnet2's iter_time,
    forward_time, ..., train_time): the longest, as a whole holds its parts; never one whose values rise line
    after line, a clock (a dict's `"time": 1796156467.65`, time.time(), beside its `"step_time"`)."""
    found, clocks = _step_times(rec, km, line)
    # (a time with a key before one with none; one whose key names a span wider than a step after one that does not)
    return max(found)[-1] if found and len(found) + clocks > 1 else None


def _step_times(
    rec: RecordShape, km: keymap_mod.KeyMap, line: list[str]
) -> tuple[list[tuple[bool, bool, float, int]], int]:
    """The values of a record that the key model reads as the step's time, each as (keyed, no wider span named,
    median, slot), and how many more are clocks."""
    found: list[tuple[bool, bool, float, int]] = []
    clocks = 0
    for slot in rec.slots:
        if slot.role != "value" or slot.kind != "num" or not slot.label or slot.rate:
            continue
        texts = [v for _, v in rec.series(slot.index)]
        m = field_plan(km, slot.label, slot.unit, texts, False, line)
        if m is None or m.kept or m.invert:
            continue  # (a rate the step's time is read from is no time of the line's: SPS beside dt)
        m = _timed(km, m, slot, texts)
        if _full(m) != "step_time_s":
            continue
        if _clock(texts):
            clocks += 1
            continue
        values = sorted(v * m.scale for v in map(_number, texts) if v is not None and math.isfinite(v))
        if values:
            wider = bool(set(_words(slot.label)) & _WIDER_THAN_STEP)
            found.append((not _bare_time(slot), not wider, values[len(values) // 2], slot.index))
    return found, clocks


# the words of a time's key that name a span of several steps: MindSpore's TimeMonitor "epoch time: {:5.3f} ms, per
# step time: {:5.3f} ms", mindformers' "Per sink_size step time: ..., per step time: ...": the longest time of such a
# line is the wider span's, and the step's is the one that names no such span
_WIDER_THAN_STEP = frozenset({"epoch", "sink", "interval"})


def _counts(rec: RecordShape) -> list[str]:
    """The step counter's values over the record's lines, as printed (none without a counter); for a counter of
    the batches within an epoch, out of the same total every epoch (`Epoch: [ 9/200] Iter [1427/1487]`), the
    batches since the run began, epoch times total plus batch, so that a clock beside it grows with them
    across an epoch's end as within one (Tramac/Fast-SCNN-pytorch train.py prints `Time: %.4f sec`,
    time.time() - start_time, on each such line)."""
    if rec.counter is None:
        return []
    counts = [v for _, v in rec.series(rec.counter)]
    if rec.counts_from is None or rec.epoch is None or rec.total is None:
        return counts
    epochs = [v for _, v in rec.series(rec.epoch)]
    totals = {v for _, v in rec.series(rec.total)}
    if len(totals) != 1 or not _is_int(epochs) or not _is_int(totals) or not _is_int(counts):
        return counts
    total, base, start = _ints(totals)[0], rec.epoch_base, rec.counts_from
    return [str((e - base) * total + c - start) for e, c in zip(_ints(epochs), _ints(counts), strict=True)]


def _counted_per_step(rec: RecordShape, rate: int, time: int) -> float | None:
    """How many things a step's rate counts in the step's time, where that is many (2 or more on every line
    sampled): a rate named for steps that counts the environment steps of many parallel environments in one
    iteration (rsl_rl's OnPolicyRunner prints `Steps per second: 14257` beside `Iteration time: 0.11s`, rsl_rl/
    runners/on_policy_runner.py log, its iterations collecting num_envs x num_steps_per_env steps each). None
    where it counts one a step, or the lines do not say."""
    scale = keymap_mod.TIME.get(rec.slots[time].unit or "s", 1.0)
    times = dict(rec.series(time))
    products = []
    for line, text in rec.series(rate):
        r, t = _number(text), _number(times.get(line, ""))
        if r is None or t is None or not (math.isfinite(r) and math.isfinite(t)) or r <= 0 or t <= 0:
            return None
        products.append(r * t * scale)
    if len(products) < 2 or min(products) < 2:
        return None
    return statistics.median(products)


def _bare_rate(key: str, texts: Sequence[str]) -> bool:
    """A key that says only `rate` (no noun, no unit), its values above 1 on every line sampled: the samples a
    second the loop measures (torch_xla test/test_utils.py print_training_update 'Rate={:.2f}' of its
    RateTracker, fed the batch size each step; timm train.py's `rate` = samples / batch time). No learning rate
    is above 1: darknet's `0.001 rate` is read by its values (_by_values)."""
    if keymap_mod.normalize(key) != "rate" or not texts:
        return False
    values = [_number(t) for t in texts]
    return all(v is not None and math.isfinite(v) and v > 1 for v in values)


def _per_process(rec: RecordShape, index: int) -> bool:
    """Whether a record is printed by several processes for each step, each with its own value of slot `index`:
    lines in a row with the same step and different values (torch_xla's test scripts print every device's rate,
    its own RateTracker's, on a line of its own). Where every process prints the same figure, it is one
    figure of the whole job."""
    if rec.counter is None or _epoch_named(sh_label(rec, rec.counter)):
        return False  # (an epoch's lines repeat it report after report: DeepDanbooru's `Epoch[1] Loss=...`)
    steps = rec.series(rec.counter)
    values = rec.series(index)
    repeated = differ = 0
    for k in range(1, len(steps)):
        if steps[k] == steps[k - 1]:  # (the same slice and step)
            repeated += 1
            differ += values[k][1] != values[k - 1][1]
    return repeated > 0 and differ > 0 and repeated >= len(steps) // 2


_TIME_OF_DAY = regex.compile(r"\d\d:\d\d:\d\d(?:\.\d+)?|\d\d_\d\d_\d\d")


def _timed_key(km: keymap_mod.KeyMap, slot: Slot, line: Sequence[str]) -> bool:
    """A clock's key the key model reads as a time (`time`, `elapsed`, `Time`)."""
    m = field_plan(km, slot.label, None, [], False, line)
    return m is not None and not m.kept and m.column in ("step_time_s", "train_elapsed_s")


# the words of a logger's level (Python logging's names, loguru's, syslog's NOTICE), and in capitals with glog's
# letters, as a prefix prints them
LEVEL_WORDS = frozenset({"debug", "info", "warning", "warn", "error", "critical", "notice"})
_LEVELS = frozenset({w.upper() for w in LEVEL_WORDS} | {"D", "I", "W", "E"})


# tqdm's rate_fmt: f"{rate:5.2f}{unit}/s", or "s/{unit}" below one a second, its `unit` whatever the bar counts
# (`it`, `epoch`, `batch`, `img`: PyKEEN's training loop draws `3.82epoch/s`)
_RATE_FMT = regex.compile(r"[A-Za-z]+/s|s/[A-Za-z]+")


def _bar_rate(rec: RecordShape, slot: Slot) -> bool:
    """Whether a bar's slot is its rate: `it/s` or `s/it`, or tqdm's rate of another unit right after its clock."""
    if slot.rate and slot.label in ("it/s", "s/it"):
        return True
    before = rec.slots[slot.index - 1] if slot.index > 0 else None
    return before is not None and before.kind == "clock" and _RATE_FMT.fullmatch(slot.label) is not None


def _day_clock(rec: RecordShape, km: keymap_mod.KeyMap) -> int | None:
    """A record's time of day printed with no date under a time's key or leading the line, its hours two digits
    as a clock of the day prints them (torch_xla test/test_utils.py print_training_update: 'Time={}'.format(
    now()), now() = datetime.now().strftime('%H:%M:%S')): the line's timestamp. A duration prints its hours
    unpadded (tqdm's format_interval '{h:d}:{m:02d}:{s:02d}', str(timedelta)); where one is printed padded, its
    differences are a clock's all the same."""
    line = [s.label for s in rec.slots if s.role == "value" and s.label]
    for slot in rec.slots:
        if slot.kind != "clock" or slot.role != "value":
            continue
        # (or with no key, leading the line as a logger's prefix: PrimeIntellect-ai/prime
        # src/zeroband/utils/logging.py "{asctime} [{levelname}] [Rank {local_rank}] {message}" with datefmt
        # "%H:%M:%S", Rich's logging handler "[%X]")
        # (a level word may come first in its bracket: pymarl src/utils/logging.py get_logger's Formatter
        # '[%(levelname)s %(asctime)s] %(name)s %(message)s' with datefmt '%H:%M:%S', `[INFO 03:15:26] my_main ...`)
        head = rec.shapes[0].literals[0].strip(" [(")
        leads = slot.index == 0 and (not head or head.upper() in _LEVELS)
        if not (slot.label or leads):
            continue
        texts = [v for _, v in rec.series(slot.index)]
        if (
            texts
            and all(_TIME_OF_DAY.fullmatch(t) and int(t[:2]) < 24 for t in texts)
            and (leads or _timed_key(km, slot, line))
        ):
            return slot.index
    return None


def _elapsed_clock(rec: RecordShape, km: keymap_mod.KeyMap, slot: Slot, line: Sequence[str]) -> bool:
    """A duration (`1d 06h 06m`, `0:01:35`) under a time's key whose values rise line after line: the time since
    training began (NVlabs/stylegan2-ada training/training_loop.py: f"time {dnnlib.util.format_time(total_time)
    :<12s}"). One that does not rise, or too few to say, is not read: what it times is not known; too few to say
    under a key that names that clock are (turicreate's table column `Elapsed Time`, a duration once past a
    minute: `1m 4s`)."""
    if not _timed_key(km, slot, line) or km.ignored(slot.label):
        return False
    values = _durations(rec, slot)
    if values is None:
        return False
    named = km.lookup(slot.label, "step")
    clock = _clock([str(v) for v in values])
    return clock is True or (
        clock is None and named is not None and named.column == "train_elapsed_s" and named.rule == "name"
    )


def _step_duration(rec: RecordShape, km: keymap_mod.KeyMap, slot: Slot, line: Sequence[str]) -> bool:
    """A duration (`00:04:59`) under a key the key model reads as the step's time (or an epoch's, where the steps
    are epochs) whose values go up and down, as a step's time does (ggml-org/llama.cpp common/train.cpp train_opt_callback: " dt=" print_duration(
    millis_per_iter), hours, minutes and seconds of one iteration, then " eta=" the time left). One that rises is
    a clock (_elapsed_clock); too few values to say leave it unread."""
    m = field_plan(km, slot.label, None, [], False, line)
    epochs = _epochs_counted(rec) and _EPOCH_WORD.search(slot.label) is not None
    if (m is None or m.kept) and epochs:
        # (an epoch's duration where the steps are epochs: tiwinie's landslide emulator prints `epoch time 12m 44s`)
        m = _epoch_time(km, slot.label, slot, [], line) or m
    if m is None or m.kept or m.column != "step_time_s" or km.ignored(slot.label):
        return False
    values = _durations(rec, slot)
    if values is None:
        return False
    texts = [str(v) for v in values]
    if epochs and rec.counter is not None:
        # (a key that names an epoch's time keeps its meaning unless its values grow with the epochs as a clock's
        # do: a run's epochs that each take a little longer still read as durations)
        return not _grows_with_steps(texts, [t for _, t in rec.series(rec.counter)])
    return _clock(texts) is False


def _durations(rec: RecordShape, slot: Slot) -> list[float] | None:
    """A duration slot's values in seconds, in file order; None when one of them is no duration."""
    try:
        return [to_duration(text) for _, text in rec.series(slot.index)]
    except ValueError:
        return None


def _over_interval(rec: RecordShape, m: FieldPlan, key: str, unit: str | None) -> FieldPlan:
    """A time the key model says covers the log interval (synonyms.toml [interval]), per step: divided by the
    steps between the records (a block line's, its head's), where the records come at one stride in every slice
    sampled (the first record's interval is taken to be that stride too). Where the stride varies, how many steps
    a record's time covers is not known: kept as printed."""
    counted = rec.head if rec.counter is None and rec.head is not None else rec
    strides: set[int] = set()
    if counted.counter is not None:
        series = counted.series(counted.counter)
        for (s0, a), (s1, b) in zip(series, series[1:], strict=False):
            x, y = _whole(a), _whole(b)
            if s0 == s1 and x is not None and y is not None and y > x:
                strides.add(y - x)
    if len(strides) == 1:
        stride = strides.pop()
        why = f"{m.reason}: the time of the {stride} steps between records, read per step"
        use = keymap_mod.KeyUse(m.column, "interval", why, unit, m.scale / stride)
        return replace(m, scale=m.scale / stride, reason=why, use=use)
    column = keymap_mod.column_name("x_", key, unit)
    why = f"{m.reason}; the steps between records vary (or are not seen): how many it covers is not known"
    return FieldPlan(column, kept=True, reason=why, use=keymap_mod.KeyUse(column, "kept", why, unit))


# the words of a key that names a time since some start (`Elapsed Time`, `time taken`, `time spent`, `took`): what
# the start is, training's beginning or the last report, is for the values to say
# (and `consume`, the word a Chinese author's 耗时 becomes: zhaibowen/Retriever-VL logs f"step {iter_num}, loss ...,
# lr: ..., consume {time.time() - t0:.2f}s" every 100 steps)
_SINCE_WORDS = frozenset({"elapsed", "taken", "spent", "took", "consume", "consumed"})


def _since_last_record(
    rec: RecordShape, km: keymap_mod.KeyMap, m: FieldPlan, slot: Slot, texts: Sequence[str]
) -> FieldPlan:
    """A time under a key that says only that time has passed since a start (`Elapsed Time`, `time taken`), whose
    values do not rise as a clock since training began does: the start is reset at each report, so the value is the
    time of every step since the record printed before (jax-ml/jax-ai-stack docs/source/JAX_for_LLM_pretraining.ipynb:
    every 200 steps print(f"Step {step + 1}, Loss: {...}, Elapsed Time: {elapsed_time:.2f} seconds") with
    elapsed_time = time.time() - start_time, then start_time = time.time()): read per step over the counter's stride
    (_over_interval). A key that names the step (`step_time`, nanoGPT's `time`, `dt`) is one step's time printed at
    the log interval, never divided; with stamps on the line, they tell which it is (_stamped_interval)."""
    words = set(_words(slot.label))
    if not words & _SINCE_WORDS or words - _SINCE_WORDS - _TIME_WORDS or m.invert:
        return m
    if rec.counter is None or _clock(texts) is not False:
        return m
    why = f"a time since a start whose values do not rise: the start is reset at each record ({slot.label!r})"
    if m.kept:
        if slot.unit not in _TIME_UNITS:
            return m
        mapping = km.lookup("time", "step")
        if mapping is None or mapping.column != "step_time_s":
            return m
        use = keymap_mod.KeyUse("step_time_s", "values", why, slot.unit)
        plan = _planned(mapping, slot.unit, texts, False, why, slot.label, use)
        if plan is None:
            return m
        m = plan
    elif _full(m) != "step_time_s":
        return m
    m = replace(m, reason=why)
    per = _over_interval(rec, m, slot.label, slot.unit)
    if not per.kept and per.scale == m.scale:  # (a record every step: its interval is the step)
        return replace(m, use=keymap_mod.KeyUse("step_time_s", "values", why, slot.unit, m.scale))
    return per


def _stamped_interval(
    rec: RecordShape, m: FieldPlan, slot: Slot, stamp: int, km: keymap_mod.KeyMap
) -> FieldPlan:
    """A step's time that the line's own stamps show to be the time of the whole log interval: a record printed
    every N steps whose time matches the difference between its stamp and the previous record's (not that
    difference's Nth) times every step since the record before (microsoft/DeBERTa DeBERTa/training/trainer.py
    TrainerState.report_state: "... Steps={}, loss={}, examples={}, loss_scale={:0.1f}, {:0.1f}s" with end - start,
    start reset at each report; jwyang/faster-rcnn.pytorch's `time cost`, [interval], likewise): read per step, divided
    by the counter's stride, where the records come at one stride. Where the stamps tell neither way (too coarse, or
    too few records), or the stride varies, the value stays as printed."""
    if rec.counter is None or keymap_mod.normalize(slot.label) in km.interval:
        return m
    stamps = rec.series(stamp)
    pairs: list[tuple[int, bool, bool]] = []  # (stride, matches the gap, matches the gap's share of a step)
    coarse = _to_the_second(stamps)
    for k, stride, v in _rises(rec, slot.index):
        if v is None or not math.isfinite(v):
            continue
        try:
            d = _gap(stamps, k)
        except ValueError:
            return m
        v *= m.scale
        tol = max(0.1 * d, 1.0 if coarse else 0.05)
        as_whole, as_share = abs(v - d) <= tol, abs(v * stride - d) <= tol  # (each as the gap it makes)
        pairs.append((stride, as_whole and not as_share, as_share))
    if not pairs:
        return m
    # the stride most records come at; a pair at another stride whose time is not its gap's has lines missing
    # between (a log cut short, an excerpt's elision): the records' own stride holds. One whose time is its gap's
    # says the stride varies, and how many steps a record's time covers is not known
    stride = Counter(p[0] for p in pairs).most_common(1)[0][0]
    whole = sum(w for n, w, _ in pairs if n == stride)
    odd = [w for n, w, _ in pairs if n != stride]
    if any(odd) or 2 * len(odd) >= len(pairs) or whole < 2 or any(sh for _, _, sh in pairs) or stride < 2:
        return m
    why = f"its value matches the time between the stamps of consecutive records, {stride} steps apart"
    return _per_step_of(m, slot, stride, why)


# the fewest milliseconds a step's time read in milliseconds by the stamps may print
_MS_LEAST = 5.0


def _stamped_milliseconds(rec: RecordShape, m: FieldPlan, slot: Slot, stamp: int) -> FieldPlan:
    """A step's time printed with no unit that the line's own stamps show to be in milliseconds: read as seconds,
    the steps between the stamped records would take ten times the time the stamps say passed, read as
    milliseconds no more than that time (saforem2/wordplay's trainer logs `dt=108.1093` with dt * 1000, its
    legend says so, on lines whose stamps move a second every few steps)."""
    if rec.counter is None or slot.unit is not None or not _no_unit_said(m):
        return m
    stamps = rec.series(stamp)
    slack = 1.0 if _to_the_second(stamps) else 0.05
    printed = passed = 0.0
    pairs = 0
    for k, stride, v in _rises(rec, slot.index):
        if v is None or not math.isfinite(v) or v < _MS_LEAST:
            return (
                m  # (a step of under 5 ms is no training loop's: a counter of samples, not steps, misleads)
            )
        try:
            passed += _gap(stamps, k)
        except ValueError:
            return m
        printed += v * stride
        pairs += 1
    if pairs < MIN_REPEATS - 1 or passed < 2 * slack:
        return m
    if printed <= 10 * (passed + slack) or printed / 1000 > 1.5 * (passed + slack):
        return m
    return _in_milliseconds(
        m,
        f"as seconds its steps would take {printed / passed:,.0f} times the time their lines' stamps say passed, "
        "as milliseconds no more",
    )


def _per_step_of(m: FieldPlan, slot: Slot, stride: int, why: str) -> FieldPlan:
    """m read per step: the time of the `stride` steps of the log interval, as `why` shows."""
    why = f"{m.reason}; {why}: the log interval's time, read per step"
    use = keymap_mod.KeyUse(m.column, "interval", why, m.use.unit if m.use else slot.unit, m.scale / stride)
    return replace(m, scale=m.scale / stride, reason=why, use=use)


def _rated_interval(
    rec: RecordShape, m: FieldPlan, slot: Slot, km: keymap_mod.KeyMap, line: Sequence[str]
) -> FieldPlan:
    """A step's time that the line's own rate and count show to be the time of the whole log interval: a record
    printed every N steps with a rate (tokens/s, samples/s) and the count it adds up (tokens or samples seen so
    far), whose rate times its time is what the count grew by since the record before (not that growth's Nth):
    the time of every step since the record before, read per step (a LLaMA-style loop's `Tokens Processed: 8M |
    tok/s: 157961 | Time: 53s` every 256 steps: 157,961 x 53 s = 8.4M tokens, the 8M the count grew). Where the
    figures tell neither way, or the stride varies, the value stays as printed."""
    if rec.counter is None:
        return m
    rate = count = None
    for other in rec.slots:
        if other.index == slot.index or other.kind != "num" or not other.label or other.role != "value":
            continue
        texts = [v for _, v in rec.series(other.index)]
        plan = field_plan(km, other.label, other.unit, texts, False, line)
        if plan is None or plan.kept or plan.invert:
            continue
        if _full(plan) in ("tokens_per_s", "samples_per_s") and rate is None:
            rate = (other.index, plan.scale, plan.column)
        elif plan.column in ("consumed_tokens", "consumed_samples") and count is None:
            count = (other.index, plan.scale, plan.column)
    if rate is None or count is None or rate[2].split("_")[0] != count[2].split("_")[1]:
        return m  # (tokens with tokens, samples with samples)
    rates, counts = rec.series(rate[0]), rec.series(count[0])
    strides, whole = Counter(), 0
    for k, stride, v in _rises(rec, slot.index):
        r, c0, c1 = (
            _scaled(rates[k][1], rate[1]),
            _scaled(counts[k - 1][1], count[1]),
            _scaled(counts[k][1], count[1]),
        )
        if v is None or r is None or c0 is None or c1 is None or c1 <= c0:
            continue
        grew, made = c1 - c0, r * v * m.scale
        if abs(made * stride - grew) <= 0.2 * grew:
            return m  # (the rate times one step's time is the growth's share of a step: one step's time)
        if abs(made - grew) <= 0.2 * grew:
            whole += 1
            strides[stride] += 1
    if whole < 2 or len(strides) != 1:
        return m
    stride = next(iter(strides))
    if stride < 2:
        return m
    why = f"the line's rate times it is what its count grew by since the record before, {stride} steps apart"
    return _per_step_of(m, slot, stride, why)


def _scaled(text: str, scale: float) -> float | None:
    """A printed number with its scale letter (`8M`) as the column holds it."""
    try:
        value, unit = keymap_mod.split_quantity(_unsep(text))
    except ValueError:
        return None
    factor = (
        keymap_mod.COUNT.get(unit.lower(), 1.0) if unit else 1.0
    )  # (as the key model reads a count's letter)
    return value * factor * scale


def _rises(rec: RecordShape, index: int) -> Iterator[tuple[int, int, float | None]]:
    """(k, the counter's rise, value `index` printed) of each sampled record k whose counter rose from the record
    before it in the same slice of the file."""
    assert rec.counter is not None
    steps, values = rec.series(rec.counter), rec.series(index)
    for k in range(1, len(steps)):
        (s0, a), (s1, b) = steps[k - 1], steps[k]
        x, y = (
            _whole(_unsep(a)),
            _whole(_unsep(b)),
        )  # (a counter printed with thousands separators: `505,100`)
        if s0 == s1 and x is not None and y is not None and y > x:
            yield k, y - x, _number(values[k][1])


def _gap(stamps: list[tuple[int, str]], k: int) -> float:
    """The seconds between the stamps of sampled records k - 1 and k (ValueError for a stamp not read)."""
    from .sets import to_timestamp  # (beside the stamps' reading the frame does: the same dates the same way)

    return to_timestamp(stamps[k][1]) - to_timestamp(stamps[k - 1][1])


def _to_the_second(stamps: list[tuple[int, str]]) -> bool:
    """Whether the stamps are printed to the second, no fraction of one (by the times they read: d3rlpy's
    `%H:%M.%S` prints a dot before its whole seconds)."""
    from .sets import to_timestamp

    try:
        return all(to_timestamp(t) % 1 == 0 for _, t in stamps)
    except ValueError:
        return all("." not in t and "," not in t[-7:] for _, t in stamps)


# how far one step's time, printed every `stride` steps, may stray from the stamps' gap over the stride: the step
# printed is the last of the stride, not their mean (an AverageMeter's `val`, hszhao/semseg util/util.py and its forks)
_ONE_STEP_SLACK = 0.1


def _stamped_time(rec: RecordShape, km: keymap_mod.KeyMap, m: FieldPlan, slot: Slot, stamp: int) -> FieldPlan:
    """A value under a key the key model does not know (`t`) that the line's own stamps show to be a time: in
    every pair of consecutive records it equals the seconds between their stamps, as a timer read and reset at each
    report does (irom-princeton/dppo agent/pretrain/train_diffusion_agent.py: log.info(f"{self.epoch}: train loss
    {loss_train:8.4f} | t:{timer():8.4f}") behind Hydra's '[%(asctime)s][%(name)s][%(levelname)s] - ', with
    util/timer.Timer returning the seconds since its previous call; the same `| t:{timer():8.4f}` ends the lines of
    its other agents and of their forks). It is the time of the steps between the records: read per step over the
    counter's stride where the records come at one stride, else left as it was. Gaps no longer than the stamps'
    resolution say nothing, and a key the model knows keeps its meaning."""
    if not m.kept or rec.counter is None or slot.unit not in (None, *_TIME_UNITS):
        return m
    for other in rec.slots:  # (a record that names its times says which is the step's)
        known = km.lookup(other.label, "step") if other.label and other is not slot else None
        if known is not None and known.column in ("step_time_s", "train_elapsed_s"):
            return m
    stamps = rec.series(stamp)
    coarse = _to_the_second(stamps)
    scale = keymap_mod.TIME.get(slot.unit or "s", 1.0)
    strides: set[int] = set()
    spans: set[bool] = set()  # per pair: the value timed the whole gap (True) or one step of it (False)
    matched = 0
    for k, stride, v in _rises(rec, slot.index):
        if v is None or not math.isfinite(v) or v <= 0:
            return m
        try:
            d = _gap(stamps, k)
        except ValueError:
            return m
        tol = max(0.02 * d, 1.0 if coarse else 0.05)
        if d <= 2 * tol:
            return m
        if abs(v * scale - d) <= tol:
            spans.add(True)
        elif stride > 1 and abs(v * scale * stride - d) <= max(_ONE_STEP_SLACK * d, tol):
            spans.add(False)
        else:
            return m
        matched += 1
        strides.add(stride)
    if matched < MIN_REPEATS - 1 or len(spans) != 1 or len(strides) != 1:
        return m
    mapping = km.lookup("time", "step")
    if mapping is None or mapping.column != "step_time_s":
        return m
    stride = strides.pop()
    if spans.pop():
        why = (
            f"a value under a key of no known quantity ({slot.label!r}) that equals the seconds between the stamps "
            f"of consecutive records: the time of the {stride} step(s) between them, read per step"
        )
        per = scale / stride
    else:
        why = (
            f"a value under a key of no known quantity ({slot.label!r}) that, times the {stride} steps between "
            "consecutive records, equals the seconds between their stamps: one step's time"
        )
        per = scale
    use = keymap_mod.KeyUse("step_time_s", "values", why, slot.unit or "s", per)
    return FieldPlan("step_time_s", scale=per, reason=why, use=use)


def _part_of_step(slot: Slot, clock: bool) -> FieldPlan:
    """A time of a step record that is not the step's time, kept as printed."""
    base, factor = keymap_mod.scaled_key(slot.label)
    column = keymap_mod.column_name("x_", base, slot.unit)
    reason = (
        "its values rise line after line: a clock, not the step's time"
        if clock
        else "a time within the step: a longer time of the line is the step's"
    )
    use = keymap_mod.KeyUse(column, "values", reason, slot.unit, factor)
    return FieldPlan(column, factor, kept=True, reason=reason, use=use)


# the most ranks whose lines are told apart by the rank they print (more: one line reads them all alike)
MAX_RANKS = 16


def _per_rank(rec: RecordShape, line: Table) -> list[Table]:
    """A step line that prints its rank (`rank 1: step 10/80 | loss ...`), one line per rank seen, each row with
    the values its line prints (resolving keeps the lowest rank's as the run's and another rank's apart:
    steps/merge.py ranks_apart), and a last line for ranks the sample did not see; else the line alone."""
    fields = line.get("fields", {})
    if line.get("kind") != "step" or "rank" not in fields or "(?P<rank>" not in line["regex"]:
        return [line]
    index = next(i for i, s in enumerate(rec.slots) if keymap_mod.normalize(s.label) in RANK_KEYS)
    ranks = sorted({int(v) for _, v in rec.series(index)})
    if len(ranks) < 2 or len(ranks) > MAX_RANKS:
        return [line]
    group = regex.search(r"\(\?P<rank>(?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)", line["regex"])
    assert group is not None
    out = []
    for k, r in enumerate(ranks):
        one = {**line, "name": line["name"] if k == 0 else f"{line['name']}_rank{r}"}
        one["regex"] = line["regex"][: group.start()] + f"(?P<rank>{r})" + line["regex"][group.end() :]
        out.append(one)
    return [*out, {**line, "name": f"{line['name']}_ranks"}]


@dataclass
class Block:
    """A record printed over lines, as its lines' fields are planned: the keys of all its lines (the context the
    key model reads each key in: which is the loss), and the columns its lines took so far."""

    keys: list[str]
    taken: set[str] = field(default_factory=set)
    # of several times over its lines, the step's (the longest, as for one line's): its line and slot
    step_time: tuple[int, int] | None = None


def _blocks(records: list[RecordShape], km: keymap_mod.KeyMap) -> dict[int, Block]:
    """For each line of a record printed over lines (its head and the lines that join it), the record's Block;
    its lines in the order they are printed, so a column goes to the first line that names it, but for the step's
    time: of the times its lines print, the longest (rsl_rl's 'Collection time:' and 'Learning time:' lines, then
    'Iteration time:', their sum), before a rate inverted (its 'Computation: 22428 steps/s' counts the
    environment's steps)."""
    lines: dict[int, list[RecordShape]] = defaultdict(list)
    for rec in records:
        if rec.kind == "block" and rec.head is not None:
            lines[id(rec.head)].append(rec)
    out: dict[int, Block] = {}
    for rec in records:
        if rec.kind == "step" and lines.get(id(rec)):
            members = sorted([rec, *lines[id(rec)]], key=lambda r: r.first)
            block = Block([s.label for m in members for s in m.slots if s.role == "value" and s.label])
            times = [
                (*t[:-1], id(m), t[-1])
                for m in members
                if not m.instead
                for t in _step_times(m, km, block.keys)[0]
            ]
            if times:
                block.step_time = max(times)[-2:]
            for m in members:
                out[id(m)] = Block(block.keys) if m.instead else block
    return out


def _same_key_same_column(
    records: list[RecordShape], planned: dict[int, tuple[Table, list[tuple[str, str, str]]]]
) -> None:
    """A key one step record keeps as printed where another step record of the log reads it into a column, with
    no unit of its own in either: the column in both, one key of one log meaning one thing (KGAT's first epoch
    prints `Epoch 0 [322.8s]: train==[434.85=...]` alone, its later epochs `train==[...]` beside the evaluation's
    metrics, where the rule that reads `train` as the loss holds)."""
    read: dict[str, str] = {}
    for k, rec in enumerate(records):
        if rec.kind == "step":
            for what, key, use in planned[k][1]:
                if what == "mapped" and not getattr(use, "unit", None):
                    read.setdefault(key, str(use))
    for k, rec in enumerate(records):
        if rec.kind != "step":
            continue
        line, used = planned[k]
        fields = line.get("fields", {})
        columns = {spec.get("column") for spec in fields.values()}
        for n, (what, key, use) in enumerate(used):
            column = read.get(key)
            if what != "kept" or column is None or column in columns or getattr(use, "unit", None):
                continue
            for spec in fields.values():
                if spec.get("column") == str(use) and set(spec) <= {"column", "type"}:
                    spec["column"] = column
                    why = f"read as {column} where the log's other step line prints {key!r}"
                    used[n] = ("mapped", key, keymap_mod.KeyUse(column, "values", why))
                    columns.add(column)
                    break


def build_table(
    records: list[RecordShape],
    km: keymap_mod.KeyMap,
    saves: Sequence[SampledShape] = (),
    announced: Sequence[SampledShape] = (),
    counts: Sequence[tuple[SampledShape, str, str]] = (),
) -> tuple[Table, dict[str, list[tuple[str, str, str]]]]:
    """The pattern set's table of the records, and the keys each line maps (line name -> (what, key, column))."""
    lines: list[Table] = []
    samples: list[Table] = []
    names: set[str] = set()
    keys: dict[str, list[tuple[str, str, str]]] = {}
    given: list[str] = []
    for k, rec in enumerate(records):
        base = {"step": "step", "eval": "eval", "eval_free": "eval", "block": "block", "marker": "epoch"}[
            rec.kind
        ]
        given.append(base if base not in names else f"{base}_{k + 1}")
        names.add(given[-1])
    blocks = _blocks(records, km)
    order = sorted(range(len(records)), key=lambda k: records[k].first if id(records[k]) in blocks else -1)
    planned: dict[int, tuple[Table, list[tuple[str, str, str]]]] = {}
    for k in order:  # (a block's lines in print order: the first line that names a column takes it)
        planned[k] = _line_table(records[k], given[k], km, blocks.get(id(records[k])))
    _same_key_same_column(records, planned)
    for k, rec in enumerate(records):
        line, used = planned[k]
        keys[line["name"]] = used
        for one in _per_rank(rec, line):
            lines.append(one)
            if one is not line:
                names.add(one["name"])
                keys[one["name"]] = used
        samples.append({"line": rec.shapes[0].examples[0][1], "pattern": line["name"]})
    epochs_counted = any(
        rec.kind == "step" and rec.counter is not None and _epoch_named(rec.slots[rec.counter].label)
        for rec in records
    )
    for k, sh in enumerate(saves):
        name = "checkpoint" if k == 0 else f"checkpoint_{k + 1}"
        lines.append(_save_line(sh, name, epochs_counted))
        samples.append({"line": sh.examples[0][1], "pattern": name})
    for k, sh in enumerate(announced):
        name = "evaluation" if k == 0 else f"evaluation_{k + 1}"
        lines.append(_event_line(sh, name, "eval", len(sh.examples[0][1])))
        samples.append({"line": sh.examples[0][1], "pattern": name})
    for k, (sh, fact, prefix) in enumerate(counts):
        name = "parameters" if k == 0 else f"parameters_{k + 1}"
        count = r"(?P<count>\d{1,3}(?:,\d{3})+|\d+)(?![\d.])"
        lines.append(
            {
                "name": name,
                "kind": "config",
                "regex": "^" + regex.escape(prefix) + count,
                "fields": {"count": {"column": fact, "type": "int"}},
            }
        )
        samples.append({"line": sh.examples[0][1], "pattern": name})
    table = {
        "format": {
            "name": NAME,
            "title": TITLE,
            "description": "inferred from the log",
            "role": "fallback",
            "detect": ["(?!)"],
        },
        "line": lines,
        "sample": samples,
    }
    return table, keys


def to_set(inferred: Inferred, generic: PatternSet | None, keep_names: bool = False) -> PatternSet:
    """The inferred reading as a pattern set: its record lines first, then the generic set's own lines (its
    tqdm bar, its step regex for lines of shapes the sample did not see, its config lines)."""
    ps = parse_pattern_set(inferred.table, "<inferred from the log>", validate=False)
    for spec in ps.lines:
        spec.trusted_chars = TRUSTED_CHARS
        spec.key_uses = tuple(inferred.keys.get(spec.name, ()))
        # every line of one kind goes by one name, as the generic set's one step line did: the rows of all its
        # shapes are one stream of steps (steps/segments.py), and the summary says each note once
        if not keep_names:
            spec.name = spec.name.split("_")[0]
    if generic is not None:
        # where the records are a bar's, its frames differ in shape as it is drawn (`?it/s` before tqdm has a
        # rate): the generic bar line reads any frame the inferred lines did not take
        on_bar = any(line["name"].startswith("tqdm") for line in inferred.table["line"])
        for spec in generic.lines:
            if spec.kind == "step":  # its tqdm bar and step regex: for lines of shapes the sample did not see
                spec = Unseen.of(spec, frozenset() if on_bar and spec.postfix else inferred.seen)
            ps.lines.append(spec)
        ps.detect = generic.detect
        ps.detect_literals = generic.detect_literals
        ps.source_file = generic.source_file
        ps.trusted = generic.trusted
    ps.title = TITLE
    return ps


# What every line the generic set's step lines read holds (patterns/generic.toml: its step regex's counter, its
# tqdm regex's bar), found by the standard module's engine: most lines a log's noise is made of lack it, and the
# check costs a microsecond where the generic regex costs twenty
_GENERIC_NEEDS = {
    "step": re.compile(
        r"(?i)(?:global_step|num_updates|updates?|step|iter|iteration|it)['\"]?\s*(?:[:=#]\s*|\s+)\d"
    ),
    "tqdm": re.compile(r"\d%\|"),
}


@dataclass
class Unseen(LineSpec):
    """A step line of the generic set, for lines of a shape the sample did not see (a large log's later lines)."""

    seen: frozenset[str] = frozenset()
    needs: re.Pattern[str] | None = None

    @classmethod
    def of(cls, spec: LineSpec, seen: frozenset[str]) -> Unseen:
        out = cls.__new__(cls)
        out.__dict__.update(spec.__dict__)
        out.seen = seen
        out.needs = _GENERIC_NEEDS.get(spec.name)
        out._layouts = {}
        return out

    def match(self, text: str, layout: str | None = None) -> LineValues | None:
        if self.needs is not None and self.needs.search(text) is None:
            return None
        literals, kinds, _ = tokens(unglued(text.strip()))
        if shape_key(literals, kinds) in self.seen:
            return None
        return super().match(text, layout)


# ------------------------------------------------------------------------------------------------
# the sample of a file


def file_sample(path: str | Sequence[str], head: list[Record]) -> Iterator[list[Record]]:
    """The head's records, then slices of the rest of the file (file_slices)."""
    yield head
    yield from file_slices(path, head)


def file_slices(path: str | Sequence[str], head: list[Record]) -> Iterator[list[Record]]:
    """Slices of a plain file after its `head` (SAMPLE_SLICES of SLICE_BYTES, spread evenly over the rest), each
    cut at line ends; none of a compressed file."""
    paths = [path] if isinstance(path, str) else list(path)
    for p in paths:
        if compression(p):
            continue
        try:
            size = os.path.getsize(p)
        except OSError:
            continue
        start = _head_bytes(head) if p == paths[0] else 0
        room = size - start
        if room <= SLICE_BYTES * 2:
            continue
        for k in range(1, SAMPLE_SLICES + 1):
            at = start + room * k // (SAMPLE_SLICES + 1)
            records = _slice(p, at)
            if records:
                yield records


def _head_bytes(head: list[Record]) -> int:
    return sum(len(r.text.encode("utf-8", "replace")) + 1 for r in head)


def _slice(path: str, at: int) -> list[Record]:
    import io

    try:
        fh, _, _ = open_checked(path)
    except Exception:  # (read as the head was: an error here is said when the whole file is read)
        return []
    try:
        fh.seek(at)
        data = fh.read(SLICE_BYTES)
    finally:
        fh.close()
    start = data.find(b"\n") + 1
    end = data.rfind(b"\n") + 1
    if start <= 0 or end <= start:
        return []
    return list(islice(stream_records(io.BytesIO(data[start:end]), path, ReadStats()), 10_000))  # type: ignore[arg-type]
