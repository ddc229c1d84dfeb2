"""Fairseq's tqdm bar and its summary-only logs, and the usual wrappers
(launcher prefixes, CRLF, gzip, colour codes) on the public excerpts and captures of fairseq, PaddleNLP,
MetricLogger, verl, VeOmni, NeMo-Automodel and tinygrad.

Every expected number is read off the excerpt's lines by hand and written here, or is the plain reading of the
same file (the wrappers must not change what is read); none comes from pasting logparse's output.
"""

from __future__ import annotations

import functools
import gzip
from pathlib import Path

import pandas as pd
import pytest

import logparse

DATA = Path(__file__).resolve().parent / "data"
PUBLIC = DATA / "public"

# ---------------------------------------------------------------------------------------------------
# fairseq --log-format tqdm: facebookresearch/fairseq#430 (2019, v0.6), the bar of epoch 19 as pasted. The paste
# lost the "\r" between tqdm's redraws (each frame ends where the next "| epoch 019:" begins, cut at the terminal
# width: "clip=", "cli"); a file written by tqdm holds them, so the frames are put back on "\r" here.
FAIRSEQ_430 = (
    "| epoch 019:   3%| | 1/35 [00:00<00:33,  1.01it/s, loss=12.166, ppl=4595.41, wps=26, ups=0.0, wpb=1068, "
    "bsz=104, num_updates=631, lr=2.5e-05, gnorm=0.637, clip=",
    "| epoch 019:   6%| | 2/35 [00:02<00:34,  1.05s/it, loss=11.497, ppl=2891.16, wps=2619, ups=0.0, wpb=2079, "
    "bsz=140, num_updates=632, lr=2.5e-05, gnorm=0.542, cli",
    "| epoch 019:   9%| | 3/35 [00:03<00:35,  1.12s/it, loss=11.723, ppl=3380.76, wps=2602, ups=0.1, wpb=2480, "
    "bsz=187, num_updates=633, lr=2.5e-05, gnorm=0.557, cli",
    "| epoch 019:  11%| | 4/35 [00:04<00:34,  1.12s/it, loss=11.840, ppl=3665.88, wps=2447, ups=0.1, wpb=2452, "
    "bsz=194, num_updates=634, lr=2.5e-05, gnorm=0.489, cli",
    "| epoch 019:  14%|\u258f| 5/35 [00:05<00:35,  1.17s/it, loss=11.774, ppl=3501.42, wps=2567, ups=0.1, wpb=2716, "
    "bsz=211, num_updates=635, lr=2.5e-05, gnorm=0.442, cli",
    "| epoch 019:  17%|\u258f| 6/35 [00:06<00:33,  1.14s/it, loss=11.828, ppl=3634.51, wps=2313, ups=0.1, wpb=2470, "
    "bsz=195, num_updates=636, lr=2.5e-05, gnorm=0.457, cli",
    "| epoch 019:  20%|\u258f| 7/35 [00:08<00:31, ",
)


def test_fairseq_tqdm_frames_are_steps_by_num_updates(tmp_path: Path) -> None:
    log = tmp_path / "fairseq_tqdm.log"
    log.write_text("\r".join(FAIRSEQ_430) + "\n", encoding="utf-8")
    run = logparse.resolve(str(log))
    assert run.parsed.format == "fairseq"
    frame = run.steps.set_index("step")
    # num_updates=631..636; the last frame (7/35) was cut before its postfix: no step
    assert list(frame.index) == [631, 632, 633, 634, 635, 636]
    assert list(frame["loss"]) == [12.166, 11.497, 11.723, 11.84, 11.774, 11.828]
    assert list(frame["tokens_per_s"]) == [26.0, 2619.0, 2602.0, 2447.0, 2567.0, 2313.0]  # wps
    assert list(frame["tokens_per_step"]) == [1068.0, 2079.0, 2480.0, 2452.0, 2716.0, 2470.0]  # wpb
    assert list(frame["global_batch_size"]) == [104.0, 140.0, 187.0, 194.0, 211.0, 195.0]  # bsz
    assert list(frame["grad_norm"]) == [0.637, 0.542, 0.557, 0.489, 0.442, 0.457]
    assert (frame["lr"] == 2.5e-05).all()
    # the bar's "1/35" counts batches, not updates; the step time is wpb / wps
    assert frame.at[632, "step_time_s"] == pytest.approx(2079 / 2619, rel=1e-12)
    # "clip=" and "cli" were cut at the terminal width: no clip value is read
    assert "x_clip" not in frame or frame["x_clip"].isna().all()


# ---------------------------------------------------------------------------------------------------
# fairseq logs of end-of-epoch summaries only (patterns/fairseq_epochs.toml, a fallback set)


