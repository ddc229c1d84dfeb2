"""Run folders: real folders written on CPU by the libraries themselves (tests/data/runfolders, see
its README), each analyzed with no flags beyond what the folder lacks, its numbers held to the library's own
record: trainer_state.json's log_history, Lightning's metrics.csv, the TensorBoard event files as tensorboard's
own EventAccumulator reads them."""

from __future__ import annotations

import csv
import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import logparse
from logparse.cli import cli as main
from logparse.read.runfolder import identify, run_folders

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ROOT / "tests" / "data" / "runfolders"
HF, HF_NOLOG = FOLDERS / "hf_output", FOLDERS / "hf_output_nolog"
LIGHTNING, LIGHTNING_TB = FOLDERS / "lightning_run", FOLDERS / "lightning_tb"


def _history(path: Path) -> dict[int, dict]:
    """trainer_state.json's logged training steps by step (the end-of-run totals left out)."""
    state = json.loads(path.read_text())
    return {e["step"]: e for e in state["log_history"] if "loss" in e}


def _tb_scalars(folder: Path, tag: str) -> dict[int, tuple[float, float]]:
    """step -> (value, wall time) of one tag, read by tensorboard's EventAccumulator (not logparse's reader)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    out = {}
    for events in folder.rglob("events.out.tfevents.*"):
        acc = EventAccumulator(str(events))
        acc.Reload()
        if tag in acc.Tags()["scalars"]:
            out.update({e.step: (e.value, e.wall_time) for e in acc.Scalars(tag)})
    return out


def test_hf_output_dir_without_console_reads_log_history_and_config_json():
    a = logparse.analyze(str(HF_NOLOG))
    truth = _history(
        HF_NOLOG / "checkpoint-30" / "trainer_state.json"
    )  # no top-level state: the latest checkpoint
    steps = a.steps.set_index("step")
    assert sorted(steps.index) == sorted(truth)
    for step, e in truth.items():
        assert steps.at[step, "loss"] == pytest.approx(e["loss"], rel=1e-12)
        assert steps.at[step, "lr"] == pytest.approx(e["learning_rate"], rel=1e-12)
        assert steps.at[step, "grad_norm"] == pytest.approx(e["grad_norm"], rel=1e-12)
    cfg = json.loads((HF_NOLOG / "config.json").read_text())
    model = a.summary["model"]
    assert (model["layers"], model["hidden"], model["heads"], model["kv_heads"], model["ffn_hidden"], model["vocab"]) == (
        cfg["num_hidden_layers"], cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_key_value_heads"],
        cfg["intermediate_size"], cfg["vocab_size"],
    )  # fmt: skip
    assert model["sources"]["hidden"] == "config.json"
    folder = a.summary["folder"]
    assert folder["kind"] == "hf" and folder["steps_from"] == "checkpoint-30/trainer_state.json"


def test_hf_step_times_come_from_the_tensorboard_callbacks_wall_times():
    a = logparse.analyze(str(HF_NOLOG))
    stamps: dict[int, float] = {}  # a logged step's time: the latest stamp of the scalars written for it
    for tag in ("train/loss", "train/learning_rate", "train/grad_norm", "train/epoch"):
        for step, (_, wall) in _tb_scalars(HF_NOLOG, tag).items():
            stamps[step] = max(wall, stamps.get(step, 0.0))
    steps = a.steps.set_index("step")
    logged = sorted(stamps)
    for before, step in zip(logged, logged[1:], strict=False):
        # a logged step stands for the steps since the one before: (wall difference) / (steps between)
        assert steps.at[step, "step_time_s"] == pytest.approx(
            (stamps[step] - stamps[before]) / (step - before), rel=1e-6
        )


def test_hf_console_beside_trainer_state_is_numbered_by_the_record():
    a = logparse.analyze(str(HF))
    truth = _history(HF / "trainer_state.json")
    steps = a.steps.set_index("step")
    assert sorted(steps.index) == sorted(truth)
    for step, e in truth.items():  # the console prints losses rounded (transformers 5: '5.483')
        assert steps.at[step, "loss"] == pytest.approx(e["loss"], abs=6e-4)
    files = [f["file"] for f in a.summary["folder"]["files"]]
    assert files[0] == "train.log" and a.summary["folder"]["files"][0]["read"] == "console"
    assert "config.json" in files and "trainer_state.json" in files


def test_lightning_metrics_csv_gives_every_logged_step_the_bar_did_not_keep():
    a = logparse.analyze(str(LIGHTNING))
    with open(LIGHTNING / "lightning_logs" / "version_0" / "metrics.csv", newline="") as fh:
        truth = {int(r["step"]) + 1: float(r["train_loss"]) for r in csv.DictReader(fh) if r["train_loss"]}
    steps = a.steps.set_index("step")
    assert sorted(steps.index) == sorted(truth)  # metrics.csv counts steps from 0, logparse from 1
    for step, loss in truth.items():
        assert steps.at[step, "loss"] == pytest.approx(loss, rel=1e-12)
    assert a.summary["model"]["seq_len"] == 64  # hparams.yaml: seq_len: 64
    assert a.summary["folder"]["steps_from"] == "lightning_logs/version_0/metrics.csv"


def test_lightning_tensorboard_logger_scalars_and_clock():
    a = logparse.analyze(str(LIGHTNING_TB))
    truth = _tb_scalars(LIGHTNING_TB, "train_loss")
    steps = a.steps.set_index("step")
    assert sorted(steps.index) == sorted(s + 1 for s in truth)  # Lightning's global_step, from 0
    for step, (loss, _) in truth.items():
        assert steps.at[step + 1, "loss"] == pytest.approx(loss, rel=1e-6)
    assert a.summary["steps"]["step_time_source"].startswith("timestamps")


def test_without_the_tensorboard_extra_the_folder_is_read_from_its_plain_files(monkeypatch):
    for name in [m for m in sys.modules if m == "tensorboard" or m.startswith("tensorboard.")] + [
        "tensorboard"
    ]:
        monkeypatch.setitem(sys.modules, name, None)  # `import tensorboard...` raises ImportError
    a = logparse.analyze(str(HF_NOLOG))
    assert len(a.steps) == len(_history(HF_NOLOG / "checkpoint-30" / "trainer_state.json"))
    said = " ".join(a.summary["folder"]["unread"])
    assert "pip install 'logparse[tensorboard]'" in said and "wall times" in said
    assert any(w.code == "folder_unread" for w in a.run.warnings)
    assert (
        a.summary["steps"]["step_time_source"] is None
    )  # no clock without the event files: unknown, not guessed


def test_the_read_line_names_each_file_and_what_it_gave(tmp_path):
    result = CliRunner().invoke(main, ["analyze", str(HF_NOLOG), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    first, read = result.output.splitlines()[:2]
    assert first.startswith("hf_output_nolog: hf run folder, steps from checkpoint-30/trainer_state.json")
    assert (
        read.startswith("  read: config.json (llama dims")
        and "checkpoint-30/trainer_state.json (log_history" in read
    )


def test_a_folder_that_is_no_run_folder_is_one_line_and_exit_nonzero(tmp_path):
    (tmp_path / "notes.md").write_text("hello\n")
    result = CliRunner().invoke(main, ["analyze", str(tmp_path)])
    assert result.exit_code != 0
    assert "not a run folder logparse reads" in result.output
    assert "Traceback" not in result.output


def test_a_folder_of_several_runs_says_to_batch_them(tmp_path):
    shutil.copytree(HF_NOLOG, tmp_path / "a")
    shutil.copytree(LIGHTNING, tmp_path / "b")
    result = CliRunner().invoke(main, ["analyze", str(tmp_path)])
    assert result.exit_code != 0 and "holds 2 runs" in result.output and "logparse batch" in result.output


def test_batch_gives_one_row_per_run_folder_and_plain_log(tmp_path):
    root = tmp_path / "runs"
    for f in (HF, HF_NOLOG, LIGHTNING, LIGHTNING_TB):
        shutil.copytree(f, root / f.name)
    shutil.copy(ROOT / "sample_logs" / "megatron_llama2-7b_8xh100.log", root / "mega.log")
    assert len(run_folders(root)) == 4
    result = CliRunner().invoke(main, ["batch", str(root), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    with open(tmp_path / "out" / "index.csv", newline="") as fh:
        rows = {r["run"]: r for r in csv.DictReader(fh)}
    assert sorted(rows) == ["hf_output", "hf_output_nolog", "lightning_run", "lightning_tb", "mega"]
    assert all(r["status"] == "ok" for r in rows.values())
    # train.log inside hf_output is that run's console, not a run of its own
    assert rows["hf_output"]["source"].endswith("hf_output")


def test_identify_lists_consoles_and_skips_latest_run_links(tmp_path):
    run = tmp_path / "wandb" / "run-20260101_000000-abc"
    shutil.copytree(HF_NOLOG, run)  # any run folder stands in for the link's target
    (tmp_path / "wandb" / "latest-run").symlink_to(run, target_is_directory=True)
    assert run_folders(tmp_path) == [run]
    folder = identify(tmp_path)
    assert folder.root == run


MEGATRON_TB = FOLDERS / "megatron_tb"


def test_megatron_tensorboard_tags_read_as_megatron_means_them():
    """Megatron-LM's tags (training.py training_log): `throughput` is TFLOP/s per GPU, `iteration-time` seconds,
    `lm loss`; the `... vs samples` copies (stepped by consumed samples) are not steps. Truth: what the writer
    was given (truth.jsonl)."""
    a = logparse.analyze(str(MEGATRON_TB))
    truth = [json.loads(line) for line in (MEGATRON_TB / "truth.jsonl").read_text().splitlines()]
    steps = a.steps.set_index("step")
    assert sorted(steps.index) == [t["iteration"] for t in truth]  # 1..200, no sample-count rows
    for t in truth:
        i, sc = t["iteration"], t["scalars"]
        assert steps.at[i, "loss"] == pytest.approx(sc["lm loss"], rel=1e-7)
        assert steps.at[i, "reported_tflops_per_gpu"] == pytest.approx(sc["throughput"], rel=1e-7)
        assert steps.at[i, "lr"] == pytest.approx(sc["learning-rate"], rel=1e-7)
        if "iteration-time" in sc:  # Megatron writes no iteration-time for a job's first iteration
            assert steps.at[i, "step_time_s"] == pytest.approx(sc["iteration-time"], rel=1e-7)
    assert a.summary["gpus"] == 64 and a.summary["gpus_source"] == "progress.txt"


def test_megatron_progress_txt_gives_job_start_and_saved_checkpoints():
    a = logparse.analyze(str(MEGATRON_TB))
    ev = a.run.parsed.events
    saves = ev[ev["event"] == "checkpoint_save"]
    assert saves["step"].tolist() == [50.0, 100.0, 150.0, 200.0]  # progress.txt's Saved checkpoint lines
    starts = ev[ev["event"] == "start"]
    assert len(starts) == 1
    # 2024-09-03 15:51:16, written by strftime('%Y-%m-%d %H:%M:%S') (log_utils.py), read as UTC like the log's stamps
    assert starts["timestamp"].iloc[0] == 1725378676.0
    read = {f["file"]: f["read"] for f in a.summary["folder"]["files"]}
    assert read["progress.txt"] == "1 job start, 4 saved checkpoints, 64 GPUs"


WANDB_OFFLINE = next((FOLDERS / "wandb_offline" / "wandb").glob("offline-run-*"))
WANDB_SYNCED_GPU = next((FOLDERS / "wandb_synced_gpu" / "wandb").glob("offline-run-*"))


def _wandb_truth(folder: Path) -> dict[int, dict]:
    """What the script passed to wandb.log, by step (the capture's own record)."""
    lines = (folder / "truth.jsonl").read_text().splitlines()
    return {e["step"]: e for e in map(json.loads, lines)}


def test_wandb_synced_folder_states_gpus_hardware_and_config():
    a = logparse.analyze(str(FOLDERS / "wandb_synced_gpu"))  # the project folder: its one run is found
    meta = json.loads((WANDB_SYNCED_GPU / "files" / "wandb-metadata.json").read_text())
    assert a.summary["gpus"] == meta["gpu_count"] == 8 and a.summary["gpus_source"] == "wandb-metadata"
    hw = a.summary["hardware"]
    assert hw["name"] == "h100-sxm" and hw["name_source"] == "wandb-metadata"  # "NVIDIA H100 80GB HBM3"
    assert a.summary["model"]["seq_len"] == 128  # config.yaml: seq_len: {value: 128}
    read = {f["file"]: f["read"] for f in a.summary["folder"]["files"]}
    assert read["files/wandb-metadata.json"] == "8 x NVIDIA H100 80GB HBM3"
    truth = _wandb_truth(FOLDERS / "wandb_synced_gpu")
    steps = a.steps.set_index("step")
    assert sorted(steps.index) == sorted(truth)
    for step, e in truth.items():  # output.log prints the loss with 3 decimals
        assert steps.at[step, "loss"] == pytest.approx(e["loss"], abs=5e-4)


def test_the_command_line_wins_over_the_folder(tmp_path):
    a = logparse.analyze(str(WANDB_SYNCED_GPU), gpus=4, hw="a100")
    assert (a.summary["gpus"], a.summary["gpus_source"]) == (4, "cli")
    assert a.summary["hardware"]["name"].startswith("a100") and a.summary["hardware"]["name_source"] == "cli"
    assert any(w.code == "option_differs" for w in a.run.warnings)


def test_wandb_offline_folder_without_the_extra_says_what_it_would_add(monkeypatch):
    for name in [m for m in sys.modules if m == "wandb" or m.startswith("wandb.")] + ["wandb"]:
        monkeypatch.setitem(sys.modules, name, None)
    a = logparse.analyze(str(WANDB_OFFLINE))
    unread = " ".join(a.summary["folder"]["unread"])
    assert "run-" in unread and "pip install 'logparse[wandb]'" in unread and "wandb sync" in unread
    assert a.summary["gpus"] is None  # an offline run's files state no GPUs: unknown, not guessed
    assert len(a.steps) == 50  # its console, files/output.log


def test_wandb_offline_binary_read_by_wandbs_own_reader():
    pytest.importorskip(
        "wandb.sdk.internal.datastore", reason="the wandb extra (wandb<0.30) is not installed"
    )
    a = logparse.analyze(str(WANDB_OFFLINE))
    truth = _wandb_truth(FOLDERS / "wandb_offline")
    read = {f["file"]: f["read"] for f in a.summary["folder"]["files"]}
    assert (
        read[next(WANDB_OFFLINE.glob("run-*.wandb")).name] == f"history, {len(truth)} steps, config, 5 keys"
    )
    assert a.summary["model"]["seq_len"] == 128  # the run record's config
    assert a.summary["steps"]["step_time_source"].startswith(
        "timestamps"
    )  # wandb's _timestamp per logged step


def test_batch_takes_hardware_and_gpus_from_the_folders(tmp_path):
    root = tmp_path / "runs"
    # a project's wandb/ folder as the script left it (its own links, wandb's debug logs)
    shutil.copytree(FOLDERS / "wandb_synced_gpu" / "wandb", root / "team" / "wandb", symlinks=True)
    shutil.copytree(MEGATRON_TB, root / "megatron_tb")
    shutil.copy(ROOT / "sample_logs" / "megatron_llama2-7b_8xh100.log", root / "mega.log")
    result = CliRunner().invoke(main, ["batch", str(root), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    with open(tmp_path / "out" / "index.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 3  # wandb's debug logs and its latest-run link are not runs
    by = {r["run"]: r for r in rows}
    wandb_row = next(r for r in rows if "offline-run" in r["run"])
    assert (wandb_row["gpus"], wandb_row["gpus_source"], wandb_row["hardware"]) == (
        "8",
        "wandb-metadata",
        "h100-sxm",
    )
    assert by["megatron_tb"]["gpus"] == "64"


def test_hf_tensorboard_callback_folder_alone(tmp_path):
    """An HF run's `runs/` folder on its own (TensorBoardCallback): `train/` tags through HF's key table; the end
    of training's `train/train_loss` (the run's mean) is not a step's loss."""
    shutil.copytree(HF_NOLOG / "runs", tmp_path / "runs")
    a = logparse.analyze(str(tmp_path / "runs"))
    truth = _history(HF_NOLOG / "checkpoint-30" / "trainer_state.json")
    steps = a.steps.set_index("step")
    assert sorted(steps.index) == sorted(truth)
    for step, e in truth.items():  # TensorBoard keeps float32
        assert steps.at[step, "loss"] == pytest.approx(e["loss"], rel=1e-6)
        assert steps.at[step, "lr"] == pytest.approx(e["learning_rate"], rel=1e-6)


def test_a_folder_fact_that_the_log_contradicts_loses_with_a_warning_naming_both(tmp_path):
    """The rule between sources: the log's own line wins over a folder's file, and the warning names both."""
    run = tmp_path / "wandb" / WANDB_SYNCED_GPU.name
    shutil.copytree(WANDB_SYNCED_GPU, run, symlinks=True)
    shutil.copy(
        ROOT / "sample_logs" / "megatron_llama2-7b_8xh100.log", run / "files" / "output.log"
    )  # world size 8
    meta = json.loads((run / "files" / "wandb-metadata.json").read_text())
    meta["gpu_count"] = 4
    (run / "files" / "wandb-metadata.json").write_text(json.dumps(meta))
    for binary in run.glob("run-*.wandb"):
        binary.unlink()  # its environment record says 8 as well: this test is about the metadata file
    a = logparse.analyze(str(run))
    assert (a.summary["gpus"], a.summary["gpus_source"]) == (8, "log")
    said = [w for w in a.run.warnings if w.code == "source_differs" and "world_size" in w]
    assert said == ["wandb-metadata: gpu_count says world_size 4, the log says 8 (line 47); using the log's"]
    # config.yaml's seq_len 128 against the log's --seq-length 4096: the same rule
    assert a.summary["model"]["seq_len"] == 4096
    assert any(
        w.startswith("wandb-config: seq_len says seq_len 128, the log says 4096") for w in a.run.warnings
    )


def test_a_console_that_does_not_match_trainer_state_is_numbered_alone_with_a_warning(tmp_path):
    shutil.copytree(HF, tmp_path / "out")
    state = json.loads((tmp_path / "out" / "trainer_state.json").read_text())
    state["log_history"] = state["log_history"][2:]  # another run's state (or a resume) beside this console
    (tmp_path / "out" / "trainer_state.json").write_text(json.dumps(state))
    a = logparse.analyze(str(tmp_path / "out"))
    assert any(w.code == "source_differs" and "do not match" in w for w in a.run.warnings)
    assert a.steps["step"].tolist() == [
        5,
        10,
        15,
        20,
        25,
        30,
    ]  # the console's own numbering (logging_steps 5)


def test_wandb_synced_without_gpu_fields_reads_config_and_states_no_gpus():
    a = logparse.analyze(str(FOLDERS / "wandb_synced"))
    read = {f["file"]: f["read"] for f in a.summary["folder"]["files"]}
    assert read["files/wandb-metadata.json"] == "no GPU fields"  # a CPU machine: wandb wrote no gpu keys
    assert a.summary["gpus"] is None and a.summary["model"]["seq_len"] == 128


def write_events(folder: Path, rows: list[tuple[int, float, dict[str, float]]]) -> None:
    """An event file with tensorboard's own writer: (step, wall time, {tag: value}) per logged step."""
    from tensorboard.compat.proto.event_pb2 import Event
    from tensorboard.compat.proto.summary_pb2 import Summary
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    folder.mkdir(parents=True, exist_ok=True)
    writer = EventFileWriter(str(folder))
    for step, wall, tags in rows:
        values = [Summary.Value(tag=t, simple_value=v) for t, v in tags.items()]
        writer.add_event(Event(wall_time=wall, step=step, summary=Summary(value=values)))
    writer.close()


def test_torchtitan_tags_as_its_metric_logger_means_them(tmp_path):
    """torchtitan/components/metrics.py (MetricsProcessor.log): `throughput(tps)` is tokens/s per device, `mfu(%)`
    a percentage, `time_metrics/end_to_end(s)` seconds per step over the log interval. Values chosen here."""
    rows = [
        (s, 1_700_000_000.0 + 1.25 * s, {"loss_metrics/global_avg_loss": 8.0 - 0.1 * s, "throughput(tps)": 6_000.0 + s,
         "tflops": 300.0, "mfu(%)": 30.0 + s / 10, "time_metrics/end_to_end(s)": 1.25, "grad_norm": 1.5})
        for s in range(1, 21)
    ]  # fmt: skip
    write_events(tmp_path / "tb" / "20260101-0000", rows)
    a = logparse.analyze(str(tmp_path / "tb"))
    assert a.summary["format"] == "torchtitan"
    steps = a.steps.set_index("step")
    for s, _, tags in rows:
        assert steps.at[s, "tokens_per_s_per_gpu"] == pytest.approx(tags["throughput(tps)"])
        assert steps.at[s, "reported_mfu"] == pytest.approx(tags["mfu(%)"] / 100, rel=1e-6)
        assert steps.at[s, "step_time_s"] == pytest.approx(1.25)
        assert steps.at[s, "loss"] == pytest.approx(tags["loss_metrics/global_avg_loss"], rel=1e-6)


def test_nemo_tags_beside_hparams_yaml_count_steps_from_zero_as_lightning_does(tmp_path):
    """NeMo's exp dir: Lightning's TensorBoardLogger (hparams.yaml beside the events, global_step from 0), the
    TimingCallback's `train_step_timing in s`, `reduced_train_loss`; its console among exp_manager's other files."""
    run = tmp_path / "nemo_experiments" / "llama" / "2026-01-01_00-00-00"
    rows = [(g, 1_700_000_000.0 + 2.0 * g, {"reduced_train_loss": 9.0 - 0.2 * g, "train_step_timing in s": 2.0,
             "TFLOPS_per_GPU": 410.0, "global_step": float(g)}) for g in range(0, 10)]  # fmt: skip
    write_events(run, rows)
    (run / "hparams.yaml").write_text("cfg:\n  encoder_seq_length: 4096\n")
    for name in ("cmd-args.log", "git-info.log", "lightning_logs.txt", "nemo_error_log.txt"):
        (run / name).write_text("not the console\n")
    a = logparse.analyze(str(run))
    steps = a.steps.set_index("step")
    assert sorted(steps.index) == [g + 1 for g, _, _ in rows]
    for g, _, tags in rows:
        assert steps.at[g + 1, "loss"] == pytest.approx(tags["reduced_train_loss"], rel=1e-6)
        assert steps.at[g + 1, "step_time_s"] == pytest.approx(2.0)
        assert steps.at[g + 1, "reported_tflops_per_gpu"] == pytest.approx(410.0)
    assert a.summary["model"]["seq_len"] == 4096  # hparams.yaml: cfg.encoder_seq_length
    assert a.summary["folder"]["steps_from"].startswith("events.out.tfevents.") and not any(
        f["read"] == "console" for f in a.summary["folder"]["files"]
    )


def test_a_damaged_folder_is_said_in_one_line_and_a_link_loop_ends(tmp_path):
    run = tmp_path / "runs" / "out"
    shutil.copytree(HF_NOLOG, run)
    (tmp_path / "runs" / "loop").symlink_to(tmp_path / "runs", target_is_directory=True)  # a link back up
    assert run_folders(tmp_path) == [run]
    for state in run.glob("checkpoint-*/trainer_state.json"):
        state.write_text(state.read_text()[:200])  # cut mid-file, as a full disk leaves it
    for events in run.rglob("events.out.tfevents.*"):
        events.write_bytes(b"\x00garbage")
    result = CliRunner().invoke(main, ["analyze", str(run)])
    assert result.exit_code != 0 and "Traceback" not in result.output
    (line,) = [ln for ln in result.output.splitlines() if ln.strip()]
    assert "nothing to analyze" in line and "trainer_state.json not read" in line


def _final(path: Path) -> dict:
    """trainer_state.json's end-of-training entry (Trainer.train's metrics)."""
    return next(e for e in json.loads(path.read_text())["log_history"] if "train_runtime" in e)


def test_hf_end_of_run_figures_come_from_trainer_state_exactly(tmp_path):
    final = _final(HF / "trainer_state.json")
    shutil.copytree(HF, tmp_path / "out")
    (tmp_path / "out" / "train.log").unlink()  # the record alone
    alone = logparse.analyze(str(tmp_path / "out")).summary["whole_run"]
    assert (alone["samples_per_s"], alone["seconds"]) == (
        final["train_samples_per_second"],
        final["train_runtime"],
    )
    # beside the console, which prints them rounded ('400.9'): the same figure, taken exactly, no warning
    beside = logparse.analyze(str(HF))
    assert beside.summary["whole_run"]["samples_per_s"] == final["train_samples_per_second"]
    assert not [w for w in beside.run.warnings if w.code == "source_differs"]


def test_a_megatron_experiment_folder_with_logs_tensorboard_and_checkpoints_side_by_side(tmp_path):
    """Megatron-LM's --tensorboard-dir, --save (progress.txt) and the launcher's logs/ under one experiment."""
    exp = tmp_path / "runs" / "exp1"
    shutil.copytree(MEGATRON_TB / "tensorboard", exp / "tensorboard")
    (exp / "checkpoints").mkdir()
    shutil.copy(MEGATRON_TB / "progress.txt", exp / "checkpoints" / "progress.txt")
    (exp / "logs").mkdir()
    shutil.copy(ROOT / "sample_logs" / "megatron_llama2-7b_8xh100.log", exp / "logs" / "train.log")
    assert run_folders(tmp_path / "runs") == [exp]  # one run, not three
    folder = identify(exp)
    files = [f for f, _ in folder.read]
    assert files[0] == "logs/train.log" and "checkpoints/progress.txt" in files
    assert any(f.startswith("tensorboard/events.out.tfevents.") for f in files)


def test_compare_takes_run_folders(tmp_path):
    out = tmp_path / "cmp.png"
    result = CliRunner().invoke(main, ["compare", str(HF_NOLOG), str(LIGHTNING_TB), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 0 and "hf_output_nolog" in result.output and "lightning_tb" in result.output


HF_EVAL = FOLDERS / "hf_eval"


def test_hf_evaluation_entries_are_evaluations_not_steps(tmp_path):
    """trainer_state.json's eval entries (eval_loss at steps 8, 16, 24) are evaluations: the training steps are the
    entries with a loss, beside the console (whose rows and progress-bar step times stay) or alone."""
    history = json.loads((HF_EVAL / "trainer_state.json").read_text())["log_history"]
    train = {e["step"]: e["loss"] for e in history if "loss" in e}
    evals = {e["step"]: e["eval_loss"] for e in history if "eval_loss" in e}
    beside = logparse.analyze(str(HF_EVAL))
    assert beside.summary["folder"]["steps_from"] is None  # the console's rows
    assert beside.steps["step"].tolist() == sorted(train)
    assert beside.steps["step_time_s"].notna().any()  # the bar's rate, which the record does not have
    shutil.copytree(HF_EVAL, tmp_path / "out")
    (tmp_path / "out" / "train.log").unlink()
    alone = logparse.analyze(str(tmp_path / "out"))
    steps = alone.steps.set_index("step")
    assert sorted(steps.index) == sorted(train)
    for step, loss in train.items():
        assert steps.at[step, "loss"] == pytest.approx(loss, rel=1e-12)
    assert steps.at[24, "eval_loss"] == pytest.approx(
        evals[24], rel=1e-12
    )  # an eval at a training step's number
    ev = alone.run.parsed.events
    assert ev.loc[ev["event"] == "eval", "step"].tolist() == [float(s) for s in sorted(evals)]
