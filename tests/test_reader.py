"""reader: compression, carriage returns, ANSI codes, launcher prefixes, streaming, bad files."""

from __future__ import annotations

import bz2
import gzip
import lzma
import tracemalloc
from pathlib import Path

import pytest

from logparse.core.errors import LogparseError
from logparse.read.reader import ReadStats, clean_text, read_records

TEXT = "first line\nsecond line\n"


@pytest.mark.parametrize(
    "compress,suffix", [(gzip.compress, ".gz"), (bz2.compress, ".bz2"), (lzma.compress, ".xz")]
)
def test_compressed_files_read_like_plain(tmp_path, compress, suffix):
    path = tmp_path / f"train.log{suffix}"
    path.write_bytes(compress(TEXT.encode()))
    assert [r.text for r in read_records(str(path))] == ["first line", "second line"]


def test_carriage_returns_split_tqdm_redraws_keeping_the_physical_line_number(write_log):
    path = write_log(
        "head\n 10%|#  | 1/10 [00:01<00:09, 1.0it/s]\r 20%|## | 2/10 [00:02<00:08, 1.0it/s]\r{'loss': 1.0}\n"
    )
    recs = list(read_records(str(path)))
    assert [r.text for r in recs] == [
        "head",
        " 10%|#  | 1/10 [00:01<00:09, 1.0it/s]",
        " 20%|## | 2/10 [00:02<00:08, 1.0it/s]",
        "{'loss': 1.0}",
    ]
    assert [r.line for r in recs] == [1, 2, 2, 2]


def test_windows_line_endings_and_trailing_spaces(write_log):
    path = write_log(b"a   \r\nb\r\n")
    stats = ReadStats()
    assert [r.text for r in read_records(str(path), stats)] == ["a", "b"]
    assert stats.physical_lines == 2 and stats.blank == 0


def test_ansi_colours_are_removed():
    text, _, _ = clean_text("\x1b[31mstep:  1  \x1b[32mloss:  7.6\x1b[39m")
    assert text == "step:  1  loss:  7.6"


@pytest.mark.parametrize(
    "line,text",
    [
        # colour codes whose ESC byte was lost: removed, the reset without a number too
        ("[[32m20251202 10:01:02[0m| step 5", "[20251202 10:01:02| step 5"),
        ("[1;33mloss[m: 2.5", "loss: 2.5"),
        # ... but a bracket that opens a key beginning with "m" is text (I-JEPA's train.py prints
        # "[wd: %.2e] [lr: %.2e] [mem: %.2e]")
        ("[15,     0/  476] train_loss: 5.663 [lr: 7.32e-04] [mem: 4.92e+04] (632.5 ms)",
         "[15,     0/  476] train_loss: 5.663 [lr: 7.32e-04] [mem: 4.92e+04] (632.5 ms)"),
        ("[max_mem: 1962M] [mean_loss 0.3]", "[max_mem: 1962M] [mean_loss 0.3]"),
    ],
)  # fmt: skip
def test_colour_codes_that_lost_their_escape_byte(line, text):
    assert clean_text(line)[0] == text


@pytest.mark.parametrize(
    "line,text,rank,host",
    [
        ("[default3]: iteration 1/ 10 |", " iteration 1/ 10 |", 3, None),
        ("[rank0]:[titan] step: 1", "[titan] step: 1", 0, None),
        ("7: iteration 1/ 10 |", "iteration 1/ 10 |", 7, None),
        ("gpu250: [2023-07-05 15:08:29,918] [INFO] x", "[2023-07-05 15:08:29,918] [INFO] x", None, "gpu250"),
        ("192.168.50.170: {'loss': 1.2992}", "{'loss': 1.2992}", None, "192.168.50.170"),
        ("gpu3: [default1]: hello", " hello", 1, "gpu3"),
        ("WARNING: not a host", "WARNING: not a host", None, None),
        ("loss: 1.25", "loss: 1.25", None, None),
    ],
)
def test_launcher_prefixes_are_peeled(line, text, rank, host):
    assert clean_text(line) == (text, rank, host)


