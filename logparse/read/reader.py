"""Reader: turn a (possibly compressed) log file into clean text records, streaming.

One physical line may hold several records: tqdm redraws its bar with a carriage return, so
``a\\rb\\rc\\n`` yields ``a``, ``b`` and ``c``, all carrying the physical line number. Launcher
prefixes (``[default3]:``, ``[rank0]:``, ``0: ``, ``gpu17: ``) are peeled into ``rank``/``host``
and ANSI colour codes are removed, so patterns see the text the framework printed.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import io
import lzma
import os
import re
import stat
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice
from typing import Any, NamedTuple

import regex

from ..core.errors import LogparseError, NotText

CHUNK_BYTES = 1 << 20  # bytes read (and decoded) at a time
# A line longer than this is cut: what the reader holds of one line is at most this plus one chunk,
# whatever the line, so memory is a few MB per reader. 1 Mi characters is far above any training-log line (the
# longest real ones, a Megatron argument dump joined on one line or a DeepSpeed config dict, are tens of KB)
# and small against memory; the rest of the line is skipped a chunk at a time, as bytes, until its newline.
MAX_RECORD_CHARS = 1 << 20
# What patterns get to see of an over-long record (its first characters: a step line's values are at its
# start; a regex run on 1 MB would cost more than the whole rest of a log).
MATCH_CHARS = 1 << 16

# A control sequence with parameters ends at any final byte; one without parameters only at the finals
# terminals and progress bars use (cursor moves, erase, colour). A sequence cut short (a rich table row
# truncated at "\x1b[") followed by text keeps the text: "\x1b[Training epoch 0, ..." is not "\x1b[T" + "raining"
# (CloudAI's NeMo-Run fixture has exactly that line).
_ANSI = regex.compile(
    r"\x1b\[[0-9;?]+[ -/]*[@-~]|\x1b\[[ -/]*[ABCDEFGHJKSfhlmnsu]|\x1b\[|\x1b[()][A-Za-z0-9]|\x1b[=>]"
)
# Colour codes whose ESC byte was lost on the way (seen in pasted logs: "[[32m20251202 ..."). The reset without a
# number, "[m", only on a line that holds a numbered one: alone it is as likely a bracket opening a key ("[mem: ...").
_ANSI_REMNANT = regex.compile(r"\[\d{1,3}(?:;\d{1,3})*m(?=\S|$)")
_RESET_REMNANT = regex.compile(r"\[m(?=\S|$)")
# What every remnant contains ("[" digits/semicolons "m"): a cheap test before the exact substitution.
_MAYBE_REMNANT = re.compile(r"\[[\d;]*m")
# torchrun --tee: [default3]:, [rank0]:; the "[trainer0|0]:" of jobs started by torchx (pytorch/torchtune PR #2620's
# multi-node log) is peeled the same way, the rank taken from the number before the "|"
_ROLE_RANK = r"\[(?P<role>[A-Za-z_]*?)(?P<rank>\d+)"
_RANK_PREFIX = regex.compile("^" + _ROLE_RANK + r"(?:\|\d+)?\]:")
# torchrun's own form alone (no torchx "|N"): the one prefix fastlane.own_text peels itself
TORCHRUN_PREFIX = re.compile(_ROLE_RANK + r"\]:")
# srun --label: the task id right-aligned to the width of the largest one, " 0: " ... "15: " with 16 tasks (slurm's
# _build_label: xstrfmtcat(buf, "%*d: ", task_id_width, task_id)), so at most 5 spaces and digits before ": "
_SLURM_PREFIX = regex.compile(r"^(?=[ \d]{1,5}: ) *(?P<rank>\d+): ")
# ... the same at the start of each line of a file's head, as bytes: (padding, digits) of each
_HEAD_LABELS = re.compile(rb"^(?=[ \d]{1,5}: )( *)(\d+): ", re.MULTILINE)
# A line-leading "N: " is not always srun's label: programs print their own counter so (darknet's
# "75: 625.195312, 517.632019 avg, ...", CatBoost's "87:\tlearn: ..."). How a file's leading labels run through its
# head tells the two apart (leading_counters); this many are weighed, at most.
HEAD_LABELS = 2000
_MPI_PREFIX = regex.compile(r"^\[1,(?P<rank>\d+)\]<std(?:out|err)>:\s?")  # mpirun --tag-output
# pdsh/deepspeed multi-node: "gpu250: [2023-..." or "192.168.50.170: {'loss': ...}"; a host name
# must contain a digit so that "WARNING: ..." or "loss: 1.2" are never taken for one.
_HOST_PREFIX = regex.compile(r"^([A-Za-z0-9][\w.-]*\d[\w.-]*): (?=[\[{\s])")
# pdsh also prefixes lines that start with a letter ("node-17: step    1/74 | loss ...", "ip-10-0-0-5: Epoch 1/2"):
# there the name must look like a host's, with a "-" or "." and a digit (node-17, ip-10-0-0-5, 10.0.0.5), and not
# like a counter a script prints itself ("step-10: loss 2.3", "Epoch-1: ...", a date "2024-01-05: ").
_NAMED_HOST = regex.compile(
    r"^(?!(?i:epoch|step|iter|iteration|batch|rank|ep|it|e)[-._]?\d)"
    r"((?=[\w.-]*[.-])(?=[\w.-]*\d)(?:(?=[\w.-]*[A-Za-z])[A-Za-z0-9][\w.-]*|\d{1,3}(?:\.\d{1,3}){3})): (?=\S)"
)
# Any of the prefixes above, loosely (a superset, one `re` match): fastlane.own_text sends a line that may carry
# one the reader's way. Kept here, beside the exact ones, so that a new prefix changes both.
ANY_PREFIX = re.compile(
    r"\[[A-Za-z_]*?\d+(?:\|\d+)?\]:|\[1,\d+\]<std(?:out|err)>:|(?=[ \d]{1,5}: ) *\d+: |[A-Za-z0-9][\w.-]*\d[\w.-]*: "
)


def may_be_prefixed(text: str) -> bool:
    """Whether a launcher prefix can start `text`: each starts with "[", a digit, or a letter before ": ", or
    with the spaces that right-align an srun label. A cheap test before the prefix regexes."""
    first = text[:1]
    if first == " ":
        first = text[:5].lstrip()[:1]
    return first == "[" or first.isdigit() or (first.isalnum() and ": " in text)


def counter_lead(text: str) -> bool:
    """Whether `text` starts as srun --label's task id would, `N: `: in a file whose such labels are counters
    (leading_counters) the reader keeps it, and no launcher prefix is peeled off the line."""
    return _SLURM_PREFIX.match(text) is not None


def leading_counters(head: bytes) -> bool:
    """Whether the `N: ` that starts lines of a file whose first bytes are `head` is the program's own counter (kept
    in the record's text), not srun --label's task id (peeled as the rank). srun repeats a small set of task ids,
    the same ones over and over, interleaved, all padded to one width (slurm's "%*d: "), and the lines of its
    ranks are numbered 0, 1, 2, ... ; a counter rises from line to line, a value each line or two (a restart
    may start it again), and its width grows with it unpadded ("9: ", "10: ") or it starts past 0 ("75: ").
    Labels that could be either (fewer than three; one line per task in task order) stay ranks."""
    labels = [m.groups() for m in islice(_HEAD_LABELS.finditer(head), HEAD_LABELS)]
    if len(labels) < 3:
        return False
    values = [int(digits) for _, digits in labels]
    ups = downs = same = 0
    for before, after in zip(values, values[1:], strict=False):
        if after > before:
            ups += 1
        elif after < before:
            downs += 1
        else:
            same += 1
    # srun's interleaved ranks go back to a smaller id all the time; a run that prints mostly one rank repeats it
    if downs > max(1, len(values) // 50) or ups < 2 or 2 * ups < same:
        return False
    # one line of each task in task order: ids 0..k in one padded width, as srun writes them
    widths = {len(pad) + len(digits) for pad, digits in labels}
    return not (len(widths) == 1 and set(values) == set(range(max(values) + 1)))


# A tqdm bar left unfinished (redrawn with \r, no newline) and a Python logging record written next on the same
# stream, glued onto it: "... 9/30 [00:00<00:01, 20.12it/s]12/01/2026 19:50:08 - INFO - __main__ - ..." (an
# accelerate loop logging beside its bar with the examples' basicConfig, datefmt "%m/%d/%Y %H:%M:%S", or logging's
# default asctime "%Y-%m-%d %H:%M:%S,mmm"; or torchtune's records in logging's default format, "...| 14/14 [00:00<00:00,
# 38.08it/s]INFO:torchtune.utils._logging:Model checkpoint of size ..."). tqdm/std.py format_meter ends the bar with "[{elapsed}<{remaining},
# {rate_fmt}{postfix}]". The reader cuts after the bar so the record reads as it was printed. Only there: the
# records some sets read glued to their bar (HF's dict "{'loss': ...}") start otherwise and stay as they are.
# torchtune's StdoutLogger line ("Step 12 | loss:..."; torchtune/training/metric_logging.py log_dict) is printed on
# stdout right after the bar (stderr) is redrawn with "E|12|Loss: ..." (recipes/full_finetune_single_device.py):
# glued to the redraw of its own step it stays one record (the patterns read it as the Step line); glued to the
# redraw of another step it is the first line of a block that block-buffered stdout wrote later (a file or a
# pipe), and both are records, the bar's step kept (the line of that step may be the one the block cut off).
GLUED_BAR = regex.compile(
    r"(?>(?<=\|(?P<bar_step>\d+)\|Loss: [^|]*\|[^|]*)|)"  # torchtune's bar names its step (atomic: kept once found)
    r"\| *\d+/\d+ \[[\d:]+<[\d:?]*, *(?:[\d.]+|\?)(?:it/s|s/it)[^\]\[]*\]"
    # (tqdm pads a frame shorter than the one before with blanks to cover it: `27.08s/it] 08/02/2024 ...` in
    # allenai/OLMoE's open-instruct SFT log; they are the bar's)
    # (or any logger's ISO date and time of day, the seconds after a colon or a dot: d3rlpy's structlog records,
    # "2026-12-07 14:17.12 [info     ] Model parameters are saved to ...", written beside fit_online's bar)
    r" *(?=\d\d/\d\d/\d{4} \d\d:\d\d:\d\d - |\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - "
    r"|\d{4}-\d\d-\d\d[ T]\d\d:\d\d[:.]\d\d(?![\d:])"
    r"|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]+:"  # logging's BASIC_FORMAT "%(levelname)s:%(name)s:%(message)s"
    # rich's RichHandler (Colossal-AI's logger): "[08/30/23 07:08:13] INFO     colossalai - ...". Its record
    # usually wraps, so only its head is glued to the bar and nothing there is read; on a wide terminal the
    # whole record is, "Step time: 19.2" and all (hpcaitech/ColossalAI#4551's benchmark.py)
    r"|\[\d\d/\d\d/\d\d \d\d:\d\d:\d\d\] +(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) "
    # a logger's bracketed stamp, "[%(asctime)s]..." (argonne-lcf/wordplay's ezpz logger: "[2024-04-02
    # 01:59:46][INFO][trainer:837] - step=5 loss=3.6606 ...")
    r"|\[\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d"
    # or the bar's next frame, its \r lost (a description, its percentage and the bar's body), where the frame
    # draws a postfix (its values a step's own; frames with none are the bar's progress, kept together)
    r"|(?<==[^\[\]\n]*\])[^\n|\[\]]{0,60}?\d{1,3}%\|"
    r"|Step (?!(?P=bar_step) \|)\d+ \| [A-Za-z_]"
    # (or a loop's bare `{i}: {loss}`, lucidrains/x-transformers train_copy.py's print(f'{i}: {loss.item()}')
    # inside its tqdm loop, written before the bar's first frame has a newline)
    r"|\d+: [-+]?\d+\.\d+$"
    # or, after a frame with no postfix, a message of its own after blanks, `key: value` or `key=value` first (a
    # loop's tqdm.write() or print() beside its bar in a log that lost the bar's \r: r1407p/SAM4MLLM's
    # f"loss: {...:.4f}, lr: {...:.6f}, global_step: {global_step}"), or glued to the frame in a bracket of its own
    # (yangdongchao/AcademiCodec's logger '<epoch:{:d}, iter:{:d}, total_loss_g:{:.4f}, ...>' after its bar's `]`)
    r"|(?<=(?:it/s|s/it)\])(?:\s+|[<(](?=[A-Za-z_]))[A-Za-z_][\w/. -]{0,40}?[:=] ?[-+]?\.?\d"
    # or a loop's print glued to a frame with no postfix, a capitalized word and its number first: "...
    # 30.90it/s]Epoch 3 Batch 7000 Loss nan Accuracy 0.2587" in a log of white-wolf-tech/gpt2-chinese-tf2, its
    # print(f"Epoch {e} Batch {b} Loss {l} Accuracy {a}") after a tqdm frame that did not end its line (torchtune's
    # `Step N | ...` glued to its own bar's redraw stays one record: the alternative above)
    # (two words before it as well: KevinCarpricorn/EchoAlign's print(f"Train Loss: {loss:.6f}, Acc: {acc:.6f}%")
    # after its epochs' bar)
    # (or the word, its number and a colon, a record's heading: SpaceLearner's graph recommender, its
    # src/utils/train.py: tqdm over the epochs, then print(f'Epoch {epoch}: MRR = {mrr:.3f}%, Hit = {hit:.3f}%'),
    # glued or after the bar's blanks)
    r"|(?<=(?:it/s|s/it)\])[A-Z][A-Za-z]+(?: [A-Z]?[a-z]+)?:? \d+(?:\.\d+)?(?:,| (?!\|))"
    r"|(?<=(?:it/s|s/it)\] *)[A-Z][A-Za-z]+ \d+: [A-Za-z])"
)

# A bar that prints its clock alone (`{n_fmt}/{total_fmt} [{elapsed}]`, umap-learn's bar_format in umap/layouts.py)
# with a program's tab-led print glued after it: tqdm never writes a tab, so there the program's own line starts
# ("... 42/500 [00:03]\tcompleted  50  /  500 epochs", umap's print beside its bar when the bar's \r ends no line).
_GLUED_AFTER_CLOCK = re.compile(r"\|[^|\t]{0,200}? \d+/\d+ \[[\d:]+\](?=\t)")


def glued_at(text: str) -> int | None:
    """Where a record glued to the end of a progress bar's frame starts (GLUED_BAR, _GLUED_AFTER_CLOCK); None
    where no record is glued to a frame."""
    if "]" not in text:
        return None
    if "<" in text and (glued := GLUED_BAR.search(text)) is not None:
        return glued.end()
    if "\t" in text and (glued := _GLUED_AFTER_CLOCK.search(text)) is not None:
        return glued.end()
    return None


class Record(NamedTuple):
    """One clean text record of the log (a tuple: made for every line, it must be cheap)."""

    line: int  # 1-based physical line number in the (decompressed) file
    text: str
    rank: int | None = None
    host: str | None = None


@dataclass
class ReadStats:
    """What the reader saw, for the line accounting in summary.json."""

    physical_lines: int = 0
    records: int = 0
    blank: int = 0
    overlong: int = 0
    replaced_chars: int = (
        0  # U+FFFD inserted for invalid UTF-8 (not counted in the skipped part of a cut line)
    )
    nul_prefix_bytes: int = 0  # NUL bytes skipped at the start of a file (what copytruncate rotation leaves)
    # NUL bytes skipped after the first line (a hole a crash or a rotation left inside the log), and the line
    # the first of them was on
    nul_bytes: int = 0
    nul_line: int | None = None
    # compressed files whose stream stopped before its end (cut while written or copied, or damaged): each
    # "path: why", read up to there
    stopped: list[str] = field(default_factory=list)
    # The last record of a last line that has no newline (a log cut mid-line: a job killed while its output was
    # being written, a file copied while written): its last value may be cut (frame.py flags it). None: the
    # file ends with a newline.
    unterminated: Record | None = None


def _open_binary(path: str) -> io.BufferedIOBase:
    if not os.path.exists(path):
        raise LogparseError(f"{path}: no such file")
    if os.path.isdir(path):
        raise LogparseError(f"{path}: is a directory; give a log file (or use `logparse batch DIR`)")
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise LogparseError(f"{path}: cannot open ({exc.strerror})") from None
    if not stat.S_ISREG(mode):
        # A named pipe (or a socket, a terminal) can be read only once, and a log is read at least twice
        # (detection, then the values): standard input is spooled to a file for that (cli.py). Refused before
        # opening it: opening a FIFO without a writer blocks, and reading it here would take its data.
        raise LogparseError(
            f"{path}: not a regular file (a pipe?); read it as a stream: logparse analyze - < {path}"
        )
    try:
        raw = open(path, "rb")
    except OSError as exc:
        raise LogparseError(f"{path}: cannot open ({exc.strerror})") from None
    kind = _compression(raw.read(6))
    raw.seek(0)
    if kind in ("gzip", "bzip2", "xz"):
        raw.close()
        opener = {"gzip": gzip.GzipFile, "bzip2": bz2.BZ2File, "xz": lzma.LZMAFile}[kind]
        return _UpToStop(lambda: opener(path, "rb"))
    if kind == "zstd":
        try:
            import zstandard
        except ImportError:
            raw.close()
            raise LogparseError(
                f"{path}: is zstd-compressed; install the optional package: pip install 'logparse[zstd]'"
            ) from None
        return _ZstdFrames(raw, zstandard)
    return raw  # type: ignore[return-value]


# Why a compressed stream stopped before its end
_CUT = "the compressed stream ends before its end marker (a file cut while it was written or copied)"


class _UpToStop(io.RawIOBase):
    """A gzip, bzip2 or xz file read until its stream ends, or stops: a file cut mid-stream (EOFError) or damaged
    gives what it held before that point, and `stopped` says why (None: read to its end). It is read as the
    library reads it; when a read fails, what that read had decompressed is lost with it, so the file is read
    again up to where the failed read began, then on a buffer at a time (read1), up to the point."""

    def __init__(self, opener: Callable[[], io.BufferedIOBase]) -> None:
        self.opener = opener
        self.fh = opener()
        self.at = 0  # bytes given so far
        self.careful = False
        self.stopped: str | None = None

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        if self.stopped is not None:
            return b""
        if not self.careful:
            try:
                data = self.fh.read(n)
            except _BROKEN:
                self.fh.close()
                self.fh, self.careful = self.opener(), True
                self._skip(self.at)
            else:
                self.at += len(data)
                return data
        return self._careful(n)

    def _skip(self, n: int) -> None:
        while n > 0 and self.stopped is None:
            n -= len(self._careful(min(n, CHUNK_BYTES)))

    def _careful(self, n: int) -> bytes:
        parts: list[bytes] = []
        got = 0
        while self.stopped is None and (n < 0 or got < n):
            try:
                # (a MiB at most: read1 allocates what it is asked for)
                piece = self.fh.read1(min(n - got, CHUNK_BYTES) if n > 0 else CHUNK_BYTES)
            except EOFError:
                self.stopped = _CUT
                break
            except _BROKEN as exc:
                self.stopped = f"the compressed stream is damaged ({exc})"
                break
            if not piece:
                break
            parts.append(piece)
            got += len(piece)
        self.at += got
        return b"".join(parts)

    def close(self) -> None:
        self.fh.close()
        super().close()


# What a decompressing reader raises where its stream stops: cut (EOFError) or damaged
_BROKEN = (EOFError, OSError, zlib.error, lzma.LZMAError)


class _ZstdFrames(io.RawIOBase):
    """A zstd file read frame after frame (zstd concatenates frames: `cat a.zst b.zst`, pzstd's output), until
    its input ends; a frame the input ends inside was cut (`stopped` says so, what it held before is given). The
    compressed input is fed a little at a time: a zstd block can stand for 32,768 times its size (a run of one
    byte), so what one feed gives is bounded (32 MiB)."""

    FEED = 1 << 10

    def __init__(self, raw: io.BufferedReader, zstandard: Any) -> None:
        self.raw = raw
        self.zstandard = zstandard
        self.frame = zstandard.ZstdDecompressor().decompressobj()
        self.fed = False  # input went into the current frame
        self.pending = b""  # input after the end of a frame, for the next one
        self.out = b""
        self.stopped: str | None = None
        self.done = False

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        want = CHUNK_BYTES if n < 0 else n
        parts = [self.out] if self.out else []
        got = len(self.out)
        self.out = b""
        while got < want and not self.done:
            piece = self.pending or self.raw.read(self.FEED)
            self.pending = b""
            if not piece:
                self.done = True
                if self.fed and not self.frame.eof:
                    self.stopped = _CUT
                break
            try:
                data = self.frame.decompress(piece)
            except self.zstandard.ZstdError as exc:
                self.stopped, self.done = f"the compressed stream is damaged ({exc})", True
                break
            self.fed = True
            if self.frame.eof:  # the next frame starts with what this one left
                self.pending = self.frame.unused_data
                self.frame = self.zstandard.ZstdDecompressor().decompressobj()
                self.fed = False
            parts.append(data)
            got += len(data)
        if got > want:  # (only the last piece is cut: what is past `want` waits for the next read)
            last = parts.pop()
            keep = len(last) - (got - want)
            parts.append(last[:keep])
            self.out = last[keep:]
        return b"".join(parts)

    def close(self) -> None:
        self.raw.close()
        super().close()


def _compression(magic: bytes) -> str | None:
    """The compression a file's first six bytes announce (None: plain text)."""
    for name, mark in (
        ("gzip", b"\x1f\x8b"),
        ("bzip2", b"BZh"),
        ("xz", b"\xfd7zXZ\x00"),
        ("zstd", b"\x28\xb5\x2f\xfd"),
    ):
        if magic.startswith(mark):
            return name
    return None


def compression(path: str) -> str | None:
    """The compression of the file at `path` (None: plain text, or unreadable)."""
    try:
        with open(path, "rb") as fh:
            return _compression(fh.read(6))
    except OSError:
        return None


# A text log may hold a hole of NUL bytes (a crash or a rotation left it: the writer went on at its old offset);
# a binary file, or UTF-16 text, holds NULs everywhere: more separate runs of them than this in its head
MAX_NUL_RUNS = 4
_NUL_RUN = re.compile(rb"\x00+")


def _looks_binary(head: bytes) -> bool:
    if not head:
        return False
    if b"\x00" in head:
        if len(_NUL_RUN.findall(head, 0, len(head))) > MAX_NUL_RUNS:
            return True
        head = head.replace(b"\x00", b"")
        if not head:
            return False
    # Control bytes other than tab/newline/CR/ESC/backspace/form feed are rare in logs.
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 13, 27, 8, 12))
    return controls > len(head) * 0.05


