"""Hugging Face Trainer and TRL logs whose dicts carry no step number.

Truth: every log in tests/data/captures/hf/ and tests/data/captures/trl/ was printed by a real CPU run
(capture_*.py and README.md there), and the trainer_state.json beside it is the Trainer's own record: its
log_history gives each dict's optimizer `step` and the exact values the console prints with f"{v:.4g}"
(transformers 5.24, trainer_callback.py). Nothing here was taken from logparse's output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from logparse import api
from logparse.cli import cli

CAPTURES = Path(__file__).resolve().parent / "data" / "captures"
HF = CAPTURES / "hf"
TRL = CAPTURES / "trl"

# disable_tqdm=True: no progress bar, so the steps come from the dicts' epoch (and tokens seen)
# name -> the rule that must number the steps (what the log carries)
NO_BAR = {
    # header printed (log_level="info"): "Num update steps per epoch = 13"
    "hf_notqdm_first3_ga2_info_tokens": "the header's steps per epoch",
    "hf_notqdm_first3_ga2_info": "the header's steps per epoch",
    "hf_notqdm_first2_ga4_info": "the header's steps per epoch",
    "hf_notqdm_ddp2_first3_info_tokens": "the header's steps per epoch",  # 2 processes (torchrun, gloo)
    # the default log level prints no header: the final dict's runtime x steps/s = max_steps, over its epochs
    "hf_notqdm_first3_ga2_tokens": "the final dict",
    "hf_notqdm_first3_ga2": "the final dict",
    "hf_notqdm_first1_ga4_tokens": "the final dict",
    "hf_notqdm_ls3_ga2": "the final dict",
    # max_steps runs: the final dict's max_steps at a fractional epoch (inside the first epoch, or the second)
    "hf_notqdm_max20_first3": "the final dict",
    "hf_notqdm_max20_ls3": "the final dict",
    "hf_notqdm_max10_ls2": "the final dict",
}


def _history(path: Path) -> list[dict]:
    state = json.loads(path.with_suffix(".trainer_state.json").read_text())
    return [h for h in state["log_history"] if "loss" in h]


def _printed(v: float) -> float:
    """The console's f"{v:.4g}" of a value trainer_state.json keeps exactly, read back as a number."""
    return float(f"{v:.4g}")


@pytest.mark.parametrize("name", sorted(NO_BAR))
def test_no_bar_steps_and_values_equal_trainer_state(name: str) -> None:
    log = HF / f"{name}.log"
    history = _history(log)
    run = api.resolve(log)
    steps = run.steps
    assert run.parsed.format == "hf_trainer"  # through detection, no format given
    assert list(steps["step"]) == [h["step"] for h in history]
    pairs = [("loss", "loss"), ("grad_norm", "grad_norm"), ("lr", "learning_rate"), ("epoch", "epoch")]
    for column, key in pairs:
        assert list(steps[column]) == [_printed(h[key]) for h in history], column
    if "num_input_tokens_seen" in history[0]:
        assert list(steps["tokens_seen"]) == [h["num_input_tokens_seen"] for h in history]
        # the running train_runtime (the session's own clock) and train_tokens_per_second are kept
        assert list(steps["train_elapsed_s"]) == [_printed(h["train_runtime"]) for h in history]
        speed = [_printed(h["train_tokens_per_second"]) for h in history]
        assert list(steps["x_train_tokens_per_second"]) == speed
    assert NO_BAR[name] in run.step_numbering
    assert not any("rows are numbered 1, 2, 3" in w for w in run.warnings)


def test_step_time_from_the_dicts_own_clock() -> None:
    """With include_num_input_tokens_seen each dict carries the session's running train_runtime: a step of the
    window between two dicts lasts the runtime's difference over the steps between them (trainer_state.json's
    train_runtime as printed, and its steps). The first dict has no window before it."""
    history = _history(HF / "hf_notqdm_first3_ga2_info_tokens.log")
    run = api.resolve(HF / "hf_notqdm_first3_ga2_info_tokens.log")
    expect = [
        (_printed(b["train_runtime"]) - _printed(a["train_runtime"])) / (b["step"] - a["step"])
        for a, b in zip(history, history[1:], strict=False)
    ]
    assert run.steps["step_time_s"].iloc[1:].tolist() == pytest.approx(expect, rel=1e-9)
    assert pd.isna(run.steps["step_time_s"].iloc[0])
    assert "train_elapsed_s" in run.step_time_source


