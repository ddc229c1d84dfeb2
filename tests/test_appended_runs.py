"""A file that holds more than one run: `logparse parse` keeps every row, the `run` and `segment` columns say which
run each belongs to, and `analyze` says which run it covers.

Two ways a file comes to hold two runs that the step counter alone does not tell apart from a restart:
- the counter starts again from its beginning with no checkpoint loaded (a script run again into the same file,
  a job started over from scratch): nothing of the first attempt carries over, so it is another run;
- the step lines carry no counter (Hugging Face Trainer's loss dicts), so each training session is numbered from
  its own bar and its own header, and its counter goes back where the next session begins.
The lines are real: a GPT-NeoX stdout log and two real CPU captures of transformers' Trainer (sample_logs/).
"""

from __future__ import annotations

import json

import pytest

from logparse import api
from tests.conftest import SAMPLES

# zainsarwar865/gpt-neox @bd269fac, exps/GPT_experts-8-topk-1-layers12-heads-12/
# gpub019.delta.ncsa.illinois.edu-7e932c424578a91e3626846b2e72db59/logs/..._stdout.txt: a GPT-NeoX job that logged
# iterations 10-40, then was started again from scratch (`load none`, "Loading checkpoint and starting from iteration
# 0") into the same file and logged iteration 10 again. The lines of the two attempts, as the file has them (the
# argument dump cut to three of its lines, the dataset-building lines left out).
NEOX_ATTEMPT = """\
global_num_gpus 1
-------------------- arguments --------------------
  log_interval .................... 10..........................updated
  seq_length ...................... 2048........................updated
  train_iters ..................... 11000.......................updated
---------------- end of arguments ----------------
NeoXArgs.configure_distributed_args() using world size: 1 and model-parallel size: 1
 > total params: 678,446,592
Unable to load checkpoint.
Loading checkpoint and starting from iteration 0
setting training data start iteration to 0
done with setups ...
training ...
"""
NEOX_FIRST = [
    " samples/sec: 11.578 | iteration       10/   11000 | elapsed time per iteration (ms): 1554.7 | learning rate: 2.727E-04 | approx flops per GPU: 37.3TFLOPS | lm_loss: 1.080850E+01 | number of skipped iterations:   0 | number of nan iterations:   0 |",
    "after 10 iterations memory (MB) | allocated: 9074.82470703125 | max allocated: 38796.744140625 | reserved: 43844.0 | max reserved: 43844.0",
    "time (ms) | forward: 727.53 | backward: 731.72 | backward-backward: 731.69 | backward-allreduce: 0.00 | optimizer: 94.78 | batch generator: 9.73",
    " samples/sec: 13.930 | iteration       20/   11000 | elapsed time per iteration (ms): 1292.2 | learning rate: 3.000E-04 | approx flops per GPU: 44.9TFLOPS | lm_loss: 8.854041E+00 | number of skipped iterations:   0 | number of nan iterations:   0 |",
    " samples/sec: 13.881 | iteration       30/   11000 | elapsed time per iteration (ms): 1296.7 | learning rate: 3.000E-04 | approx flops per GPU: 44.7TFLOPS | lm_loss: 7.819771E+00 | number of skipped iterations:   0 | number of nan iterations:   0 |",
    " samples/sec: 13.925 | iteration       40/   11000 | elapsed time per iteration (ms): 1292.7 | learning rate: 3.000E-04 | approx flops per GPU: 44.8TFLOPS | lm_loss: 7.652811E+00 | number of skipped iterations:   0 | number of nan iterations:   0 |",
    "Detected VISIBLE_DEVICES=0: setting --include=localhost:0",
]
NEOX_SECOND = [
    " samples/sec: 11.637 | iteration       10/   11000 | elapsed time per iteration (ms): 1546.8 | learning rate: 2.727E-04 | approx flops per GPU: 37.5TFLOPS | lm_loss: 1.080844E+01 | number of skipped iterations:   0 | number of nan iterations:   0 |",
    "after 10 iterations memory (MB) | allocated: 9074.82470703125 | max allocated: 38796.744140625 | reserved: 43844.0 | max reserved: 43844.0",
]