def clean_text(text: str, counters: bool = False) -> tuple[str, int | None, str | None]:
    """Strip ANSI codes and launcher prefixes; return (text, rank, host). `counters`: a line-leading `N: ` is
    the program's counter, kept in the text (leading_counters)."""
    return _clean(text, counters)[0]


def _clean(text: str, counters: bool = False) -> list[tuple[str, int | None, str | None]]:
    """Strip ANSI codes and launcher prefixes, and split where another rank's prefix starts mid-line
    (`counters`: a leading `N: ` is no srun label but the record's own counter, leading_counters).

    torchrun --tee writes each rank's stdout and stderr from separate threads, so an unfinished
    tqdm bar of one stream and the next record land on one physical line:
    ``[default0]: 10%|# | 4/40 [00:00<00:01, 23.01it/s][default0]:{'loss': ...}``.
    """
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "[" in text and _MAYBE_REMNANT.search(text):
        text, colours = _ANSI_REMNANT.subn("", text)
        if colours:
            text = _RESET_REMNANT.sub("", text)
    if "\b" in text:
        text = _backspaced(text)
    rank: int | None = None
    host: str | None = None
    role: str | None = None
    glued = glued_at(text)
    if glued is not None:
        return [*_clean(text[:glued], counters), *_clean(text[glued:], counters)]
    if not may_be_prefixed(text):
        return [(text.rstrip(), None, None)]  # no launcher prefix can start here
    labelled = False  # srun's label was peeled: srun writes one a line, so an `N: ` after it is the text's
    for _ in range(3):  # prefixes can stack: "gpu3: [default1]: ..."
        if (counters or labelled) and counter_lead(text):
            break  # the record starts with its counter (nor is "87" a pdsh host)
        m = _RANK_PREFIX.match(text)
        if m:
            role = m.group("role")
        m = m or _MPI_PREFIX.match(text)
        if m is None and (m := _SLURM_PREFIX.match(text)) is not None:
            labelled = True
        if m:
            rank = int(m.group("rank"))
            text = text[m.end() :]
            continue
        m = _HOST_PREFIX.match(text) or _NAMED_HOST.match(text)
        if m and host is None:
            host = m.group(1)
            text = text[m.end() :]
            continue
        break
    if role is not None and f"[{role}" in text:
        again = _role_prefix(role).search(text)
        if again is not None and again.start() > 0:
            head = (text[: again.start()].rstrip(), rank, host)
            return [head, *_clean(text[again.start() :], counters)]
    return [(text.rstrip(), rank, host)]