def test_logging_first_step_cadence_is_named() -> None:
    """1, 3, 6, 9, ...: the first dicts show logging_first_step and a dict every 3 steps."""
    run = api.resolve(HF / "hf_notqdm_first3_ga2_info_tokens.log")
    assert "logging_first_step, a dict every 3 steps" in run.step_numbering


def test_epochs_not_a_multiple_of_the_cadence() -> None:
    """13 optimizer steps per epoch (25 micro-batches, GA 2: the 13th step is one micro-batch), a dict every
    3 steps: the second epoch's dicts are steps 15, 18, 21, 24 (trainer_state.json), at epoch 1.16, 1.4, ...,
    where epoch x 13 would give 15.08, 18.2, 21.32, 24.44."""
    steps = api.parse(HF / "hf_notqdm_first3_ga2.log")
    assert list(steps["step"])[5:] == [15, 18, 21, 24]


def test_short_last_step_of_an_epoch() -> None:
    """21 micro-batches per epoch with GA 4: 6 steps, the 6th of one micro-batch. Step 5 prints epoch
    0.9524 (= 20/21), which x 6 steps per epoch is 5.71: the step is 5, not 6 (trainer_state.json)."""
    steps = api.parse(HF / "hf_notqdm_first1_ga4_tokens.log")
    assert list(steps["step"]) == list(range(1, 13))
    assert steps["epoch"].iloc[4] == 0.9524 and steps["epoch"].iloc[5] == 1.0


def _cut(src: Path, tmp_path: Path, keep: int) -> Path:
    """The first `keep` dicts of a real log, as a run killed before its end leaves it (no final dict)."""
    lines = [ln for ln in src.read_text().splitlines(keepends=True) if ln.startswith("{'loss'")][:keep]
    out = tmp_path / src.name
    out.write_text("".join(lines))
    return out


@pytest.mark.parametrize(
    "name,read_off",
    [
        ("hf_notqdm_first3_ga2", "epoch"),
        ("hf_notqdm_first3_ga2_tokens", "tokens seen"),
        ("hf_notqdm_first2_ga4_info", "epoch"),
    ],
)
def test_cut_run_numbered_from_logging_first_step(name: str, read_off: str, tmp_path: Path) -> None:
    """No header, no final dict: the first dicts' epoch (or tokens seen) at steps 1, L, 2L say the cadence L
    and one step's share of an epoch, which number every dict, past the epoch boundary too."""
    history = _history(HF / f"{name}.log")[:7]
    run = api.resolve(_cut(HF / f"{name}.log", tmp_path, 7))
    assert list(run.steps["step"]) == [h["step"] for h in history]
    assert "logging_first_step" in run.step_numbering and f"first dicts' {read_off}" in run.step_numbering


def test_cut_run_without_first_step_says_it_cannot_number(tmp_path: Path) -> None:
    """Dicts at 3, 6, 9, ... with no header, no final dict and no first-step dict: nothing in the log says
    the cadence, so the rows are numbered 1, 2, 3 and the warning says so (never a silent guess)."""
    run = api.resolve(_cut(HF / "hf_notqdm_ls3_ga2.log", tmp_path, 5))
    assert list(run.steps["step"]) == [1, 2, 3, 4, 5]
    assert run.step_numbering == "row ordinal"
    assert any("rows are numbered 1, 2, 3" in w for w in run.warnings)


