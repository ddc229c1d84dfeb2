"""A run folder's files are read within bounds and their numbers within reason: a JSON or YAML file too big or
nested too deep is not read (a note, the run read from its other files), a YAML file whose aliases stand for
millions of values likewise, and a stated number outside the plausible range of its fact (core/plausible.py) is
left out with a warning, the run analysed without it (W&B's gpu_count of 1e20 stopped the whole batch's index;
a config.json's string where a width goes, or a count of thousands of digits, was an internal error)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from logparse import api
from logparse.read import runfolder
from tests.conftest import SAMPLES

FOLDERS = Path(__file__).resolve().parent / "data" / "runfolders"
WANDB = next((FOLDERS / "wandb_synced_gpu" / "wandb").glob("offline-run-*"))
HF = FOLDERS / "hf_output"


def wandb_run(tmp_path: Path, **meta_changes) -> Path:
    run = tmp_path / "run"
    shutil.copytree(WANDB, run, symlinks=True)
    for binary in run.glob(
        "run-*.wandb"
    ):  # its own GPU count, read with the wandb extra: the file's alone here
        binary.unlink()
    meta_path = run / "files" / "wandb-metadata.json"
    meta = json.loads(meta_path.read_text())
    meta.update(meta_changes)
    meta_path.write_text(json.dumps(meta))
    return run


def warnings_of(run, code: str) -> list[str]:
    return [str(w) for w in run.warnings if w.code == code]


@pytest.mark.parametrize("count", [10**20, 1e20])
def test_a_gpu_count_of_1e20_is_left_out_with_a_warning(tmp_path, count):
    """1e20 GPUs (an integer or a float in the JSON): no job has more than ~10^5; the folder's count is flagged and
    left out, the run analysed as if the file stated none (the log's own count, or none)."""
    run = api.resolve(wandb_run(tmp_path, gpu_count=count))
    assert "world_size" not in run.facts
    assert warnings_of(run, "fact_implausible") == [
        "wandb-metadata: gpu_count states world_size 1e+20: outside the plausible range of world_size, "
        "1 to 1,048,576; left out"
    ]
    assert run.facts["device_name"].value == "NVIDIA H100 80GB HBM3"  # the file's other facts are read


def test_numbers_of_a_config_json_out_of_range_or_of_the_wrong_kind_are_left_out(tmp_path):
    run_dir = tmp_path / "hf"
    shutil.copytree(HF, run_dir)
    cfg = json.loads((run_dir / "config.json").read_text())
    cfg.update(num_hidden_layers=10**30, n_embd="wide", n_inner=None)
    (run_dir / "config.json").write_text(json.dumps(cfg))
    state = json.loads((run_dir / "trainer_state.json").read_text())
    state["train_batch_size"] = 2**70
    (run_dir / "trainer_state.json").write_text(json.dumps(state))
    run = api.resolve(run_dir)
    assert "num_layers" not in run.facts and "micro_batch_size" not in run.facts
    said = warnings_of(run, "fact_implausible")
    assert (
        "config.json: num_hidden_layers states num_layers 1e+30: outside the plausible range of num_layers, "
        in (" ".join(said))
    )
    assert any(
        w.startswith("trainer_state.json: train_batch_size states micro_batch_size 1.18059e+21") for w in said
    )
    assert run.facts["hidden_size"].value == cfg["hidden_size"]  # the plausible ones are kept


def test_a_trainer_state_over_the_size_limit_is_skipped_and_the_console_read(tmp_path, monkeypatch):
    """A 1 GB trainer_state.json took 5.9 GB to read whole; past MAX_RECORD_BYTES it is not read (said in a
    note), and the console gives the steps. The limit is lowered here so that a small file shows the mechanism."""
    run_dir = tmp_path / "hf"
    shutil.copytree(HF, run_dir)
    shutil.rmtree(run_dir / "runs")  # its TensorBoard events: a step record of their own
    size = (run_dir / "trainer_state.json").stat().st_size
    monkeypatch.setattr(runfolder, "MAX_RECORD_BYTES", size - 1)
    opened: list[str] = []
    real = runfolder.read_bounded

    def counted(path, limit):
        opened.append(Path(path).name)
        return real(path, limit)

    monkeypatch.setattr(runfolder, "read_bounded", counted)
    folder = runfolder.identify(run_dir)
    assert folder.record is None and folder.consoles == [run_dir / "train.log"]
    assert (
        f"trainer_state.json not read: {size:,} bytes, more than the {size - 1:,} bytes logparse reads of it"
        in (folder.notes)
    )
    assert opened.count("trainer_state.json") == 1  # refused on its size, before a byte of it was parsed
    state = json.loads((HF / "trainer_state.json").read_text())
    logged = [e["step"] for e in state["log_history"] if "loss" in e]
    run = api.resolve(run_dir)
    assert sorted(run.steps["step"]) == logged  # the console's loss dicts, numbered by its cadence


@pytest.mark.parametrize(
    "name, text",
    [
        ("trainer_state.json", '{"log_history": ' + "[" * 100_000 + "]" * 100_000 + "}"),
        ("config.json", '{"a": ' + '{"b": ' * 500 + "1" + "}" * 501),  # under the recursion limit, over ours
        ("hparams.yaml", "a: " + "[" * 5000 + "]" * 5000 + "\n"),
        ("hparams.yaml", "a: " + "[" * 200 + "]" * 200 + "\n"),
    ],
)
def test_a_file_nested_thousands_deep_is_a_note_not_a_recursion_error(tmp_path, name, text):
    run_dir = tmp_path / "hf"
    shutil.copytree(HF, run_dir)
    (run_dir / name).write_text(text)
    folder = runfolder.identify(run_dir)
    if name == "hparams.yaml":
        runfolder._hparams(folder, run_dir / name)
    (note,) = folder.notes
    # (libyaml's own scanner stops a flow nested a thousand deep before logparse counts its levels)
    assert note == f"{name} not read: nested deeper than 64 levels" or note.startswith(f"{name} not read (")
    assert folder.consoles  # the run is read from what else it holds


def test_a_yaml_whose_aliases_stand_for_billions_of_values_is_not_walked(tmp_path):
    lines = ["a0: &a0 {x: 1, y: 2}"] + [f"a{i}: &a{i} {{p: *a{i - 1}, q: *a{i - 1}}}" for i in range(1, 40)]
    (tmp_path / "hparams.yaml").write_text("\n".join(lines) + "\n")  # 2^40 leaves, in 40 lines
    folder = runfolder.RunFolder(root=tmp_path, kind="lightning")
    runfolder._hparams(folder, tmp_path / "hparams.yaml")
    assert folder.notes == ["hparams.yaml not read: more than 1,000,000 values"] and not folder.configs


@pytest.mark.parametrize(
    "name, text, note",
    [
        (
            "hparams.yaml",
            "seq_len: " + "9" * 5000 + "\n",
            "lightning_logs/version_0/hparams.yaml not read (a number too long to read)",
        ),
        ("progress.txt", "2026-01-01 00:00:00\tJob ID: 1\t# GPUs: " + "9" * 5000 + "\tStarting job\n", None),
    ],
)
def test_a_count_of_thousands_of_digits_is_no_internal_error(tmp_path, name, text, note):
    shutil.copy(SAMPLES / "lightning_ga4_cpu.log", tmp_path / "train.log")
    (tmp_path / "lightning_logs" / "version_0").mkdir(parents=True)
    shutil.copy(
        SAMPLES / "lightning_ga4_cpu.metrics.csv", tmp_path / "lightning_logs" / "version_0" / "metrics.csv"
    )
    (tmp_path / (f"lightning_logs/version_0/{name}" if name.endswith(".yaml") else name)).write_text(text)
    folder = runfolder.identify(tmp_path)
    assert folder.fact("world_size") is None
    if note is not None:
        assert note in folder.notes
    else:  # the start is read; the count is no count
        assert [e["event"] for e in folder.events] == ["start"]