def test_a_second_tee_prefix_inside_a_line_starts_a_new_record(write_log):
    # torchrun --tee writes stdout and stderr from two threads: a tqdm bar without newline and the
    # next record share one physical line (seen in sample_logs/hf_trainer_ddp2_cpu.log)
    path = write_log("[default0]: 10%|#  | 4/40 [00:00<00:01, 23.01it/s][default0]:{'loss': '4.555'}\n")
    recs = list(read_records(str(path)))
    assert [(r.text, r.rank) for r in recs] == [
        (" 10%|#  | 4/40 [00:00<00:01, 23.01it/s]", 0),
        ("{'loss': '4.555'}", 0),
    ]


def test_invalid_utf8_is_replaced_and_counted(write_log):
    path = write_log(b"ok \xff\xfe line\n")
    stats = ReadStats()
    recs = list(read_records(str(path), stats))
    assert recs[0].text == "ok \ufffd\ufffd line" and stats.replaced_chars == 2


def test_truncated_last_line_is_kept(write_log):
    path = write_log("one\ntwo without newline")
    assert [r.text for r in read_records(str(path))] == ["one", "two without newline"]


def test_memory_does_not_grow_with_the_file(tmp_path):
    path = tmp_path / "big.log"
    line = " iteration        1/     100 | consumed samples:          128 | elapsed time per iteration (ms): 6800.1 |\n"
    with open(path, "w") as fh:
        for _ in range(200_000):  # ~22 MB
            fh.write(line)
    tracemalloc.start()
    n = sum(1 for _ in read_records(str(path)))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert n == 200_000
    assert peak < 12 * 2**20, f"peak {peak / 2**20:.1f} MiB while streaming a 22 MB file"


@pytest.mark.parametrize(
    "content,message",
    [(b"", "empty"), (b"\x00\x01\x02\x03binary\x00" * 100, "binary")],
)
def test_bad_files_fail_with_a_sentence(write_log, content, message):
    path = write_log(content)
    with pytest.raises(LogparseError, match=message):
        list(read_records(str(path)))


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(LogparseError, match="no such file"):
        list(read_records(str(tmp_path / "nope.log")))
    with pytest.raises(LogparseError, match="is a directory"):
        list(read_records(str(tmp_path)))


def test_a_progress_bar_redrawn_for_hours_on_one_line_is_read_whole(tmp_path):
    # NeMo 1.x / Lightning keep the bar on one physical line: 40,000 redraws, ~3 MB, no newline
    bars = "".join(
        f"\rEpoch 0:  {n // 400:3d}%|#| {n}/40000 [00:{n % 60:02d}<00:00, 1.00it/s, global_step={n - 1}.0]"
        for n in range(1, 40001)
    )
    path = tmp_path / "bar.log"
    path.write_text("head\n" + bars + "\nlast\n")
    stats = ReadStats()
    recs = list(read_records(str(path), stats))
    assert len(recs) == 40002 and stats.overlong == 0
    assert recs[1].text.endswith("global_step=0.0]") and recs[-2].text.endswith("global_step=39999.0]")
    assert {r.line for r in recs[1:-1]} == {2} and recs[-1].line == 3 and stats.physical_lines == 3


def test_a_cut_escape_sequence_keeps_the_text_after_it():
    """CloudAI's NeMo-Run fixture: a rich table row cut at "\\x1b[" runs into the step line, whose "T" is not
    the final byte of a control sequence (a parameterless CSI ends only at a terminal's usual finals)."""
    from logparse.read.reader import _ANSI

    assert _ANSI.sub("", "\x1b[33mseq_length\x1b[Training epoch 0, iteration 17/99 |") == (
        "seq_lengthTraining epoch 0, iteration 17/99 |"
    )
    assert _ANSI.sub("", "\x1b[K\x1b[2K\x1b[A\x1b[mEpoch 1") == "Epoch 1"