@pytest.fixture
def neox_log(tmp_path):
    path = tmp_path / "neox_stdout.txt"
    path.write_text(
        NEOX_ATTEMPT + "\n".join(NEOX_FIRST) + "\n" + NEOX_ATTEMPT + "\n".join(NEOX_SECOND) + "\n"
    )
    return str(path)


def test_a_gpt_neox_job_started_over_keeps_every_iteration(neox_log):
    rows = api.parse(neox_log)
    # every iteration line of the file, in the order it ran, the first attempt's iteration 10 included
    assert list(rows["step"]) == [10, 20, 30, 40, 10]
    assert list(rows["loss"]) == [10.8085, 8.854041, 7.819771, 7.652811, 10.80844]
    assert list(rows["run"]) == [0, 0, 0, 0, 1]
    run = api.resolve(neox_log)
    (new,) = [s for s in run.segments if s.kind == "new_run"]
    assert (new.first_step, new.run) == (10, 1)
    assert "no checkpoint is loaded" in new.reason
    assert run.restarts == []  # nothing was resumed: no redone work is claimed


def test_analyze_covers_the_last_run_and_says_so(neox_log):
    a = api.analyze(neox_log)
    assert list(a.steps["step"]) == [10]
    assert a.summary["analyzed"].startswith("run 1 of 2")
    (said,) = [w for w in a.run.warnings if w.code == "several_runs"]
    assert "the analysis covers the last run" in said and "run 0: steps 10..40" in said
    first = api.analyze(neox_log, segment=0)
    assert list(first.steps["step"]) == [10, 20, 30, 40]


def test_a_job_resumed_from_its_checkpoint_is_still_one_run(tmp_path):
    # the same job resumed from its checkpoint of iteration 30 (GPT-NeoX says so in the line that says 0 above),
    # logging iteration 40 again: one run, whose later attempt replaces only the steps it logs again
    resumed = NEOX_ATTEMPT.replace("starting from iteration 0", "starting from iteration 30")
    again = NEOX_SECOND[0].replace("iteration       10/", "iteration       40/")
    path = tmp_path / "neox_resumed.txt"
    path.write_text(NEOX_ATTEMPT + "\n".join(NEOX_FIRST) + "\n" + resumed + again + "\n")
    run = api.resolve(str(path))
    assert list(run.all_steps["step"]) == [10, 20, 30, 40]
    assert list(run.all_steps["run"]) == [0, 0, 0, 0]
    assert run.all_steps["loss"].iloc[-1] == 10.80844  # iteration 40 as the resumed attempt logged it
    (restart,) = run.restarts
    assert (restart.at_step, restart.resumed_from) == (40, 30)


def test_a_resumed_attempt_whose_first_step_is_its_first_log_interval_is_a_restart(tmp_path):
    # "starting from iteration 30" and a first logged iteration of 10 cannot both hold for a fresh start
    resumed = NEOX_ATTEMPT.replace("starting from iteration 0", "starting from iteration 30")
    path = tmp_path / "neox_resumed_early.txt"
    path.write_text(NEOX_ATTEMPT + "\n".join(NEOX_FIRST) + "\n" + resumed + NEOX_SECOND[0] + "\n")
    run = api.resolve(str(path))
    assert [s.kind for s in run.segments] == ["start", "restart"]


def _truth(name: str) -> list[tuple[int, float]]:
    """(step, loss) of every loss the Trainer logged: its trainer_state.json's log_history."""
    state = json.loads((SAMPLES / f"{name}.trainer_state.json").read_text())
    return [(h["step"], h["loss"]) for h in state["log_history"] if "loss" in h]