def test_fairseq_summary_only_log_is_read_as_one_row_per_epoch() -> None:
    """fairseq docs/tutorial_simple_lstm.rst:362-363: '| epoch 052 | loss 4.027 | ... | num_updates 20852 | ...'."""
    run = logparse.resolve(str(PUBLIC / "fairseq_docs_tutorial_lstm_epoch52.log"))
    assert run.parsed.format == "fairseq_epochs"
    assert list(run.steps["step"]) == [20852]
    row = run.steps.iloc[0]
    assert row["loss"] == 4.027 and row["tokens_per_s"] == 420805.0 and row["tokens_per_step"] == 9841.0
    assert row["step_time_s"] == pytest.approx(9841 / 420805, rel=1e-12)  # wpb / wps, the epoch's average


def test_fairseq_summaries_of_issue514_without_their_train_inner_lines(tmp_path: Path) -> None:
    """fairseq#514's block keeps only its summary and valid lines: epochs 8 and 9 at updates 21896 and 24633."""
    lines = (PUBLIC / "fairseq_issue514_epoch_summaries.log").read_text().splitlines()
    kept = [
        line for line in lines if ":  " not in line.split(" loss")[0]
    ]  # drop "| epoch 009:   1000 / 2737 ..."
    assert len(kept) == 4
    log = tmp_path / "summaries.log"
    log.write_text("\n".join(kept) + "\n")
    run = logparse.resolve(str(log))
    assert run.parsed.format == "fairseq_epochs"
    frame = run.steps.set_index("step")
    assert list(frame.index) == [21896, 24633]
    # "| epoch 008 | loss 6.326 | ... | wps 12876 | ... | lr 0.000213706 | gnorm 1.201 | ..."
    assert frame.at[21896, "loss"] == 6.326 and frame.at[21896, "lr"] == 0.000213706
    assert frame.at[21896, "grad_norm"] == 1.201 and frame.at[21896, "tokens_per_s"] == 12876.0
    # "| epoch 009 | loss 6.233 | ... | wps 12857 | ... | lr 0.000201484 | gnorm 1.241 | ..."
    assert frame.at[24633, "loss"] == 6.233 and frame.at[24633, "tokens_per_s"] == 12857.0
    evals = run.parsed.events[run.parsed.events["event"] == "eval"]
    assert list(evals["step"]) == [21896, 24633]  # valid_loss 6.43844, 6.37204


def test_fairseq_log_with_train_inner_lines_stays_fairseq() -> None:
    """With train_inner records the summaries are events of the fairseq set, not rows of fairseq_epochs."""
    run = logparse.resolve(str(PUBLIC / "fairseq_issue514_epoch_summaries.log"))
    assert run.parsed.format == "fairseq"
    assert list(run.steps["step"]) == [22897, 23897, 25634]


# ---------------------------------------------------------------------------------------------------
# MetricLogger (rPPG-MAE#8): epoch 2 of 208 iterations, numbered 2 x 208 + i


def test_metric_logger_rppg_mae_steps_continue_from_the_epoch() -> None:
    run = logparse.resolve(str(PUBLIC / "metric_logger_rppg_mae_issue8_epoch2.log"))
    assert run.parsed.format == "metric_logger"
    # [ 40/208] .. [200/208] every 20, then [207/208]: 416 + i
    assert list(run.steps["step"]) == [456, 476, 496, 516, 536, 556, 576, 596, 616, 623]


# ---------------------------------------------------------------------------------------------------
# wrappers: the same log behind a launcher prefix, with CRLF ends, gzipped, or coloured reads the same

MINE = (
    "fairseq",
    "fairseq_epochs",
    "paddlenlp",
    "metric_logger",
    "verl",
    "veomni",
    "nemo_automodel",
    "tinygrad",
)
LOGS = sorted(
    [
        p
        for p in PUBLIC.glob("*.log")
        if p.name.startswith(
            ("fairseq_", "paddlenlp_", "metric_logger_", "verl_", "veomni_", "nemo_automodel_", "tinygrad_")
        )
    ]
    + [DATA / "captures" / "metric_logger" / "deit_style_cpu.log"]
)
# verl#2060's excerpt holds no step (the validation before training): it is refused, wrapped or not
LOGS = [p for p in LOGS if p.name != "verl_issue2060_val_step0.log"]


def _wrap(text: str, how: str) -> str:
    lines = text.splitlines()
    if how == "crlf":
        return "\r\n".join(lines) + "\r\n"
    prefix = {
        "rank0": "[rank0]:",  # torchrun --tee / log_line_prefix_template
        "default0": "[default0]:",  # torchrun --tee
        "srun": " 0: ",  # srun --label with up to 10 tasks
        "host": "node-17: ",  # pdsh
    }
    if how == "ansi":
        return "\n".join(f"\x1b[32m{line}\x1b[0m" for line in lines) + "\n"
    return "\n".join(prefix[how] + line for line in lines) + "\n"