def _backspaced(text: str) -> str:
    """What a terminal shows of a text with backspaces: each moves the cursor one column back, and the
    characters after it overwrite. Keras's progress bar starts every redraw with "\\b" * (previous width)
    and "\\r", also when stdout is a file (keras/src/utils/progbar.py, Progbar.__init__: _dynamic_display is
    true whenever "posix" is in sys.modules; Progbar.update), so each redraw the reader splits at "\\r" ends
    in backspaces that erase nothing."""
    text = text.rstrip("\b")
    if "\b" not in text:
        return text
    out: list[str] = []
    pos = 0
    for ch in text:
        if ch == "\b":
            pos = max(0, pos - 1)
        elif pos < len(out):
            out[pos] = ch
            pos += 1
        else:
            out.append(ch)
            pos += 1
    return "".join(out)


@lru_cache(maxsize=64)
def _role_prefix(role: str) -> regex.Pattern:
    return regex.compile(r"\[" + regex.escape(role) + r"\d+(?:\|\d+)?\]:")


def describe(path: str | Sequence[str]) -> str:
    """A log's path for messages; several files (one stream) joined with +."""
    return path if isinstance(path, str) else " + ".join(path)


def read_records(path: str | Sequence[str], stats: ReadStats | None = None) -> Iterator[Record]:
    """Yield the clean records of a log file; memory stays bounded whatever the file size. Several files
    (the attempts of one job, in the order they ran) are read as one stream, line numbers continuing."""
    stats = stats if stats is not None else ReadStats()
    if not isinstance(path, str):
        for one in path:
            yield from read_records(one, stats)
        return
    fh, first, skipped = open_checked(path)
    stats.nul_prefix_bytes += skipped
    try:
        yield from stream_records(fh, path, stats, first)
    finally:
        fh.close()
    note_stop(fh, path, stats)


