"""Nothing lost, nothing invented: cut-off, corrupted, interleaved and restarted logs."""

from __future__ import annotations

import math
import time

import pytest

from logparse import api
from logparse.core.errors import LogparseError
from tests import synth
from tests.conftest import run_apart


def megatron_text(**kw) -> tuple[str, dict]:
    return synth.megatron_log(synth.Spec(**{"steps": 120, "seed": 1, **kw}))


def test_a_log_cut_mid_line_still_analyzes(write_log):
    text, truth = megatron_text()
    cut = (
        text[: text.index(" iteration      100/")] + " iteration      100/     120 | consumed samples:     12"
    )
    a = api.analyze(str(write_log(cut)), hw="h100")
    # the cut line is still a step record: kept, with what it has (no step time, so it weighs nothing)
    assert a.steps["step"].max() == 100 and math.isnan(a.steps.set_index("step").at[100, "step_time_s"])
    assert a.summary["lines"]["records"] == a.summary["lines"]["matched"] + a.summary["lines"]["unmatched"]
    assert a.summary["stable"]["mfu_mean"] == pytest.approx(truth["stable_mfu"], rel=0.01)


def test_invalid_utf8_and_windows_line_endings_change_no_number(write_log):
    text, _ = megatron_text()
    base = api.parse(str(write_log(text, "a.log")))
    dirty = (
        text.replace("\n", "\r\n").encode().replace(b"WARNING: overriding", b"WARNING\xff\xfe: overriding")
    )
    a = api.resolve(str(write_log(dirty, "b.log")))
    cols = ["step", "step_time_s", "loss", "tokens_per_s"]
    assert a.steps[cols].equals(base[cols])
    assert a.parsed.lines["invalid_utf8_chars"] == 2


def test_nan_and_inf_values_keep_the_step_and_flag_it(write_log):
    text, _ = megatron_text()
    text = text.replace("lm loss: ", "lm loss: nan |XX", 1).replace("|XX", "", 1)
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if " iteration       50/" in line)
    lines[i] = lines[i].replace("grad norm: ", "grad norm: inf | x: ", 1)
    j = next(k for k, line in enumerate(lines) if " iteration       60/" in line)
    lines[j] = lines[j].split("lm loss:")[0] + "lm loss: -nan(ind) | loss scale: 1.0 |"
    a = api.analyze(str(write_log("\n".join(lines) + "\n")), hw="h100")
    steps = a.steps.set_index("step")
    assert len(steps) == 120
    assert math.isnan(steps.at[50, "grad_norm"]) and "nonfinite_grad_norm" in steps.at[50, "flags"]
    assert math.isnan(steps.at[60, "loss"]) and "nonfinite_loss" in steps.at[60, "flags"]
    assert a.summary["flagged_steps"]["nonfinite_grad_norm"] == 1
    assert (
        a.summary["flagged_steps"]["nonfinite_loss"] == 2
    )  # "nan" and MSVC's "-nan(ind)" are both read as NaN


def test_an_unreadable_value_is_malformed_not_dropped(write_log):
    text, _ = megatron_text()
    text = text.replace("lm loss: ", "lm loss: bogus |XX", 1).replace("|XX", "| x: ", 1)
    a = api.analyze(str(write_log(text)), hw="h100")
    assert a.summary["lines"]["malformed"] == 1 and a.summary["flagged_steps"]["malformed"] == 1
    assert len(a.steps) == 120


def test_zero_and_negative_step_times_are_flagged_and_excluded(write_log):
    text, truth = megatron_text()
    text = text.replace("elapsed time per iteration (ms): ", "elapsed time per iteration (ms): 0.0 |X", 1)
    text = text.replace("|X", "| x: ", 1)
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if " iteration       70/" in line)
    head, tail = lines[k].split("elapsed time per iteration (ms): ")
    lines[k] = head + "elapsed time per iteration (ms): -5.0 |" + tail.split("|", 1)[1]
    a = api.analyze(str(write_log("\n".join(lines) + "\n")), hw="h100")
    flagged = a.steps[a.steps["flags"].fillna("").str.contains("bad_step_time")]
    assert set(flagged["step"]) == {1, 70} and flagged["step_time_s"].isna().all()
    assert a.summary["stable"]["mfu_mean"] == pytest.approx(truth["stable_mfu"], rel=0.01)