def test_a_copytruncated_log_starting_with_nul_bytes_is_read(tmp_path):
    """logrotate's copytruncate leaves the writer at its old offset: the file starts with a hole of NUL bytes,
    then the log goes on. It was refused as binary; the NULs are skipped and counted, and the lines after them
    read as in the plain file, in one pass and in ranges."""
    from logparse.frame.assemble import parse_log
    from logparse.patterns.sets import load_sets
    from logparse.read.reader import ReadStats, read_records

    sample = Path(__file__).resolve().parents[1] / "sample_logs" / "megatron_llama2-7b_8xh100.log"
    data = sample.read_bytes()
    for hole in (4096, 3 * (1 << 20) + 17):  # inside the first read, and over several reads
        path = tmp_path / f"rotated_{hole}.log"
        path.write_bytes(b"\x00" * hole + data)
        stats = ReadStats()
        texts = [r.text for r in read_records(str(path), stats)]
        assert stats.nul_prefix_bytes == hole
        assert texts == [r.text for r in read_records(str(sample))]
        plain = parse_log(str(sample), load_sets())
        for reading in ({}, {"jobs": 2, "chunk_bytes": 20_000}):
            got = parse_log(str(path), load_sets(), **reading)
            assert got.rows["step"].tolist() == plain.rows["step"].tolist()
            assert got.rows["loss"].tolist() == plain.rows["loss"].tolist()
            assert got.lines["nul_prefix_bytes"] == hole  # said in summary.json's lines, both readings
            assert got.lines["total"] == plain.lines["total"]


def _blank_megatron_log(tmp_path: Path) -> Path:
    """Lines 1..60 of the Megatron sample (no blank line there), five blank lines put in (two of them spaces
    only, one a bare CR), and no newline after the last line."""
    sample = Path(__file__).resolve().parents[1] / "sample_logs" / "megatron_llama2-7b_8xh100.log"
    lines = sample.read_text().splitlines()[:60]
    for at, blank in ((10, ""), (20, "   "), (56, ""), (57, "\r"), (58, "  ")):
        lines.insert(at, blank)
    path = tmp_path / "blank.log"
    path.write_text("\n".join(lines))  # 65 lines: 64 newlines (wc -l) and a last line without one
    return path


@pytest.mark.parametrize("reading", [{}, {"jobs": 2, "chunk_bytes": 2_000}])
def test_lines_total_is_the_files_line_count_blank_lines_included(tmp_path, reading):
    """lines.total left out blank lines ("696 lines" for a 701-line file). Counted by hand:
    60 lines of the sample + 5 blank = 65 lines; 60 records, each matched or unmatched."""
    from logparse.frame.assemble import parse_log
    from logparse.patterns.sets import load_sets

    path = _blank_megatron_log(tmp_path)
    assert path.read_bytes().count(b"\n") == 64
    got = parse_log(str(path), load_sets(), **reading)
    assert got.lines["total"] == 65 and got.lines["physical"] == 65
    assert got.lines["blank"] == 5
    assert got.lines["records"] == 60 == got.lines["matched"] + got.lines["unmatched"]


def test_a_named_pipe_is_refused_with_its_path_and_the_stdin_hint(tmp_path):
    """A FIFO with a writer gave `error: File or stream is not seekable.` (no path). A log
    is read at least twice (detection, then the values), so a pipe is refused, before it is opened (opening
    it would take its data, or block without a writer), with its path and the way to read it: through `-`."""
    import os
    import threading

    from click.testing import CliRunner

    from logparse.cli import cli

    sample = Path(__file__).resolve().parents[1] / "sample_logs" / "megatron_llama2-7b_8xh100.log"
    fifo = tmp_path / "x.fifo"
    os.mkfifo(fifo)

    def write() -> None:
        try:
            with open(fifo, "wb") as fh:  # blocks until a reader opens the pipe
                fh.write(sample.read_bytes())
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        res = CliRunner().invoke(cli, ["analyze", str(fifo), "--out", str(tmp_path / "o")])
        assert res.exit_code != 0
        assert res.exception is None or isinstance(res.exception, SystemExit)  # no traceback
        assert (
            f"{fifo}: not a regular file (a pipe?); read it as a stream: logparse analyze - < {fifo}"
            in res.output
        )
    finally:
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # let the writer finish, whatever happened
        writer.join(timeout=0.5)
        os.close(fd)
        writer.join(timeout=5)