COMPARED = (
    "step",
    "loss",
    "lr",
    "grad_norm",
    "step_time_s",
    "tokens_per_s",
    "tokens_per_s_per_gpu",
    "samples_per_s",
    "eval_loss",
    "epoch_index",
    "memory_max_allocated_gib",
)


def _same_reading(a: pd.DataFrame, b: pd.DataFrame) -> None:
    assert len(a) == len(b)
    for column in COMPARED:
        if column in a or column in b:
            assert column in a and column in b, column
            pd.testing.assert_series_equal(
                a[column].reset_index(drop=True), b[column].reset_index(drop=True), check_names=False
            )


@functools.cache
def _plain(path: str) -> pd.DataFrame:
    """The plain log's reading, once a process for its wrappings (only read by the comparison)."""
    return logparse.parse(path)


HOWS = ["rank0", "default0", "srun", "host", "crlf", "ansi", "gzip"]
# each log under four of the seven wrappings, taken in turn over the logs: every wrapping meets most of the logs and
# every log most of the wrappings, at four sevenths of the suite's time for the whole cross
WRAPPED = [(log, HOWS[(k + j) % len(HOWS)]) for k, log in enumerate(LOGS) for j in range(4)]


@pytest.mark.parametrize("log,how", WRAPPED, ids=[f"{log.stem}-{how}" for log, how in WRAPPED])
def test_wrapped_log_reads_the_same(log: Path, how: str, tmp_path: Path) -> None:
    plain = _plain(str(log))
    if how == "gzip":
        wrapped = tmp_path / (log.name + ".gz")
        wrapped.write_bytes(gzip.compress(log.read_bytes()))
    else:
        wrapped = tmp_path / log.name
        wrapped.write_bytes(_wrap(log.read_text(encoding="utf-8"), how).encode("utf-8"))
    _same_reading(plain, logparse.parse(str(wrapped)))


def test_every_wrapped_log_is_one_of_this_lane() -> None:
    formats = {logparse.resolve(str(p)).parsed.format for p in LOGS}
    assert formats <= set(MINE), formats


# ---------------------------------------------------------------------------------------------------
# VeOmni's start-up lines (tests/data/captures/veomni: its own logger with the trainer's messages)


def test_veomni_startup_lines_give_world_size_and_grad_accum(tmp_path: Path) -> None:
    startup = (DATA / "captures" / "veomni" / "startup.log").read_text()
    bar = (PUBLIC / "veomni_issue223_epoch1.log").read_text()
    log = tmp_path / "veomni.log"
    log.write_text(startup + bar)
    run = logparse.resolve(str(log))
    assert run.parsed.format == "veomni"
    assert run.parsed.facts["world_size"][0].value == 4  # "Process rank: 0, world size: 4"
    assert run.parsed.facts["grad_accum"][0].value == 4  # "Set gradient accumulation to 4."
    plain = logparse.resolve(str(PUBLIC / "veomni_issue223_epoch1.log"))
    assert list(run.steps["step"]) == list(plain.steps["step"]) == [1, 2, 3]
    assert list(run.steps["loss"]) == [2.66, 2.59, 2.58]  # each position's first redraw (VeOmni#223)


def test_veomni_startup_lines_alone_are_veomni_but_no_training(tmp_path: Path) -> None:
    log = tmp_path / "startup_only.log"
    log.write_text((DATA / "captures" / "veomni" / "startup.log").read_text())
    with pytest.raises(
        logparse.LogparseError, match="recognised as veomni, but it has no training step lines"
    ):
        logparse.resolve(str(log))


# ---------------------------------------------------------------------------------------------------
# a log cut mid-line: the half-written last line is not read (its values would be cut), the rest reads the same


@pytest.mark.parametrize(
    "name",
    [
        # "... global_step: 120, ..." cut to "... global_step: 12": was read as a step 12 (a restart)
        "paddlenlp_2022_epoch_form_eval_ckpt",
        "paddlenlp_qwen25_pretrain_tutorial",
        # "Epoch: [69]  [ 0/31]  ... loss: 0.0109 ..." cut to "loss: 0": was read as loss 0.0
        "metric_logger_pyra_issue3_epochs66_69",
        "metric_logger_rppg_mae_issue8_epoch2",
    ],
)
def test_line_cut_mid_way_is_not_read(name: str, tmp_path: Path) -> None:
    lines = (PUBLIC / f"{name}.log").read_text().splitlines()
    plain = logparse.parse(str(PUBLIC / f"{name}.log"))
    last = int(plain["line"].iloc[-1])  # the last step line (1-based)
    text = lines[last - 1]
    cut = tmp_path / f"{name}.log"
    cut.write_text("\n".join(lines[: last - 1] + [text[: len(text) // 2]]))  # no newline: the writer stopped
    got = logparse.parse(str(cut))
    _same_reading(plain.iloc[:-1], got)
