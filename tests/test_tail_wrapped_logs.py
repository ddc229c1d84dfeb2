"""Torchtune, llm.c, llama2.c, Keras and Lightning logs through the wrappers users put around them.

Each log below is a real capture (tests/data/captures/<framework>/, held to the framework's own record by the
tests beside it) or a public excerpt (tests/data/public/, values read by hand in SOURCES*.toml). Here the truth is
that log read plain: wrapped in a launcher prefix (torchrun --tee's "[rank0]:" / "[default0]:", srun --label's
" 0: ", pdsh's "node-17: "), with CRLF line ends, gzip-compressed or coloured, it must give the same step rows
through detection. Cut mid-line, it keeps every row before the cut line.

Also: the reader's new prefix rules on real lines (pdsh's "vm-07-05: " before a line that starts with a letter, in
tests/data/peers/superbench/megatron_deepspeed.log; torchx's "[trainer0|0]:" of pytorch/torchtune PR #2620), and
torchtune's checkpoint record glued to the last bar redraw of an epoch.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pandas as pd
import pytest

import logparse
from logparse.read.reader import clean_text, read_records

DATA = Path(__file__).resolve().parent / "data"
LOGS = [
    DATA / "captures" / "llmc" / "train_gpt2c_cpu.log",
    DATA / "captures" / "llama2c" / "llama2c_train_cpu.log",
    DATA / "captures" / "torchtune" / "torchtune_stdout_cpu.log",
    DATA / "captures" / "keras" / "keras_fit_v2_cpu.log",
    DATA / "captures" / "keras" / "keras_fit_fast_cpu.log",
    DATA / "captures" / "fabric" / "lightning_fabric_cpu.log",
    DATA / "captures" / "lightning_rich" / "lightning_rich_leave_cpu.log",
    DATA / "public" / "llmc_discussion677_gpt2_1558m.log",
    DATA / "public" / "llama2c_issue461_mps.log",
    DATA / "public" / "keras2_abhi8893_issue8_fit.log",
    DATA / "public" / "torchtune_pr640_distributed_full_13b.log",
    DATA / "public" / "llama2c_tabular_transformer_income.log",
    DATA / "public" / "keras22_aws_dlc_mnist_samples.log",
    DATA / "public" / "lightning_issue4225_tqdm_v1_loss.log",
    DATA / "public" / "lightning_emlo4_terminal_copy_bars.log",
]
# what a launcher adds, not what the framework printed
LAUNCHER_COLUMNS = ["rank", "ranks", "host"]


def _prefixed(data: bytes, prefix: bytes) -> bytes:
    """torchrun --tee, srun --label and pdsh write the prefix once per physical line (not after a \\r)."""
    return b"\n".join(prefix + line if line else line for line in data.split(b"\n"))


WRAPPERS = {
    "torchrun_rank": lambda d: _prefixed(d, b"[rank0]:"),
    "torchrun_default": lambda d: _prefixed(d, b"[default0]:"),
    "srun_label": lambda d: _prefixed(d, b" 0: "),
    "pdsh_host": lambda d: _prefixed(d, b"node-17: "),
    "crlf": lambda d: d.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"),
    "gzip": gzip.compress,
    "colour": lambda d: b"\n".join(
        b"\x1b[32m" + ln + b"\x1b[0m" if ln.strip() else ln for ln in d.split(b"\n")
    ),
}


def _read(path: Path) -> tuple[str, pd.DataFrame]:
    run = logparse.resolve(str(path))
    steps = run.all_steps.drop(columns=[c for c in LAUNCHER_COLUMNS if c in run.all_steps.columns])
    return run.parsed.format, steps.reset_index(drop=True)


@pytest.fixture(scope="module")
def plain() -> dict[str, tuple[str, pd.DataFrame]]:
    return {p.name: _read(p) for p in LOGS}


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.stem)
def test_wrapped_log_reads_as_the_plain_one(log: Path, wrapper: str, plain, tmp_path: Path):
    fmt, want = plain[log.name]
    wrapped = tmp_path / (log.name + (".gz" if wrapper == "gzip" else ""))
    wrapped.write_bytes(WRAPPERS[wrapper](log.read_bytes()))
    got_fmt, got = _read(wrapped)
    assert got_fmt == fmt
    assert not got.empty
    pd.testing.assert_frame_equal(got, want, check_dtype=False)


@pytest.mark.parametrize("log", LOGS[:3] + LOGS[7:], ids=lambda p: p.stem)
def test_log_cut_mid_line_reads_as_without_its_last_line(log: Path, tmp_path: Path):
    """Cut half-way through its last line, a log gives the rows of the same log without that line (whatever the
    half line still holds comes after them), and no traceback."""
    data = log.read_bytes().rstrip(b"\n")
    last = data.rfind(b"\n")
    whole = tmp_path / ("whole_" + log.name)
    whole.write_bytes(data[: last + 1])
    cut = tmp_path / log.name
    cut.write_bytes(data[: last + 1 + (len(data) - last - 1) // 2])  # half of the last line
    fmt, want = _read(whole)
    got_fmt, got = _read(cut)
    assert got_fmt == fmt
    cut_line = data[: last + 1].count(b"\n") + 1
    got = got[got["line"] < cut_line].reset_index(drop=True)
    want = want[[c for c in want.columns if c in got.columns]]
    pd.testing.assert_frame_equal(got[want.columns], want, check_dtype=False)


def test_pdsh_host_before_a_line_starting_with_a_letter_is_peeled():
    # tests/data/peers/superbench/megatron_deepspeed.log line 1443, a real multi-node log
    text, rank, host = clean_text(
        "vm-07-05: saving checkpoint at iteration       5 to .//checkpoint/gpt_6.7B_tok300B"
    )
    assert (text, rank, host) == (
        "saving checkpoint at iteration       5 to .//checkpoint/gpt_6.7B_tok300B",
        None,
        "vm-07-05",
    )
    assert clean_text("10.0.0.5: step    1/74 | loss 11.0")[2] == "10.0.0.5"
    assert clean_text("ip-10-0-0-5: Epoch 1/2")[:2] == ("Epoch 1/2", None)


@pytest.mark.parametrize(
    "line",
    [
        "step-10: loss 2.3",  # a script's own counter, not a host
        "Epoch-1: train loss 0.5",
        "iter-200: 1.25",
        "2024-01-05: started",  # a date
        "loss2: 0.3",  # no '-' or '.': only before '[', '{' or a space is such a name a host
    ],
)
def test_counters_and_dates_are_not_taken_for_a_host(line: str):
    assert clean_text(line) == (line, None, None)


def test_torchx_prefix_is_peeled_with_its_rank():
    # pytorch/torchtune PR #2620: "[trainer0|0]:1|25|Loss: ..." on every line, and once more after a redraw
    records = list(read_records(str(DATA / "public" / "torchtune_pr2620_multinode_bar.log")))
    texts = [r for r in records if "|Loss: " in r.text]
    assert texts and all(r.rank == 0 and r.text.startswith("1|") for r in texts)
    assert not any("[trainer0|0]" in r.text for r in records)


def test_torchtune_checkpoint_glued_to_the_bar_is_an_event():
    # the DiskLogger capture: 2 epochs, each ends with "Model checkpoint of size ... saved to" written right
    # after the epoch's last bar redraw, on the same physical line (once after an escape "\x1b[A")
    log = DATA / "captures" / "torchtune" / "torchtune_disklogger_cpu.log"
    assert log.read_bytes().count(b"Model checkpoint of size") == 2
    run = logparse.resolve(str(log))
    saves = run.parsed.events[run.parsed.events["event"] == "checkpoint_save"]
    assert len(saves) == 2
    # the bar the records were glued to still gives its step: the 28 optimizer steps of 2 epochs x 14
    assert run.all_steps["step"].tolist() == list(range(1, 29))


def test_keras22_sample_counting_bar_without_batch_redraws_keeps_values_and_says_why():
    # TensorBoard's 'Get started' guide (tf.keras 1.x/2.0 given arrays): only each
    # epoch's final redraw, "60000/60000 [...] - 15s 246us/sample - loss: 0.2217 - ...": the batch size is not
    # printed, so the optimizer steps cannot be known; every epoch's values are read, at the printed digits
    run = logparse.resolve(str(DATA / "public" / "tfkeras_tensorboard_get_started_samples.log"))
    assert run.parsed.format == "keras"
    steps = run.all_steps
    assert steps["loss"].tolist() == [0.2217, 0.0975, 0.0718, 0.0540, 0.0433]
    assert steps["eval_loss"].tolist() == [0.1019, 0.0787, 0.0698, 0.0685, 0.0623]
    assert steps["epoch_index"].tolist() == [0, 1, 2, 3, 4]
    assert (
        "step_time_s" not in steps or steps["step_time_s"].isna().all()
    )  # 246us is per sample, not per step
    assert any("counts samples" in w and "batch size is unknown" in w for w in run.warnings)


def test_keras22_sample_counting_bar_becomes_optimizer_steps():
    # the AWS DLC excerpt (SOURCES_wrapped_torchtune_llmc_keras_lightning.toml): 128-sample batches, positions 128..640 of 60000
    run = logparse.resolve(str(DATA / "public" / "keras22_aws_dlc_mnist_samples.log"))
    assert run.all_steps["step"].tolist() == [1, 2, 3, 4, 5]
    assert run.facts["micro_batch_size"].value == 128
    assert "ceil(p / 128)" in run.step_numbering


def test_lightning_1_0_bar_drawn_twice_per_batch_keeps_the_later_redraw():
    # Lightning-AI/pytorch-lightning#4225 (SOURCES_wrapped_torchtune_llmc_keras_lightning.toml): each position drawn first with the previous running loss
    steps = logparse.resolve(str(DATA / "public" / "lightning_issue4225_tqdm_v1_loss.log")).all_steps
    assert steps["step"].tolist() == [1, 2, 3, 4, 5]
    assert steps["loss"].tolist() == [10.473, 10.224, 10.047, 9.926, 9.847]


def test_lightning_terminal_copy_with_redraws_run_together_reads_each_line_last_redraw():
    # thamizhannal/EMLO4's README (SOURCES_wrapped_torchtune_llmc_keras_lightning.toml): ModelCheckpoint's records in the same log name the global
    # steps of the epochs' ends: 25, 50, 75, 100, 125
    log = DATA / "public" / "lightning_emlo4_terminal_copy_bars.log"
    text = log.read_text()
    assert [int(s) for s in __import__("re").findall(r"global step (\d+):", text)] == [25, 50, 75, 100, 125]
    steps = logparse.resolve(str(log)).all_steps
    assert steps["step"].tolist() == [25, 50, 75, 100, 125]
    assert steps["loss"].tolist() == [1.310, 0.548, 0.817, 0.111, 0.152]
    assert steps["eval_loss"].tolist() == [0.776, 0.127, 0.0582, 0.017, 0.0194]