SAMPLE_LOG = Path(__file__).resolve().parents[1] / "sample_logs" / "megatron_llama2-7b_8xh100.log"
# Line 60 of the sample, iteration 6, as printed (read by hand: elapsed 14400.1 ms, lr 1.800000E-05,
# lm loss 1.209406E+01, grad norm 1.277)
ITER6 = SAMPLE_LOG.read_text().splitlines()[59]


def _cut_log(tmp_path: Path, end: str) -> Path:
    """Lines 1..59 of the sample, then line 60 cut just after `end` (its first occurrence), no newline."""
    lines = SAMPLE_LOG.read_text().splitlines()[:59]
    cut = ITER6[: ITER6.index(end) + len(end)]
    path = tmp_path / "cut.log"
    path.write_text("\n".join(lines) + "\n" + cut)
    return path


@pytest.fixture(params=["one pass", "ranges"])
def reading(request, monkeypatch) -> dict:
    """Read in one pass, or in 3 KB ranges by two processes (the file's last range holds the cut line)."""
    if request.param == "one pass":
        return {}
    from logparse.frame import chunks

    monkeypatch.setattr(chunks, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(chunks, "MIN_CHUNK_BYTES", 3_000)
    monkeypatch.setattr(chunks, "CHUNK_BYTES", 3_000)
    return {"jobs": 2}


@pytest.mark.parametrize(
    "end,lost,kept",
    [
        # a number cut mid-way: 1.2 of 1.209406E+01 is unknown, never 1.2
        ("lm loss: 1.2", ["loss"], {"step_time_s": 14.4001, "lr": 1.8e-05}),
        ("lm loss: 1.209406E+0", ["loss"], {"step_time_s": 14.4001, "lr": 1.8e-05}),  # 1.209406 of ...E+01
        ("elapsed time per iteration (ms): 144", ["step_time_s"], {}),  # 0.144 s of 14.4001 s
        # cut just after a separator: the values before it are whole, the ones after it were never printed
        ("lm loss: 1.209406E+01 |", [], {"loss": 12.09406, "step_time_s": 14.4001, "lr": 1.8e-05}),
    ],
)
def test_a_last_step_line_cut_mid_way_is_flagged_and_its_cut_value_is_nan(tmp_path, reading, end, lost, kept):
    """A log whose last line is a step line cut mid-way (no newline) kept NaN loss and lr
    for that step without a flag, and a number cut mid-way was read as its prefix."""
    import math

    from logparse import api

    a = api.analyze(str(_cut_log(tmp_path, end)), hw="h100", **reading)
    steps = a.steps.set_index("step")
    assert list(steps.index) == [1, 2, 3, 4, 5, 6]
    assert "cut" in str(steps.at[6, "flags"]).split(",")
    assert not any("cut" in str(f).split(",") for f in steps.loc[1:5, "flags"].fillna(""))
    for column in lost:
        assert math.isnan(steps.at[6, column]), f"{column} = {steps.at[6, column]} read from a cut number"
    for column, value in kept.items():
        assert steps.at[6, column] == pytest.approx(value, rel=1e-12)
    assert steps.at[5, "loss"] == pytest.approx(12.16154, rel=1e-12)  # line 59, whole: lm loss: 1.216154E+01
    assert any("line 60" in w and "cut" in w for w in a.summary["warnings"]), a.summary["warnings"]


def test_a_whole_last_line_without_newline_is_not_cut(tmp_path, reading):
    """The iteration line ends with its "number of nan iterations" column and a separator (the set's `complete`
    regex): whole, though no newline follows it. Nothing is flagged and every value is read."""
    from logparse import api

    a = api.analyze(str(_cut_log(tmp_path, ITER6)), hw="h100", **reading)
    steps = a.steps.set_index("step")
    assert steps.at[6, "loss"] == pytest.approx(12.09406, rel=1e-12)
    assert steps.at[6, "grad_norm"] == pytest.approx(1.277, rel=1e-12)
    assert "flags" not in steps or not any("cut" in str(f) for f in steps["flags"].fillna(""))
    assert not any("cut" in w for w in a.summary["warnings"])


def test_the_text_summary_counts_every_line_and_the_counts_add_up(tmp_path):
    """The first line of `logparse analyze` said "60 lines" for this 65-line file: now 65, and matched +
    unmatched + blank = 65 (counted by hand in _blank_megatron_log)."""
    import re

    from click.testing import CliRunner

    from logparse.cli import cli

    res = CliRunner().invoke(
        cli, ["analyze", str(_blank_megatron_log(tmp_path)), "--out", str(tmp_path / "o")]
    )
    assert res.exit_code == 0, res.output
    m = re.search(
        r"megatron log, (\d+) lines \((\d+) matched, (\d+) unmatched, (\d+) blank, 0 malformed\)", res.output
    )
    assert m is not None, res.output.splitlines()[0]
    total, matched, unmatched, blank = map(int, m.groups())
    assert total == 65 and blank == 5 and matched + unmatched + blank == total


def test_parse_of_a_named_pipe_names_parse_in_its_hint(tmp_path):
    import os

    from click.testing import CliRunner

    from logparse.cli import cli

    fifo = tmp_path / "p.log"
    os.mkfifo(fifo)
    res = CliRunner().invoke(cli, ["parse", str(fifo), "-o", str(tmp_path / "s.csv")])
    assert res.exit_code == 1
    assert (
        f"{fifo}: not a regular file (a pipe?); read it as a stream: logparse parse - < {fifo}" in res.output
    )


def test_a_bars_frames_and_a_bracketed_record_glued_after_a_frame_are_records_of_their_own(tmp_path):
    # tqdm/std.py format_meter ends a frame with "[{elapsed}<{remaining}, {rate_fmt}{postfix}]": a capture that lost
    # the \r between redraws runs them together; argonne-lcf/wordplay's ezpz logger writes "[%(asctime)s][%(levelname)s]
    # [%(name)s:%(lineno)d] - " records right after the bar's last frame
    frames = [
        f"Distilling:  68%|######    | {n}/10000 [16:1{k}<07:36,  7.0{k}it/s, loss=1.96{k}0, lr=1.28e-04]"
        for k, n in enumerate((6787, 6789, 6790))
    ]
    record = "[2024-04-02 01:59:46][INFO][trainer:837] - step=5 loss=3.6606 dt=108.1093"
    path = tmp_path / "glued.log"
    path.write_text(
        "".join(frames) + "\n" + "  4%|4         | 4/100 [00:04<01:12,  1.32it/s]" + record + "\n"
    )
    texts = [r.text for r in read_records(str(path))]
    assert texts == [*frames, "  4%|4         | 4/100 [00:04<01:12,  1.32it/s]", record]


def test_a_loops_print_glued_to_a_frame_with_no_postfix_is_a_record_of_its_own(tmp_path):
    # github.com/white-wolf-tech/gpt2-chinese-tf2/issues/2: the loop's print(f"Epoch {e} Batch {b} Loss {l} Accuracy
    # {a}") right after a tqdm frame that did not end its line; ColossalAI's example prints "Step 0 loss: ..." so
    frame = " 35%|###5      | 6998/19988 [04:58<07:00, 30.90it/s]"
    prints = ("Epoch 3 Batch 7000 Loss nan Accuracy 0.2587", "Step 0 loss: tensor(12.4270)")
    path = tmp_path / "glued.log"
    path.write_text("".join(f"{frame}{p}\n" for p in prints) + "Step 12 | loss: 1.5\n")
    texts = [r.text for r in read_records(str(path))]
    assert texts == [frame, prints[0], frame, prints[1], "Step 12 | loss: 1.5"]


def test_a_record_in_brackets_glued_to_a_frame_is_a_record_of_its_own(tmp_path):
    # yangdongchao/AcademiCodec main3_ddp.py: logger.log_info('<epoch:{:d}, iter:{:d}, total_loss_g:{:.4f}, ...>, ...')
    # written right after the bar of `for x in tqdm(train_loader)`; a dict of quoted values glued so (the Hugging
    # Face Trainer's log) is its set's to read and stays on the frame's line
    frame = " 42%|####▍     | 7569/18075 [1:26:18<1:59:42,  1.46it/s]"
    record = "<epoch:8, iter:7570, total_loss_g:617.9401, adv_g_loss:1.9499, loss_d:0.7014>, d_weight: 1.0000"
    quoted = "{'loss': '4.555', 'grad_norm': '1.709'}"
    path = tmp_path / "glued.log"
    path.write_text(frame + record + "\n" + frame + quoted + "\n")
    texts = [r.text for r in read_records(str(path))]
    assert texts == [frame, record, frame + quoted]


def test_a_two_word_key_glued_to_a_frame_starts_a_record_of_its_own(tmp_path):
    # KevinCarpricorn/EchoAlign's train log: a bar over the epochs, then print(f"Train Loss: {loss:.6f}, Acc:
    # {acc:.6f}%") right after its frame
    frame = "  0%|          | 1/200 [00:07<24:23,  7.36s/it]"
    path = tmp_path / "glued.log"
    path.write_text(frame + "Train Loss: 2.385256, Acc: 14.084444%\n")
    assert [r.text for r in read_records(str(path))] == [frame, "Train Loss: 2.385256, Acc: 14.084444%"]


def test_a_heading_word_and_its_number_glued_to_a_frame_starts_a_record_of_its_own(tmp_path):
    # SpaceLearner's graph recommender, src/utils/train.py: tqdm over the epochs, then print(f'Epoch {epoch}: MRR =
    # {mrr:.3f}%, Hit = {hit:.3f}%') after the evaluation, glued to the frame or after the blanks it pads with
    frame = " 20%|██        | 6/30 [14:52<59:37, 149.08s/it]"
    path = tmp_path / "glued.log"
    path.write_text(
        f"{frame}  Epoch 5: MRR = 19.008%, Hit = 55.406%\n{frame}Epoch 6: MRR = 19.013%, Hit = 55.383%\n"
    )
    texts = [r.text.strip() for r in read_records(str(path))]
    assert texts == [
        frame.strip(),
        "Epoch 5: MRR = 19.008%, Hit = 55.406%",
        frame.strip(),
        "Epoch 6: MRR = 19.013%, Hit = 55.383%",
    ]


def test_a_message_after_a_frame_with_no_postfix_is_a_record_of_its_own(tmp_path):
    # r1407p/SAM4MLLM sam4mllm_train.py: tqdm(dataloader, desc=f"Epoch {epoch}") and every GRAD_ACC_STEPS items
    # tqdm.write(f"loss: {...:.4f}, lr: {...:.6f}, global_step: {global_step}"): a log that lost the bar's \r holds
    # the frames and the message on one line; a frame's own postfix (`, loss=...]`) stays the frame's
    frames = "".join(f"Epoch 0:  {n}%|          | {n}/64 [00:0{n}<00:30, 1.25s/it]" for n in (7, 8))
    message = "loss: 2.8750, lr: 0.000100, global_step: 1"
    postfixed = "Epoch 1:  50%|#####     | 32/64 [00:40<00:40, 1.25s/it, loss=2.1]"
    path = tmp_path / "glued.log"
    path.write_text(frames + "            " + message + "\n" + postfixed + "  done\n")
    texts = [r.text for r in read_records(str(path))]
    assert texts[0] == frames and texts[1].strip() == message
    assert texts[2:] == [postfixed + "  done"]


def test_a_counter_and_its_loss_glued_to_a_bars_first_frame_start_a_record_of_their_own(tmp_path):
    # lucidrains/x-transformers train_copy.py prints f'{i}: {loss.item()}' inside its tqdm loop; the bar's first
    # frame has no newline yet, so the first print lands right after it
    frame = "training:   0%|          | 0/40 [00:00<?, ?it/s]"
    path = tmp_path / "glued.log"
    path.write_text("\r" + frame + "0: 3.0486044883728027\n1: 2.9665298461914062\n")
    records = list(read_records(str(path)))
    # (the reader takes a line-leading `N: ` for a launcher's rank prefix until the reading knows it counts steps)
    assert [(r.line, r.text) for r in records[:2]] == [(1, frame), (1, "3.0486044883728027")]
    assert [r.line for r in records] == [1, 1, 2]
