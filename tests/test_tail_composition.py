"""A framework's set and the generic reading of the training script's own prints, on one log (compose.py).

The logs are REAL CPU runs captured here (tests/data/captures/<framework>/README.md): DeepSpeed 0.19.8 run by
torchrun with 1 and 2 processes, the script printing `step {n} loss {loss:.4f}` every step beside DeepSpeed's
own lines every 5 steps; an accelerate 1.15 loop in the style of the `no_trainer` examples, logging every 5
steps right after its tqdm bar. The truth is the scripts' own JSONL record of every step and rank; values the
framework printed are read off the lines by hand and written here. Everything goes through detection.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logparse import api

CAPTURES = Path(__file__).parent / "data" / "captures"
DS = CAPTURES / "deepspeed"
ACCEL = CAPTURES / "accelerate"


def truth(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def printed(x: float) -> float:
    """A loss as the script printed it: f"{loss:.4f}"."""
    return float(f"{x:.4f}")


def losses(name: str, rank: int) -> dict[int, float]:
    return {r["step"]: printed(r["loss"]) for r in truth(DS / f"{name}.rank{rank}.jsonl")}


def composed_note(run) -> str:
    notes = [v for k, v in run.parsed.notes.items() if "beside the framework" in k]
    assert len(notes) == 1, run.parsed.notes
    return notes[0]


def test_deepspeed_one_process_every_step_has_the_scripts_loss():
    run = api.resolve(DS / "ds_1proc.log")
    steps = run.all_steps.set_index("step")
    assert run.parsed.formats[0] == "deepspeed" and "generic" in run.parsed.formats
    truth0 = losses("ds_1proc", 0)
    assert list(steps.index) == list(range(1, 31)) == sorted(truth0)
    for step, loss in truth0.items():
        assert steps.at[step, "loss"] == pytest.approx(loss, abs=1e-12), step
    # DeepSpeed's own values stay on its steps (read off lines 140 and 175 of the log)
    assert steps.at[5, "samples_per_s"] == pytest.approx(2433.175231953551)
    assert steps.at[30, "samples_per_s"] == pytest.approx(2914.636844058835)
    assert steps["samples_per_s"].notna().sum() == 6  # steps_per_print = 5
    note = composed_note(run)
    assert "generic reading" in note and "joined 6 of the framework's step rows" in note
    assert "made 24 rows" in note


def test_deepspeed_two_processes_with_rank_prefixes_keep_rank1_apart():
    run = api.resolve(DS / "ds_2proc_tee.log")  # torchrun --tee 3: every line carries [default<r>]:
    steps = run.all_steps.set_index("step")
    truth0, truth1 = losses("ds_2proc_tee", 0), losses("ds_2proc_tee", 1)
    assert list(steps.index) == list(range(1, 31))
    for step in range(1, 31):
        assert steps.at[step, "loss"] == pytest.approx(truth0[step], abs=1e-12), step  # rank 0's is the run's
        assert steps.at[step, "loss_rank1"] == pytest.approx(truth1[step], abs=1e-12), step
    assert "loss_rank1" in composed_note(run) and "not averaged" in composed_note(run)


@pytest.mark.parametrize("name", ["ds_2proc", "ds_launcher_2proc"])
def test_deepspeed_two_processes_without_prefixes_keep_both_prints_and_say_the_rank_is_unknown(name):
    # plain torchrun, or the deepspeed launcher: both processes write to one file; which printed a line is
    # unknown. Twice in ds_2proc the two writes landed on one line ("step 7 loss 4.1624step 7 loss 4.1737"):
    # one value of that step is read. (The deepspeed launcher runs the script with python -u: no such line.)
    run = api.resolve(DS / f"{name}.log")
    steps = run.all_steps.set_index("step")
    truth0, truth1 = losses(name, 0), losses(name, 1)
    assert list(steps.index) == list(range(1, 31))  # all 30 (DeepSpeed itself prints 6)
    text = (DS / f"{name}.log").read_text()
    for step in range(1, 31):
        both = {truth0[step], truth1[step]}
        got = {steps.at[step, "loss"], steps.at[step, "loss_print2"]} - {None}
        got = {v for v in got if v == v}  # NaN: the second print was glued to the first
        glued = f"step {step} loss {truth0[step]:.4f}step {step}" in text or (
            f"step {step} loss {truth1[step]:.4f}step {step}" in text
        )
        assert got <= both and (len(got) == 1 if glued else got == both), step
    note = composed_note(run)
    assert "without a rank prefix" in note and "loss_print2" in " ".join(steps.columns)


def test_deepspeed_with_its_default_steps_per_print_reads_the_scripts_steps_and_deepspeeds_config():
    # steps_per_print unset (None): DeepSpeed prints its config and no step line; the prints are the steps
    run = api.resolve(DS / "ds_1proc_default_print.log")
    steps = run.all_steps.set_index("step")
    assert run.parsed.formats[0] == "deepspeed"
    truth0 = losses("ds_1proc_default_print", 0)
    assert list(steps.index) == sorted(truth0) == list(range(1, 31))
    for step, loss in truth0.items():
        assert steps.at[step, "loss"] == pytest.approx(loss, abs=1e-12), step
    # the config dump, read off the log: "train_batch_size ............. 4", "steps_per_print ... None"
    assert run.facts["global_batch_size"].value == 4
    assert "made 30 rows" in composed_note(run)


def test_a_few_prints_are_no_step_sequence_and_are_not_read(tmp_path):
    # the one-process capture with all but two of the script's prints removed: not a counter
    lines = (DS / "ds_1proc.log").read_text().splitlines(keepends=True)
    kept = [ln for ln in lines if not ln.startswith("step ") or ln.startswith(("step 7 ", "step 8 "))]
    log = tmp_path / "two_prints.log"
    log.write_text("".join(kept))
    run = api.resolve(log)
    assert "generic" not in run.parsed.formats
    assert list(run.all_steps["step"]) == [5, 10, 15, 20, 25, 30]
    assert "loss" not in run.all_steps
    assert run.parsed.lines["unmatched"] >= 2
    # nor is the generic reading said to have read them (its note names the lines it read)
    assert not [name for name in run.parsed.notes if name.startswith("generic.")]


def test_prints_around_a_single_framework_step_line_are_read(tmp_path):
    # the one-process capture without DeepSpeed's lines of steps 5-25: one framework step line (30's) left
    lines = (DS / "ds_1proc.log").read_text().splitlines(keepends=True)
    gone = [f"step={n}," for n in (5, 10, 15, 20, 25)] + [f"global_step={n}," for n in (5, 10, 15, 20, 25)]
    log = tmp_path / "one_engine_line.log"
    log.write_text("".join(ln for ln in lines if not any(g in ln for g in gone)))
    steps = api.resolve(log).all_steps.set_index("step")
    assert list(steps.index) == list(range(1, 31))
    assert steps["loss"].notna().all() and steps["samples_per_s"].notna().sum() == 1


def test_a_value_the_framework_printed_too_stays_the_frameworks_and_the_print_is_kept_apart():
    # compose.settle on the frame's rows (no log needed): framework rows of steps 3 and 5 with their own loss,
    # and the script's prints of steps 4-6 among them, whose loss at step 5 differs
    import pandas as pd

    from logparse.patterns import compose

    def row(pattern, line, step, loss):
        return {"kind": "step", "pattern": pattern, "line": line, "rank": None, "step": step, "loss": loss}

    own = [row("megatron.iteration", 3, 3, 4.3), row("megatron.iteration", 6, 5, 4.0)]
    prints = [row("generic.step", 4, 4, 4.2), row("generic.step", 5, 5, 4.1), row("generic.step", 7, 6, 4.05)]
    out, outcome = compose.settle(pd.DataFrame(own + prints), {"generic"})
    by_step = out.set_index("step")
    assert outcome.kept and list(by_step.index) == [3, 4, 5, 6]
    assert by_step.at[5, "loss"] == 4.0 and by_step.at[5, "loss_script"] == 4.1
    assert by_step.at[4, "loss"] == 4.2 and pd.isna(by_step.at[4, "loss_script"])
    assert "loss_script" in next(iter(outcome.notes.values()))


# ------------------------------------------------------------------------------------------------
# accelerate: logger.info records glued onto the tqdm bar's redraws


def test_accelerate_loop_reads_every_logged_step_with_its_clock():
    run = api.resolve(ACCEL / "accel_tqdm.log")
    rows = run.all_steps.set_index("step")
    record = [r for r in truth(ACCEL / "accel_tqdm.jsonl") if r["logged"]]
    assert list(rows.index) == [r["step"] for r in record] == [5, 10, 15, 20, 25, 30]
    for r in record:
        assert rows.at[r["step"], "loss"] == pytest.approx(printed(r["loss"]), abs=1e-12)
        assert rows.at[r["step"], "lr"] == pytest.approx(float(f"{r['lr']:.3e}"), abs=1e-15)
        assert rows.at[r["step"], "step_time_s"] == pytest.approx(float(f"{r['step_time']:.3f}"), abs=1e-12)
    # the logging timestamps are the clock, read off the lines: 12/01/2026 20:20:56 at steps 5-15, :57 after
    stamps = {5: 56, 10: 56, 15: 56, 20: 57, 25: 57, 30: 57}
    for step, second in stamps.items():
        assert rows.at[step, "timestamp"] - rows.at[5, "timestamp"] == second - 56, step
    assert run.parsed.format == "accelerate"
    # the header the no_trainer examples log and the accelerator state (line 2: "Num processes: 1")
    facts = {name: fact.value for name, fact in run.facts.items()}
    assert {k: facts[k] for k in ("num_examples", "num_epochs", "micro_batch_size", "global_batch_size")} == {
        "num_examples": 120,
        "num_epochs": 2,
        "micro_batch_size": 4,
        "global_batch_size": 8,
    }
    assert (facts["grad_accum"], facts["train_iters"], facts["world_size"]) == (2, 30, 1)
    assert "generic reading" in composed_note(run)
    # accelerate's get_logger puts "[RANK {process_index}] " before every message: the print's rank, no x_rank
    assert (run.all_steps["rank"] == 0).all() and "x_rank" not in run.all_steps


def test_accelerate_two_processes_logging_on_every_rank_keep_rank1_apart():
    # torchrun --nproc_per_node 2, logger.info(..., main_process_only=False): "[RANK 0] ...", "[RANK 1] ..."
    run = api.resolve(ACCEL / "accel_2proc.log")
    rows = run.all_steps.set_index("step")
    mine = {r["step"]: r for r in truth(ACCEL / "accel_2proc.jsonl") if r["logged"]}
    other = {r["step"]: r for r in truth(ACCEL / "accel_2proc.rank1.jsonl") if r["logged"]}
    assert list(rows.index) == sorted(mine) == sorted(other) == [5, 10, 15]
    for step in mine:
        assert rows.at[step, "loss"] == pytest.approx(printed(mine[step]["loss"]), abs=1e-12)
        assert rows.at[step, "loss_rank1"] == pytest.approx(printed(other[step]["loss"]), abs=1e-12)
        dt1 = float(f"{other[step]['step_time']:.3f}")
        assert rows.at[step, "step_time_s_rank1"] == pytest.approx(dt1, abs=1e-12)
    # "Num processes: 2" (the accelerator state each process logs) and the header's global batch 4 x 2 x 2
    assert run.facts["world_size"].value == 2 and run.facts["global_batch_size"].value == 16
    assert "loss_rank1" in composed_note(run)


# ------------------------------------------------------------------------------------------------
# the parallel reader (byte ranges, rows in bulk) makes the same frame of these logs as one pass


@pytest.mark.parametrize(
    "path",
    [
        DS / "ds_1proc.log",
        DS / "ds_2proc.log",
        DS / "ds_2proc_tee.log",
        DS / "ds_launcher_2proc.log",
        ACCEL / "accel_tqdm.log",
        ACCEL / "accel_2proc.log",
    ],
    ids=lambda p: p.stem,
)
def test_composed_logs_read_the_same_in_ranges(path, monkeypatch):
    from logparse.frame import chunks
    from tests.test_chunks import _parse, _same

    one = _parse(path)
    size = path.stat().st_size
    for chunk in (max(64, size // 13), max(97, size // 5 + 1)):
        _same(one, _parse(path, jobs=2, chunk_bytes=chunk))
    monkeypatch.setattr(chunks, "BULK_MIN", 1)
    _same(one, _parse(path, jobs=2, chunk_bytes=max(64, size // 3)))


def test_text_summary_names_the_scripts_prints():
    """The summary says the script's own prints were read beside DeepSpeed's lines, with their line range."""
    from logparse.report.outputs import text_summary

    text = text_summary(api.analyze(CAPTURES / "deepspeed" / "ds_1proc.log"))
    (line,) = [ln for ln in text.splitlines() if ln.startswith("  also read: ")]
    assert "generic.step (beside the framework)" in line and "training script's own prints" in line


# ------------------------------------------------------------------------------------------------
# the script's prints no set's regex reads, a bar's description, prints that say which of the framework's
# unnumbered records is which step: synthetic logs built from the projects' own format strings, values chosen here

DS_LINE = (  # deepspeed/runtime/engine.py _report_progress via log_dist (patterns/deepspeed.toml cites it)
    "[2023-04-05 11:22:{second:02d},058] [INFO] [logging.py:75:log_dist] [Rank 0] "
    "step={step}, skipped=0, lr=[0.0001], mom=[[0.9, 0.95]]"
)


def _loss(step: int) -> float:
    return 3.0 - step / 8  # exact in binary: str() prints it as chosen


COUNTER_LAST = {
    # liucongg/ChatGLM-Finetuning finetuning_lora.py L143 (commit e13710cb):
    #   print("loss:{}, global_step:{}".format(float(loss.item()), global_step))
    "chatglm_finetuning": lambda step: f"loss:{_loss(step)}, global_step:{step}",
    # r1407p/SAM4MLLM sam4mllm_train.py L300 (Lightning Fabric, DeepSpeedStrategy stage 2):
    #   tqdm.write(f"loss: {batch_loss/GRAD_ACC_STEPS:.4f}, lr: {optimizer.param_groups[0]['lr']:.6f}, global_step: {global_step}")
    "sam4mllm": lambda step: f"loss: {_loss(step):.4f}, lr: {0.0001:.6f}, global_step: {step}",
}


@pytest.mark.parametrize("project", sorted(COUNTER_LAST))
def test_a_print_with_its_counter_last_beside_deepspeed_is_learnt_from_its_repeats(tmp_path, project):
    # the engine logs every 4 steps (steps_per_print = 4), the script every step after it; the generic set's
    # step regex wants a value after the counter, these prints end with it: the inferred reading of the lines
    # DeepSpeed's set leaves learns them
    lines = []
    for step in range(1, 13):
        if step % 4 == 0:
            lines.append(DS_LINE.format(second=step, step=step))
        lines.append(COUNTER_LAST[project](step))
    log = tmp_path / f"{project}.log"
    log.write_text("\n".join(lines) + "\n")
    run = api.resolve(log)
    rows = run.all_steps.set_index("step")
    assert run.parsed.formats[0] == "deepspeed"
    assert list(rows.index) == list(range(1, 13))
    for step in rows.index:
        assert rows.at[step, "loss"] == pytest.approx(_loss(step), abs=1e-12), step
    assert rows.at[8, "lr"] == pytest.approx(1e-4)  # DeepSpeed's own line of that step
    assert "training script's own prints" in composed_note(run)


def _frame(desc: str, n: int, total: int, rate: str) -> str:
    """One tqdm frame as format_meter draws it: "{desc}: {pct:3.0f}%|{bar}| {n}/{total} [{elapsed}<{remaining}, {rate}]"."""
    pct = 100 * n // total
    fill = "#" * (10 * n // total)
    return f"{desc + ': ' if desc else ''}{pct:3d}%|{fill:<10}| {n}/{total} [00:{n % 60:02d}<00:30, {rate}]"


def test_a_bar_description_is_read_like_any_text_and_the_bar_times_its_steps(tmp_path):
    # BeyonderXX/TRACE model/base_model.py L92-93 (a DeepSpeed-Chat loop):
    #   description = f"Epoch {epoch+1}, Step {step}, Loss: {loss.item():.4f}"
    #   progress_bar.set_description(description, refresh=False)
    # the bar counts every micro-batch of all epochs; the description shows from the next redraw (n = step + 2)
    rates = ["1.25s/it", "1.50s/it", "1.75s/it", "2.00s/it", "1.25s/it", "1.50s/it"]
    lines = [
        "***** Running training *****",
        "",
        _frame("", 0, 24, "?it/s") + "Beginning of Epoch 1/3, Total Micro Batches 8",
        "",
    ]
    for step, rate in enumerate(rates):
        lines.append(_frame(f"Epoch 1, Step {step}, Loss: {_loss(step):.4f}", step + 2, 24, rate))
    log = tmp_path / "trace.log"
    log.write_text("\n".join(lines) + "\n")
    run = api.resolve(log)
    rows = run.all_steps.set_index("step")
    assert list(rows.index) == list(range(6))
    for step, rate in enumerate(rates):
        assert rows.at[step, "loss"] == pytest.approx(_loss(step), abs=1e-12)
        # the bar moves one item a printed step: its rate (tqdm's seconds per item) is the step's time
        assert rows.at[step, "step_time_s"] == pytest.approx(float(rate[:-4]))
    assert "training script's own prints" in composed_note(run)


def test_a_print_glued_after_a_bars_frames_is_read_and_a_bar_of_micro_batches_times_no_step(tmp_path):
    # r1407p/SAM4MLLM sam4mllm_train.py L277 and L300: pbar = tqdm(dataloader, desc=f"Epoch {epoch}"), and
    # every GRAD_ACC_STEPS = 8 items tqdm.write(f"loss: ..., lr: ..., global_step: {global_step}"); the log lost
    # the carriage returns, so each message follows the frames drawn before it on one line
    lines = []
    for step in range(6):
        frames = "".join(_frame("Epoch 0", n, 64, "1.25s/it") for n in range(8 * step + 1, 8 * step + 9))
        lines.append(frames + " " * 12 + COUNTER_LAST["sam4mllm"](step))
    log = tmp_path / "fabric_bar.log"
    log.write_text("\n".join(lines) + "\n")
    run = api.resolve(log)
    rows = run.all_steps.set_index("step")
    assert list(rows.index) == list(range(6))
    for step in rows.index:
        assert rows.at[step, "loss"] == pytest.approx(_loss(step), abs=1e-12)
        assert rows.at[step, "lr"] == pytest.approx(1e-4)
    # eight items a step: the bar's seconds per item are not the step's time
    assert "step_time_s" not in rows or rows["step_time_s"].isna().all()


HF_DICT = (  # transformers' ProgressCallback.on_log writes the logs dict (patterns/hf_trainer.toml's samples)
    "{{'loss': {loss}, 'grad_norm': {grad}, 'learning_rate': {lr}, 'epoch': {epoch}}}"
)
CALLBACK = {
    # ChaoyuWang04/AdCampaignAgent-SFT src/SFT/train_qwen_lora.py L38-43 (ConsoleLossCallback.on_log):
    #   msg = f"step={step}"; msg += f" | loss={loss:.6f}"; msg += f" | lr={lr:.6e}"; print(msg)
    # beside a newer Trainer's dict, whose floats are strings of 4 significant digits
    "adcampaign": (
        lambda step, loss, lr: f"step={step} | loss={loss:.6f} | lr={lr:.6e}",
        lambda loss, grad, lr, epoch: HF_DICT.format(
            loss=f"'{loss:.4g}'", grad=f"'{grad:.4g}'", lr=f"'{lr:.4g}'", epoch=f"'{epoch:.4g}'"
        ),
    ),
    # smlfg/Spark3Version Spark3Version/core/callbacks.py L22 (commit ddb17fa, TeachingCallback.on_log):
    #   print(f"📊 Step {step}: Loss = {loss:.4f}") with step = state.global_step, then a status sentence;
    # beside an older Trainer's dict of raw floats (its loss rounded to 4 decimals by the Trainer)
    "spark3version": (
        lambda step, loss, lr: (
            f"📊 Step {step}: Loss = {loss:.4f}\n   🤔 Model Status: High error. Still guessing randomly."
        ),
        lambda loss, grad, lr, epoch: HF_DICT.format(loss=round(loss, 4), grad=grad, lr=lr, epoch=epoch),
    ),
}


@pytest.mark.parametrize("project", sorted(CALLBACK))
def test_a_callbacks_print_numbers_the_trainers_dict_that_prints_the_same_values(tmp_path, project):
    # a TrainerCallback's on_log runs before the ProgressCallback the Trainer adds last: the project's print of a
    # logging step comes right before the Trainer's dict of it; the dict carries no step number
    printed, dict_line = CALLBACK[project]
    values = {
        10: (2.601831, 0.2167, 9.473684e-06),
        20: (2.469097, 0.1909, 2e-05),
        30: (2.204801, 0.1599, 1.998602e-05),
    }
    lines = []
    for step, (loss, grad, lr) in values.items():
        lines.append(printed(step, loss, lr))
        lines.append(dict_line(loss, grad, lr, step / 600))
    log = tmp_path / f"{project}.log"
    log.write_text("\n".join(lines) + "\n")
    run = api.resolve(log)
    rows = run.all_steps.set_index("step")
    assert run.parsed.formats[0] == "hf_trainer"
    assert list(rows.index) == [10, 20, 30]
    for step, (loss, grad, _lr) in values.items():
        # one value printed twice: the print with more digits is kept (2.601831, not the dict's '2.602')
        printed_loss = float(f"{loss:.6f}" if project == "adcampaign" else f"{loss:.4f}")
        assert rows.at[step, "loss"] == pytest.approx(printed_loss)
        assert rows.at[step, "grad_norm"] == pytest.approx(grad, rel=1e-3)  # the dict's own column
    # the summary says how the dicts got their steps
    assert "3 of the framework's step rows print no step number" in composed_note(run)


def test_prints_whose_values_disagree_with_the_dicts_number_none_of_them(tmp_path):
    # the same layout with the print's loss not the dict's (another quantity under the name): the prints say
    # nothing of which dict is which step, and the Trainer's dicts are numbered as before (1, 2, 3)
    printed, dict_line = CALLBACK["adcampaign"]
    lines = []
    for k, step in enumerate((10, 20, 30)):
        lines.append(printed(step, 5.0 + k, 1e-5))
        lines.append(dict_line(2.0 - k / 10, 0.2, 1e-5, step / 600))
    log = tmp_path / "disagree.log"
    log.write_text("\n".join(lines) + "\n")
    rows = api.resolve(log).all_steps.set_index("step")
    assert list(rows.index) == [1, 2, 3]
    assert list(rows["loss"]) == pytest.approx([2.0, 1.9, 1.8])


def test_prints_read_outside_bars_and_beside_dicts_read_the_same_in_ranges(tmp_path):
    # the parallel reader's workers match with the same sets (the inferred prints' lines among them)
    from tests.test_chunks import _parse, _same

    printed, dict_line = CALLBACK["adcampaign"]
    lines = []
    for step in range(10, 130, 10):
        frames = "".join(_frame("", n, 613, "2.50s/it") for n in range(step - 9, step + 1))
        lines.append(frames + printed(step, 3.0 - step / 100, 2e-05))
        lines.append(dict_line(3.0 - step / 100, 0.25, 2e-05, step / 613))
    for name, text in (
        ("glued.log", lines),
        (
            "described.log",
            ["***** Running training *****"]
            + [_frame(f"Epoch 1, Step {s}, Loss: {_loss(s):.4f}", s + 2, 80, "1.25s/it") for s in range(40)],
        ),
    ):
        log = tmp_path / name
        log.write_text("\n".join(text) + "\n")
        one = _parse(log)
        assert "training script's own prints" in " ".join(one[0].notes.values())
        size = log.stat().st_size
        for chunk in (max(64, size // 7), max(97, size // 3 + 1)):
            _same(one, _parse(log, jobs=2, chunk_bytes=chunk))
