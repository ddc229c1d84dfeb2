"""A damaged log is read as far as it goes and the damage is said: a compressed file cut mid-stream (gzip, bzip2,
xz and zstd alike) is read up to the cut; a hole of NUL bytes inside the log (a crash or a rotation left it) is
skipped and counted, the lines around it read. Both were refused whole (`.gz`: "the compressed stream is damaged";
NULs in the first 8 KiB: "looks like a binary file"; further in, they were glued to the next line unsaid)."""

from __future__ import annotations

import bz2
import gzip
import lzma
import re
import zlib

import pytest

from logparse import api
from logparse.core.errors import LogparseError
from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets
from logparse.read.reader import read_records

from . import synth
from .conftest import SAMPLES

MEGATRON = SAMPLES / "megatron_llama2-7b_8xh100.log"


@pytest.fixture(scope="module")
def log_text() -> bytes:
    """A Megatron log of 2,000 steps (700 KB): enough to compress into several blocks of every format."""
    text, _ = synth.megatron_log(synth.Spec(steps=2000, seed=11))
    return text.encode()


def _zstd(data: bytes) -> bytes:
    zstandard = pytest.importorskip("zstandard")
    return zstandard.ZstdCompressor().compress(data)


COMPRESS = {
    "gz": lambda data: gzip.compress(data),
    "bz2": lambda data: bz2.compress(data, compresslevel=1),  # (blocks of 100 kB: a cut keeps whole ones)
    "xz": lambda data: lzma.compress(data),
    "zst": _zstd,
}


def _whole_iterations(data: bytes) -> list[int]:
    """The steps of the iteration lines `data` holds whole (through their newline)."""
    return [int(m) for m in re.findall(rb"iteration +(\d+)/ +\d+ \|[^\n]*\n", data)]


@pytest.mark.parametrize("kind", sorted(COMPRESS))
def test_a_compressed_log_cut_mid_stream_is_read_up_to_the_cut(tmp_path, log_text, kind):
    packed = COMPRESS[kind](log_text)
    path = tmp_path / f"train.log.{kind}"
    path.write_bytes(packed[: int(len(packed) * 0.7)])
    run = api.resolve(str(path))
    steps = run.steps["step"].tolist()
    # what the cut holds: the steps of its whole lines, then perhaps the cut line's (flagged 'cut')
    assert steps[0] == 1 and steps == list(range(1, len(steps) + 1)) and 100 < len(steps) < 2000
    whole = _whole_iterations(log_text)
    assert steps[: len(steps) - 1] == whole[: len(steps) - 1]
    said = [w for w in run.warnings if w.code == "stream_stopped"]
    assert len(said) == 1 and str(path) in said[0] and "ends before its end marker" in said[0]


def test_a_cut_gzip_gives_every_line_its_bytes_hold(tmp_path, log_text):
    packed = gzip.compress(log_text)
    cut = packed[: len(packed) // 2]
    path = tmp_path / "train.log.gz"
    path.write_bytes(cut)
    held = zlib.decompressobj(wbits=31).decompress(cut)  # everything the cut bytes decompress to
    texts = [r.text for r in read_records(str(path))]
    assert len(texts) == held.count(b"\n") + 1  # each whole line, and the cut one
    assert texts[-1] == held[held.rfind(b"\n") + 1 :].decode().rstrip()


def test_a_compressed_log_of_several_members_is_read_whole(tmp_path, log_text):
    half = log_text.index(b"\n", len(log_text) // 2) + 1
    path = tmp_path / "train.log.gz"
    path.write_bytes(gzip.compress(log_text[:half]) + gzip.compress(log_text[half:]))  # `cat a.gz b.gz`
    run = api.resolve(str(path))
    assert run.steps["step"].tolist() == list(range(1, 2001))
    assert not [w for w in run.warnings if w.code == "stream_stopped"]


def test_a_compressed_file_cut_before_its_first_line_is_refused_in_one_line(tmp_path, log_text):
    path = tmp_path / "train.log.gz"
    path.write_bytes(gzip.compress(log_text)[:15])
    with pytest.raises(
        LogparseError, match="cannot decompress: the compressed stream ends before its end marker"
    ):
        api.resolve(str(path))


def _with_hole(data: bytes, before: bytes, size: int) -> tuple[bytes, int]:
    at = data.index(before)
    return data[:at] + b"\x00" * size + data[at:], data[:at].count(b"\n") + 1


@pytest.mark.parametrize("where", [b" [2024-09-03 15:54:45] iteration", b" [2024-09-03 16:20:04] iteration"])
def test_a_hole_of_nul_bytes_inside_a_log_is_skipped_and_said(write_log, where):
    data = MEGATRON.read_bytes()
    holed, line = _with_hole(data, where, 5000)  # (the first is within the first 8 KiB)
    run = api.resolve(str(write_log(holed)))
    plain = api.resolve(str(MEGATRON))
    assert run.steps["step"].tolist() == plain.steps["step"].tolist()  # the line after the hole too
    assert run.steps["loss"].tolist() == plain.steps["loss"].tolist()
    said = [w for w in run.warnings if w.code == "nul_bytes"]
    assert len(said) == 1 and said[0].line == line and "NUL bytes skipped: 5,000 inside the log" in said[0]


def test_ranges_count_the_holes_as_one_pass_does(write_log):
    data = MEGATRON.read_bytes()
    holed, line = _with_hole(data, b" [2024-09-03 16:20:04] iteration", 70_000)
    holed, _ = _with_hole(holed, b" [2024-09-03 16:40:", 3)
    path = str(write_log(holed))
    sets = load_sets()
    one, ranges = parse_log(path, sets), parse_log(path, sets, jobs=1, chunk_bytes=20_000)
    assert one.rows.equals(ranges.rows)
    assert [str(w) for w in one.warnings] == [str(w) for w in ranges.warnings]
    assert (
        one.warnings[0].line == ranges.warnings[0].line == line and "70,003 inside the log" in one.warnings[0]
    )


def test_nul_bytes_everywhere_are_still_a_binary_file(write_log):
    utf16 = MEGATRON.read_text()[:4000].encode("utf-16-le")  # a NUL after every character
    with pytest.raises(LogparseError, match="looks like a binary file"):
        list(read_records(str(write_log(utf16))))
