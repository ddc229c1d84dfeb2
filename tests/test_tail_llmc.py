"""llm.c and llama2.c-style loops: a REAL train_gpt2.c run on CPU (tests/data/captures/llmc/, README.md there) and
public train_gpt2.cu / llama2.c logs (tests/data/public, SOURCES_torchtune_llmc.toml, where each line's values are listed).

train_gpt2.c keeps no record besides its console, so its truth is read here off the lines with a plain split,
independent of the pattern set, plus values written by hand. The public logs' values are read by hand.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import logparse
from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets

DATA = Path(__file__).resolve().parent / "data"
CAPTURE = DATA / "captures" / "llmc" / "train_gpt2c_cpu.log"
PUBLIC = DATA / "public"


def split_truth() -> dict[int, tuple[float, float]]:
    """'step 7: train loss 10.707145 (took 227.367350 ms)' -> {7: (10.707145, 0.22736735)}, by splitting."""
    out = {}
    for line in CAPTURE.read_text().splitlines():
        if line.startswith("step ") and ": train loss " in line:
            head, _, rest = line.partition(": train loss ")
            loss, _, took = rest.partition(" (took ")
            out[int(head.split()[1])] = (float(loss), float(took.split()[0]) / 1000)
    return out


def test_capture_every_step_loss_and_time():
    truth = split_truth()
    assert sorted(truth) == list(range(41))  # train_gpt2.c: for (int step = 0; step <= 40; step++)
    run = logparse.resolve(CAPTURE)
    assert run.parsed.format == "llmc"
    rows = run.all_steps
    assert rows["step"].tolist() == list(range(41))
    rows = rows.set_index("step")
    for step, (loss, seconds) in truth.items():
        assert rows.at[step, "loss"] == loss, step
        assert rows.at[step, "step_time_s"] == pytest.approx(seconds, rel=1e-12), step
    # by hand, lines 18 and 58 of the capture
    assert rows.at[0, "loss"] == 10.814402 and rows.at[0, "step_time_s"] == pytest.approx(0.294033439)
    assert rows.at[40, "loss"] == 10.41588 and rows.at[40, "step_time_s"] == pytest.approx(0.579551341)


def test_capture_header_and_val_losses():
    parsed = parse_log(str(CAPTURE), load_sets())
    facts = {k: v[0].value for k, v in parsed.facts.items()}
    # make_inputs.py's checkpoint: L=2, NH=2, C=32, V=50257 padded to 50304; 1,637,248 parameters as printed
    assert {k: facts[k] for k in ("num_layers", "num_attention_heads", "hidden_size", "vocab_size")} == {
        "num_layers": 2, "num_attention_heads": 2, "hidden_size": 32, "vocab_size": 50257}  # fmt: skip
    assert facts["padded_vocab_size"] == 50304 and facts["total_params"] == 1637248
    evals = parsed.events[parsed.events["event"] == "eval"]
    # "val loss %f" before steps 0, 10, 20, 30, 40
    assert evals["eval_loss"].tolist() == [10.815886, 10.73913, 10.64358, 10.559531, 10.492172]
    assert parsed.lines["malformed"] == 0


def test_cu_columns_mean_what_llmc_prints():
    """discussion #677 (8 x H100): '| 2747.19 ms | 47.4% bf16 MFU | 381690 tok/s' at step 2."""
    run = logparse.resolve(PUBLIC / "llmc_discussion677_gpt2_1558m.log")
    row = run.all_steps.set_index("step").loc[2]
    assert row["step_time_s"] == pytest.approx(2.74719)
    assert row["reported_mfu"] == pytest.approx(0.474)
    # tok/s is the whole job's (num_processes x B x T x grad_accum / time), kept as printed...
    assert row["tokens_per_s_logged"] == 381690.0
    # ... and per GPU is that over the 8 processes of "batch_size B=16 * seq_len T=1024 * num_processes=8"
    assert row["tokens_per_s_per_gpu"] == pytest.approx(row["tokens_per_s"] / 8)
    assert row["tokens_per_s"] == pytest.approx(1048576 / 2.74719)  # total_batch_size / step time


def test_unknown_gpu_mfu_is_null_not_minus_one():
    """'-100.0% bf16 MFU' is llm.c's 'GPU not in my table' (llmc/mfu.h returns -1): no MFU, not -1."""
    parsed = parse_log(str(PUBLIC / "llmc_issue796_blackwell_mfu.log"), load_sets())
    steps = parsed.rows[parsed.rows["kind"] == "step"]
    assert "reported_mfu" not in steps or steps["reported_mfu"].isna().all()
    a800 = parse_log(str(PUBLIC / "llmc_a800_d12_table.log"), load_sets())
    assert "framework_peak_tflops" not in a800.facts  # "| peak TFlops | -1.0 |"