def test_batch_size_ramp_up(write_log):
    # global batch 32 -> 64 -> 128 with the step time growing with it: tokens/s stays the same
    lines = []
    for i in range(1, 121):
        gbs = 32 if i <= 40 else 64 if i <= 80 else 128
        consumed = sum(32 if k <= 40 else 64 if k <= 80 else 128 for k in range(1, i + 1))
        ms = 6786.5 * gbs / 128
        lines.append(
            f" iteration {i:8d}/     120 | consumed samples: {consumed:12d} | elapsed time per iteration (ms): "
            f"{ms:.1f} | global batch size: {gbs:5d} | lm loss: 2.5E+00 | number of skipped iterations:   0 |"
        )
    a = api.analyze(
        str(write_log("\n".join(lines) + "\n")), hw="h100", gpus=8, seq_len=4096, model="llama2-7b"
    )
    assert list(a.steps["global_batch_size"].iloc[[0, 50, 100]]) == [32, 64, 128]
    assert a.steps["tokens_per_s"].std() / a.steps["tokens_per_s"].mean() < 1e-3
    assert not a.summary["flagged_steps"]  # consumed samples grow by the batch in force


def test_a_consumed_samples_jump_is_reported(write_log):
    text, _ = megatron_text()
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if " iteration " in line and "consumed samples" in line:
            step = int(line.split("iteration")[1].split("/")[0])
            if step >= 90:
                lines[k] = line.replace(
                    f"consumed samples: {step * 128:12d}", f"consumed samples: {step * 128 + 5000:12d}"
                )
    s = api.analyze(str(write_log("\n".join(lines) + "\n")), hw="h100").summary
    assert s["flagged_steps"] == {"consumed_jump": 1}
    assert any("consumed samples jump" in w and "first at 90" in w for w in s["warnings"])


@pytest.mark.parametrize("keep", ["nothing", "args", "load"])
def test_restart_with_or_without_argument_dump_and_load_line(write_log, keep):
    text, truth = megatron_text(steps=200, restart=(150, 120), save_interval=None)
    lines = text.splitlines()
    cut = next(k for k, line in enumerate(lines) if "Watchdog" in line)
    after = lines[cut + 1 :]
    if keep != "args":
        after = [
            line
            for line in after
            if not (line.startswith("  ") or "arguments" in line or "world size" in line)
        ]
    if keep != "load":
        after = [line for line in after if "checkpoint" not in line]
    a = api.analyze(str(write_log("\n".join(lines[: cut + 1] + after) + "\n")), hw="h100")
    (r,) = a.summary["restarts"]
    assert r["at_step"] == 150 and r["resumed_from"] == 120
    assert list(a.steps["step"]) == list(range(1, 201))


def test_straggler_view_when_every_rank_prints(write_log):
    text, truth = megatron_text(all_ranks=True)
    a = api.analyze(str(write_log(text)), hw="h100")
    ranks = a.summary["ranks"]
    assert ranks["printing"] == 8 and ranks["slowest"][0]["rank"] == synth.STRAGGLER_RANK
    assert ranks["slowest"][0]["share"] > 0.5 and ranks["step_time_spread_s_median"] > 0
    assert a.summary["stable"]["mfu_mean"] == pytest.approx(
        truth["stable_mfu"], rel=0.01
    )  # the slowest rank's time


def test_two_ranks_inside_one_physical_line(write_log):
    text, _ = megatron_text(steps=30)
    lines = [line for line in text.splitlines()]
    k = next(i for i, line in enumerate(lines) if " iteration       10/" in line)
    lines[k] = "[default0]:[2024-09-03 16:00:00,000] some progress without newline[default7]:" + lines[k]
    a = api.resolve(str(write_log("\n".join(lines) + "\n")))
    assert 10 in set(a.steps["step"]) and a.steps.set_index("step").at[10, "rank"] == 7