def note_stop(fh: io.IOBase, path: str, stats: ReadStats) -> None:
    """Say in `stats` that a compressed file's stream stopped before its end (it was read up to there)."""
    stopped = getattr(fh, "stopped", None)
    if stopped is not None:
        stats.stopped.append(f"{path}: {stopped}")


def open_checked(path: str) -> tuple[io.BufferedIOBase, bytes, int]:
    """The file opened for reading (decompressing), with its first bytes read past any NUL bytes it starts
    with, and how many those were: `logrotate`'s copytruncate leaves a log that goes on being written from
    its old offset, so the file starts with a hole of NULs. Refused with one line when it is
    missing, empty, binary or cannot be decompressed."""
    fh = _open_binary(path)
    skipped = 0
    try:
        first = fh.read(CHUNK_BYTES)
        while first and not first.strip(b"\x00"):  # a chunk of NULs only: read on, a chunk at a time
            skipped += len(first)
            first = fh.read(CHUNK_BYTES)
        if first.startswith(b"\x00"):
            lead = len(first) - len(first.lstrip(b"\x00"))
            skipped += lead
            first = first[lead:]
    except (OSError, EOFError, lzma.LZMAError) as exc:
        fh.close()
        raise LogparseError(f"{path}: cannot decompress ({exc})") from None
    if not first:
        stopped = getattr(fh, "stopped", None)
        fh.close()
        if stopped is not None:
            raise LogparseError(f"{path}: cannot decompress: {stopped}, before its first line")
        raise NotText(path, "the file is empty" + (f" (but {skipped:,} NUL bytes)" if skipped else ""))
    if _looks_binary(first[:8192]):
        fh.close()
        raise NotText(path, "looks like a binary file, not a text log")
    if b"\n" not in first and b"\r" in first:
        # Lines that end in a bare carriage return (a classic Mac file, a log passed through `tr`): no newline in
        # the first MiB, so the \r is no progress bar's redraw inside a line but the line's end. Read as newlines
        # (each \r and \r\n one line end), every reader downstream splits and numbers the lines as for \n: kept
        # as one line, the whole file was one "line" with every record on it (its records joined line to line in
        # quadratic time and memory, its restarts unplaceable)
        cr = _BareCR(fh)
        return cr, cr.translate(first), skipped  # type: ignore[return-value]
    return fh, first, skipped