def test_two_hf_trainer_runs_in_one_file_keep_every_row(tmp_path):
    # two real CPU runs of transformers' Trainer (sample_logs/CAPTURES.md), the second appended to the first's log
    first, second = "hf_trainer_ga4_cpu", "hf_trainer_ls5_ga3_eval10_cpu"
    path = tmp_path / "two_runs.log"
    path.write_bytes((SAMPLES / f"{first}.log").read_bytes() + (SAMPLES / f"{second}.log").read_bytes())
    rows = api.parse(str(path))
    alone = [len(api.parse(str(SAMPLES / f"{name}.log"))) for name in (first, second)]
    assert len(rows) == sum(alone)  # 12 logged steps of the first run, the second's 50 bar positions
    for run, name in enumerate((first, second)):
        mine = rows[(rows["run"] == run) & rows["loss"].notna()]
        got = list(zip(mine["step"].astype(int), mine["loss"].round(3), strict=True))
        assert got == [(s, round(v, 3)) for s, v in _truth(name)]  # the dicts print 4 significant digits
    s = api.analyze(str(path)).summary
    assert [seg["kind"] for seg in s["segments"]] == ["start", "new_run"]
    assert s["steps"]["first"] == 1 and s["steps"]["last"] == 50  # the last run


# Real-s/mini-simclr-assignment code/pretrain.py: `log_text = f"epoch {epoch}/{epochs}, contrastive loss:
# {avg_loss:.4f}"`, appended to logs/pretrain.log (`open(log_path, "a")`) by every run, with no start-up line.
def test_runs_appended_with_no_start_up_line_keep_every_row(tmp_path):
    smoke = ["epoch 1/1, contrastive loss: 3.9921"]
    run_a = [
        "epoch 1/3, contrastive loss: 4.0797",
        "epoch 2/3, contrastive loss: 3.9886",
        "epoch 3/3, contrastive loss: 3.8834",
    ]
    run_b = [
        "epoch 1/3, contrastive loss: 3.9731",
        "epoch 2/3, contrastive loss: 3.7774",
        "epoch 3/3, contrastive loss: 3.7592",
    ]
    path = tmp_path / "pretrain.log"
    path.write_text("\n".join(smoke + run_a + run_b) + "\n")
    rows = api.parse(str(path))
    # one run states one total (1, then 3); a run that reached its total is not resumed from its first epoch
    assert list(rows["step"]) == [1, 1, 2, 3, 1, 2, 3]
    assert list(rows["loss"]) == [3.9921, 4.0797, 3.9886, 3.8834, 3.9731, 3.7774, 3.7592]
    assert list(rows["run"]) == [0, 1, 1, 1, 2, 2, 2]
    a = api.analyze(str(path))
    assert list(a.steps["loss"]) == [3.9731, 3.7774, 3.7592]


# karpathy/llm.c train_gpt2.cu: `printf0("step %4d/%d | loss %7.6f (%+.2fz)| norm %6.4f (%+.2fz)| lr %.2e | %.2f ms |
# %.1f%% bf16 MFU | %.0f tok/s\n", ...)`. A run stopped at step 3 of 5 and started over from step 1 with no checkpoint
# line is a restart (it never reached its total): the later attempt replaces the steps it logs again.
def test_an_unfinished_attempt_started_again_is_still_a_restart(tmp_path):
    line = "step {:4d}/5 | loss {:.6f} (+0.00z)| norm 1.0000 (+0.00z)| lr 1.00e-04 | 100.00 ms | 40.0% bf16 MFU | 5000 tok/s"
    first = [line.format(s, loss) for s, loss in [(1, 11.0), (2, 10.5), (3, 10.1)]]
    again = [line.format(s, loss) for s, loss in [(1, 11.01), (2, 10.49), (3, 10.12), (4, 9.9), (5, 9.7)]]
    path = tmp_path / "train.log"
    path.write_text("\n".join(first + again) + "\n")
    run = api.resolve(str(path))
    assert list(run.all_steps["step"]) == [1, 2, 3, 4, 5]
    assert list(run.all_steps["run"]) == [0, 0, 0, 0, 0]
    assert list(run.all_steps["loss"]) == [11.01, 10.49, 10.12, 9.9, 9.7]
    (restart,) = run.restarts
    assert (restart.at_step, restart.redone_steps) == (3, 3)