def test_cli_parse_and_analyze_read_the_no_bar_log(tmp_path: Path) -> None:
    log = HF / "hf_notqdm_first3_ga2.log"
    out = tmp_path / "steps.csv"
    res = CliRunner().invoke(cli, ["parse", str(log), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_text().splitlines()[1].startswith("1,5.448,")
    res = CliRunner().invoke(cli, ["analyze", str(log), "--out", str(tmp_path / "a")])
    assert res.exit_code == 0, res.output
    assert "steps 1..24" in res.output


# ----------------------------------------------------------------------------------------------------
# TRL SFTTrainer (trl 1.16.0): the Trainer's console with TRL's own keys


@pytest.mark.parametrize("name", ["trl_sft_cpu", "trl_sft_buffered_cpu"])
def test_trl_every_key_and_step_equals_trainer_state(name: str) -> None:
    log = TRL / f"{name}.log"
    history = _history(log)
    run = api.resolve(log)
    steps = run.steps
    assert run.parsed.format == "hf_trainer"
    assert list(steps["step"]) == [h["step"] for h in history]
    for column, key in [
        ("loss", "loss"), ("grad_norm", "grad_norm"), ("lr", "learning_rate"), ("epoch", "epoch"),
        ("x_entropy", "entropy"), ("x_mean_token_accuracy", "mean_token_accuracy"),
        ("x_num_tokens", "num_tokens"),
    ]:  # fmt: skip
        assert list(steps[column]) == [_printed(h[key]) for h in history], column


# ----------------------------------------------------------------------------------------------------
# a dict wherever it sits on the line

PUBLIC = Path(__file__).resolve().parent / "data" / "public"


def test_dicts_glued_to_bars_and_warnings_and_a_printed_log_history() -> None:
    """A public README's run (tests/data/public/hf_trainer_seqlabel_glued_bar_warning.log, SOURCES_hf_trainer.toml):
    the bar glued to a warning, a dict after two bar redraws, and the script's print of log_history (a list
    of the same dicts, with 'step': 268 and 536) at line 29. Two steps, 268 and 536, as that list says; the
    list makes no row and none of its keys leaks into the steps."""
    run = api.resolve(PUBLIC / "hf_trainer_seqlabel_glued_bar_warning.log")
    steps = run.steps
    assert list(steps["step"]) == [268, 536]
    assert list(steps["line"]) == [11, 16]
    assert list(steps["loss"]) == [0.08, 0.0351]
    assert list(steps["eval_loss"]) == [0.04710279777646065, 0.047243136912584305]
    assert not [c for c in steps.columns if c.startswith("x_")]


def test_dict_after_warning_text_on_one_line(tmp_path: Path) -> None:
    """A dict glued after a warning's text, as a log pasted outside a code block reads once its newlines are
    gone (`...instead.", FutureWarning) {'loss': ...}`) or as `warnings.warn({'loss': ...}`. The line is made
    here from two real lines of trl_sft_cpu.log (its first warning and its first dict, trainer_state.json's
    step 2); a key-value pair in the text before the dict is not read."""
    lines = (TRL / "trl_sft_cpu.log").read_text().splitlines()
    warning = lines[0] + " " + lines[1].strip()
    first = next(ln for ln in "\r".join(lines).split("\r") if ln.lstrip().startswith("{'loss'")).strip()
    log = tmp_path / "glued.log"
    log.write_text(f"{warning} 'foo': 3 {first}\n  warnings.warn({first}\n")
    steps = api.parse(log)
    h = _history(TRL / "trl_sft_cpu.log")[0]
    assert list(steps["loss"]) == [_printed(h["loss"])] * 2
    assert list(steps["x_entropy"]) == [_printed(h["entropy"])] * 2
    assert "x_foo" not in steps


def test_a_2020_run_with_its_training_arguments_printed() -> None:
    """thai2transformers' pasted run (tests/data/public/hf_trainer_thai2transformers_2020.log): raw-float
    epochs, no 'Num update steps per epoch' (examples / total batch), logging_steps=5 in the printed
    TrainingArguments, evaluation every 10 steps. Steps and values as the lines print them."""
    run = api.resolve(PUBLIC / "hf_trainer_thai2transformers_2020.log")
    assert list(run.steps["step"]) == [5, 10, 15, 20, 25, 30, 35, 40]
    assert run.facts["log_interval"].value == 5
    evals = run.steps.dropna(subset=["eval_loss"])
    assert list(evals["step"]) == [10, 20, 30]
    assert list(evals["eval_loss"]) == [8.826310157775879, 7.698431015014648, 7.177613735198975]


def test_stated_logging_steps_numbers_a_cut_run(tmp_path: Path) -> None:
    """No header, no final dict, no step-1 dict: the printed logging_steps (TrainingArguments' one
    key-per-line form, a line of the 5.24 __str__) says the dicts are steps 3, 6, 9, ...: the first five
    dicts of hf_notqdm_ls3_ga2.log after that line read as trainer_state.json's steps."""
    src = HF / "hf_notqdm_ls3_ga2.log"
    dicts = [ln for ln in src.read_text().splitlines(keepends=True) if ln.startswith("{'loss'")][:5]
    log = tmp_path / "cut.log"
    log.write_text("logging_steps=3,\n" + "".join(dicts))
    run = api.resolve(log)
    assert list(run.steps["step"]) == [h["step"] for h in _history(src)[:5]]
    assert "a dict every 3 steps (logging_steps" in run.step_numbering


def test_text_summary_says_which_rule_numbered_the_steps(tmp_path):
    """No bar, no header: the summary's second line names the rule (the final dict, logging_first_step), and
    the step range is trainer_state.json's: its first and last logged steps."""
    name = "hf_notqdm_first3_ga2"
    truth = [
        e["step"]
        for e in json.loads((CAPTURES / "hf" / f"{name}.trainer_state.json").read_text())["log_history"]
        if "loss" in e
    ]
    res = CliRunner().invoke(cli, ["analyze", str(CAPTURES / "hf" / f"{name}.log"), "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[1].startswith(f"  steps {truth[0]}..{truth[-1]} ")
    assert lines[2].startswith("  step numbers: epoch x steps per epoch")
    assert "logging_first_step" in lines[2]


def test_ms_swift_dicts_and_its_val_bar():
    """ms-swift (tests/data/public/ms_swift_qwen2vl_lora_notebook.log): the dicts glued to its 'Train:' bar are
    steps 1, 5, ..., 50, as each dict's own 'global_step/max_steps' says (read here off the lines, not by
    logparse); the 'Val:' bar's 8/8 at 1.91 s/it is the evaluation's and gives no training step its time."""
    import re

    path = PUBLIC / "ms_swift_qwen2vl_lora_notebook.log"
    text = path.read_text()
    said = [int(m) for m in re.findall(r"\{'loss'.*?'global_step/max_steps': '(\d+)/60'", text)]
    run = api.resolve(path)
    rows = run.all_steps
    assert rows["step"].tolist() == said == [1, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50]
    assert "step_time_s" not in rows or rows["step_time_s"].isna().all()
    assert rows.set_index("step").at[50, "eval_loss"] == 0.03461


# sentence-transformers 6.3 on the Trainer (tests/data/captures/sentence_transformers/, run_*.py there): the
# truth is each run's log_history and the CSV file its evaluator writes a row to at every evaluation; the
# checkpoints are the runs' settings: save_steps 25 of 100 steps, 48 of 96, checkpoint_save_steps 1000 of 3000
ST = CAPTURES / "sentence_transformers"
ST_RUNS = [
    ("sentence_transformers_trainer", "trainer", 100 // 25),
    ("sentence_transformers_fit", "fit", 3000 // 1000),
    ("sentence_transformers_mnrl", "mnrl", 96 // 48),
]


def _evaluator_rows(run: str) -> int:
    """Evaluations the evaluators wrote down: a CSV row each (fit's own epoch-end ones in a second file)."""
    return sum(len(pd.read_csv(p)) for p in ST.glob(f"{run}_*results.csv"))


@pytest.mark.parametrize(("name", "run", "checkpoints"), ST_RUNS)
def test_sentence_transformers_steps_and_losses_equal_log_history(
    name: str, run: str, checkpoints: int
) -> None:
    train = [e for e in json.loads((ST / f"{run}_log_history.json").read_text()) if "loss" in e]
    rows = api.resolve(ST / f"{name}.log").all_steps
    logged = rows[rows["loss"].notna()]
    assert logged["step"].tolist() == [e["step"] for e in train]
    assert logged["loss"].tolist() == [_printed(e["loss"]) for e in train]


@pytest.mark.parametrize(("name", "run", "checkpoints"), ST_RUNS)
def test_sentence_transformers_one_event_per_evaluation_and_checkpoint(
    name: str, run: str, checkpoints: int
) -> None:
    """An evaluator's line, the eval dict after it and a checkpoint's two lines (the Trainer's "Saving model
    checkpoint to .../checkpoint-48" and, at info level, "Model weights saved in .../checkpoint-48/...") each
    count once; the legacy fit's epoch-end evaluations print the evaluator's line alone."""
    events = api.resolve(ST / f"{name}.log").parsed.events
    assert (events["event"] == "eval").sum() == _evaluator_rows(run)
    assert (events["event"] == "checkpoint_save").sum() == checkpoints