def test_a_64mb_line_without_newline_fails_cleanly_and_fast(tmp_path):
    path = tmp_path / "one_line.log"
    with open(path, "w") as fh:
        for _ in range(64):
            fh.write("x" * (1 << 20))
    start = time.monotonic()
    res = run_apart(["analyze", str(path), "--out", str(tmp_path / "o")])
    assert time.monotonic() - start < 30
    assert res.exit_code == 1 and res.stderr.startswith("error: ") and "Traceback" not in res.stderr
    assert len(res.stderr.splitlines()) == 1, res.stderr


def test_unknown_format_lists_the_sets_tried(write_log):
    with pytest.raises(LogparseError, match=r"tried .*megatron.*; run `logparse patterns explain"):
        api.analyze(str(write_log("hello\nworld\n" * 100)))


def _variants(text: str) -> dict[str, bytes]:
    """The issue's list of inputs that must work, each applied to a real-format Megatron log."""
    lines = text.splitlines()
    it = [k for k, line in enumerate(lines) if " iteration " in line and "consumed samples" in line]
    nan = list(lines)
    nan[it[30]] = nan[it[30]].replace("lm loss: ", "lm loss: nan | x: ")
    zero = list(lines)
    zero[it[40]] = zero[it[40]].replace(
        "elapsed time per iteration (ms): ", "elapsed time per iteration (ms): 0.0 | x: "
    )
    glued = list(lines)
    glued[it[50]] = " 42%|####  | 50/120 [05:40<07:56, 6.79s/it]" + glued[it[50]]
    interleaved = list(lines)
    interleaved[it[60]] = "[default0]:[W1129 14:40:28.27] reducer warning[default7]:" + interleaved[it[60]]
    return {
        "truncated_last_line": (text.rstrip("\n")[:-40]).encode(),
        "invalid_utf8": text.encode().replace(b"WARNING", b"WARN\xffING"),
        "windows_line_endings": text.replace("\n", "\r\n").encode(),
        "nan_values": "\n".join(nan).encode(),
        "zero_step_time": "\n".join(zero).encode(),
        "duplicated_lines": "".join(line + "\n" + line + "\n" for line in lines).encode(),
        "interleaved_ranks": "\n".join(interleaved).encode(),
        "tqdm_glued": "\n".join(glued).encode(),
        "stops_mid_run": "\n".join(lines[: it[70]]).encode(),
    }


@pytest.mark.parametrize("name", list(_variants(megatron_text()[0])))
def test_every_listed_input_works_through_the_cli(tmp_path, name):
    from click.testing import CliRunner

    from logparse.cli import cli

    text, truth = megatron_text()
    path = tmp_path / f"{name}.log"
    path.write_bytes(_variants(text)[name])
    res = CliRunner().invoke(
        cli,
        ["analyze", str(path), "--hw", "h100", "--json", "--out", str(tmp_path / "o")],
        catch_exceptions=False,
    )
    assert res.exit_code == 0, res.output
    import json

    s = json.loads(res.stdout)
    assert s["stable"]["mfu_mean"] == pytest.approx(truth["stable_mfu"], rel=0.01)
    assert s["lines"]["records"] == s["lines"]["matched"] + s["lines"]["unmatched"]
    assert s["lines"]["total"] == s["lines"]["physical"]


def test_a_step_whose_timing_implies_more_than_100_percent_is_flagged(sample):
    # MaxText's first step is timed before the work finishes (`completed step: 1, seconds: 0.631,
    # TFLOP/s/device: 5688.282`); the sample log reproduces it
    a = api.analyze(sample("maxtext_llama2-7b_8xh100.log"), hw="h100", model="llama2-7b")
    assert a.summary["flagged_steps"].get("mfu_above_100") == 1
    assert a.summary["stable"]["mfu_mean"] < 1