def test_nan_loss_steps_are_kept_and_flagged():
    run = logparse.resolve(PUBLIC / "llmc_anthonix_issue2_nan.log")
    rows = run.all_steps
    assert rows["step"].tolist() == list(range(10, 21))
    assert "loss" not in rows or rows["loss"].map(math.isnan).all()  # a NaN loss is no number
    assert rows["flags"].str.contains("nonfinite_loss").all()
    assert rows["step_time_s"].tolist()[:2] == [0.03658, 0.03651]  # the rest of the line still reads
    assert any("NaN or infinite loss" in w for w in run.warnings)


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("llmc_discussion677_gpt2_1558m", "llmc"),
        ("llmc_a800_d12_table", "llmc"),
        ("llmc_readme_train_gpt2c", "llmc"),
        ("llama2c_issue461_mps", "llama2c"),
        ("llama2c_modded_llama2_issue10", "llama2c"),
    ],
)
def test_detected_as_their_own_set(name, fmt):
    assert parse_log(str(PUBLIC / f"{name}.log"), load_sets()).format == fmt


def test_custom_loop_with_a_total_is_not_taken_for_llmc(tmp_path):
    """A custom loop that prints 'step 10/1000 | loss ...' like llm.c but has no '| norm': not llm.c."""
    path = tmp_path / "custom.log"
    path.write_text("step 10/1000 | loss 11.701 | 2862.9 ms/step | 22,892 tok/s\n")
    assert parse_log(str(path), load_sets()).format != "llmc"


def test_nanogpt_logs_still_read_as_nanogpt():
    """nanoGPT prints the same eval and tokens-per-iteration lines as llama2.c; its iter lines keep it
    nanogpt."""
    log = DATA.parent.parent / "sample_logs" / "nanogpt_gpt2_8xa100.log"
    assert parse_log(str(log), load_sets()).format == "nanogpt"


# ------------------------------------------------------------------------------------------------
# llama2.c train.py, a real CPU run (tests/data/captures/llama2c/)

L2C = DATA / "captures" / "llama2c" / "llama2c_train_cpu.log"


def l2c_truth() -> dict[int, tuple[float, float, float, str]]:
    """'5 | loss 5.0179 | lr 2.000000e-03 | 11.37ms | mfu 0.01%' -> {5: (5.0179, 2e-3, 0.01137, '0.01')}."""
    out = {}
    for line in L2C.read_text().splitlines():
        parts = line.split(" | ")
        if len(parts) == 5 and parts[0].isdigit():
            out[int(parts[0])] = (
                float(parts[1].split()[1]),
                float(parts[2].split()[1]),
                float(parts[3].removesuffix("ms")) / 1000,
                parts[4].split()[1].removesuffix("%"),
            )
    return out


def test_llama2c_capture_every_iteration():
    truth = l2c_truth()
    assert sorted(truth) == list(range(41))  # max_iters 40: iterations 0..40, log_interval 1
    run = logparse.resolve(L2C)
    assert run.parsed.format == "llama2c"  # not nanogpt, whose "tokens per iteration" line it shares
    rows = run.all_steps.set_index("step")
    assert rows.index.tolist() == list(range(41))
    for it, (loss, lr, seconds, mfu) in truth.items():
        assert (rows.at[it, "loss"], rows.at[it, "lr"]) == (loss, lr), it
        assert rows.at[it, "step_time_s"] == pytest.approx(seconds, rel=1e-12), it
        if mfu == "-100.00":  # running_mfu is -1 until local_iter_num >= 5
            assert math.isnan(rows.at[it, "reported_mfu"]), it
        else:
            assert rows.at[it, "reported_mfu"] == pytest.approx(float(mfu) / 100), it
    assert [it for it, t in truth.items() if t[3] == "-100.00"] == [0, 1, 2, 3, 4]
    assert rows.at[0, "loss"] == 5.3996 and rows.at[40, "loss"] == 3.1734  # by hand, lines 34 and 84


def test_llama2c_capture_facts_and_events():
    run = logparse.resolve(L2C)
    facts = {k: v.value for k, v in run.facts.items()}
    # "breaks down as: 2 grad accum steps * 1 processes * 4 batch size * 64 max seq len", the --overrides
    want = {"grad_accum": 2, "world_size": 1, "micro_batch_size": 4, "seq_len": 64, "tokens_per_step": 512,
            "hidden_size": 64, "num_layers": 2, "num_attention_heads": 4, "vocab_size": 256, "train_iters": 40}  # fmt: skip
    assert {k: facts[k] for k in want} == want
    events = run.parsed.events
    evals = events[events["event"] == "eval"]
    assert evals["step"].tolist() == [0, 20, 40]
    assert evals["eval_loss"].tolist() == [5.4443, 3.8189, 3.7214]
    assert (events["event"] == "checkpoint_save").sum() == 2