class _BareCR(io.RawIOBase):
    """A stream whose lines end in a bare \r, read with each \r and \r\n made one \n."""

    def __init__(self, fh: io.IOBase) -> None:
        self.fh = fh
        self.after_cr = False  # the last byte given was a \r: a \n first in the next read is its pair

    def readable(self) -> bool:
        return True

    def translate(self, data: bytes) -> bytes:
        if self.after_cr and data.startswith(b"\n"):
            data = data[1:]
        if data:
            self.after_cr = data.endswith(b"\r")
        return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")

    def read(self, n: int = -1) -> bytes:
        while True:
            data = self.fh.read(n)
            if not data:
                return b""
            out = self.translate(data)
            if out:  # (a read of the \n of a \r\n alone gives nothing: read on)
                return out

    @property
    def stopped(self) -> str | None:
        return getattr(self.fh, "stopped", None)

    def close(self) -> None:
        self.fh.close()
        super().close()


def stream_records(
    fh: io.BufferedIOBase,
    path: str,
    stats: ReadStats,
    first: bytes | None = None,
    counters: bool | None = None,
) -> Iterator[Record]:
    """The records of a binary stream of whole lines (a file, or a byte range of one cut at a line end).
    `counters`: whether a line-leading `N: ` is the record's counter rather than srun's label (leading_counters);
    None: as the stream's first chunk says (a range of a file is given the file's own answer).

    Memory is bounded whatever the lines: a line is held up to MAX_RECORD_CHARS characters (plus one chunk);
    past that its first MATCH_CHARS characters are its record and the rest is skipped, chunk by chunk, as bytes,
    until its newline (a 2 GiB line without newline took 6.4 GB)."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = ""
    skipping = False  # inside an over-long line, discarding until its newline
    continued = False  # part of the current physical line was already emitted (long tqdm lines)
    chunk: bytes | None = first if first is not None else _read(fh, path)
    if counters is None:
        counters = leading_counters(chunk or b"")
    while chunk:
        if b"\x00" in chunk:
            chunk = drop_nuls(chunk, stats, stats.physical_lines + (0 if skipping else 1))
            if not chunk:
                chunk = _read(fh, path)
                continue
        if skipping:
            end = chunk.find(b"\n")
            if end < 0:
                chunk = _read(fh, path)
                continue
            skipping = False
            decoder.reset()  # a newline is a whole character: decoding starts afresh after it
            chunk = chunk[end + 1 :]
            if not chunk:
                chunk = _read(fh, path)
                continue
        text = decoder.decode(chunk)
        stats.replaced_chars += text.count("\ufffd")
        parts = (pending + text).split("\n") if pending else text.split("\n")
        pending = parts.pop()
        for physical in parts:
            yield from _split_physical(physical, stats, continued, counters)
            continued = False
        if len(pending) > MAX_RECORD_CHARS and "\r" in pending:
            # a progress bar redrawn with \r for hours is one physical line: emit its finished redraws
            done, _, pending = pending.rpartition("\r")
            yield from _segments(done.split("\r"), stats.physical_lines + 1, stats, counters)
            continued = True
        if len(pending) > MAX_RECORD_CHARS:
            stats.overlong += 1
            yield from _split_physical(pending[:MATCH_CHARS], stats, False, counters)
            pending = ""
            continued = False
            skipping = True
        chunk = _read(fh, path)
    tail = pending + decoder.decode(b"", final=True)
    stats.unterminated = None  # (a stream that ends with a newline; of several files, the last one counts)
    if (tail or continued) and not skipping:
        for rec in _split_physical(tail, stats, continued, counters):
            if tail:
                stats.unterminated = rec  # the stream's last line has no newline: this is its last record
            yield rec


def drop_nuls(data: bytes, stats: ReadStats, line: int) -> bytes:
    """`data` without its NUL bytes, counted in `stats` with the line the first is on (`line`: the line `data`
    starts on). No log prints a NUL; a run of them is a hole a crash or a rotation left in the file, and the
    lines around it are read as they are."""
    at = data.index(b"\x00")
    kept = data.replace(b"\x00", b"")
    if stats.nul_line is None:
        stats.nul_line = line + data.count(b"\n", 0, at)
    stats.nul_bytes += len(data) - len(kept)
    return kept


def _read(fh: io.BufferedIOBase, path: str) -> bytes:
    try:
        return fh.read(CHUNK_BYTES)
    except (OSError, EOFError, lzma.LZMAError) as exc:
        raise LogparseError(f"{path}: the compressed stream is damaged ({exc})") from None


def _split_physical(
    physical: str, stats: ReadStats, continued: bool = False, counters: bool = False
) -> Iterator[Record]:
    stats.physical_lines += 1
    segments = physical.split("\r") if "\r" in physical else (physical,)
    before = stats.records
    yield from _segments(segments, stats.physical_lines, stats, counters)
    if stats.records == before and not continued:
        stats.blank += 1


def _segments(
    segments: Iterable[str], line_no: int, stats: ReadStats, counters: bool = False
) -> Iterator[Record]:
    # torchrun --tee, srun --label and pdsh prefix a physical line once, so a bar redrawn with \r after the prefix
    # ("[rank0]:\r  1/200 ━━━ ...", Keras) is that rank's: redraws with no prefix of their own keep the last one seen
    carried: tuple[int | None, str | None] = (None, None)
    for segment in segments:
        for text, rank, host in _clean(segment, counters):
            if rank is None and host is None:
                rank, host = carried
            else:
                carried = (rank, host)
            if not text.strip():
                continue
            stats.records += 1
            yield Record(line_no, text, rank, host)
