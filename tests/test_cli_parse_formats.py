"""Parse, formats and text: each point through the CLI (click's CliRunner). Expected values are
read off the sample logs by hand or come from the datasheets cited, not from running logparse."""

from __future__ import annotations

import gzip
import io
import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import logparse
from logparse.cli import cli
from logparse.core.naming import run_names
from tests.conftest import SAMPLES

MEGATRON = str(SAMPLES / "megatron_llama2-7b_8xh100.log")
COLOSSAL = str(SAMPLES / "colossalai_llama2-7b_8xh100.log")
# megatron_llama2-7b_8xh100.log line 55, step 1: "elapsed time per iteration (ms): 84396.9"
# and the line starts "[2024-09-03 15:54:07]"
STEP1_TIME_S = 84.3969
STEP1_STAMP = "2024-09-03T15:54:07.000000+00:00"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_parse_help_offers_only_what_parse_uses():
    res = run("parse", "--help")
    assert res.exit_code == 0
    for unused in ("--window", "--last", "--skip", "--target-tokens"):
        assert unused not in res.output, unused
    assert "--segment" in res.output and "every run in the file" in " ".join(res.output.split())
    assert "the file's last run" not in " ".join(res.output.split())
    # and a flag parse does not take is refused, not accepted silently
    res = run("parse", MEGATRON, "--window", "10:20", "--last", "3")
    assert res.exit_code == 2 and "No such option" in res.output


def test_unmatched_dash_is_standard_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run("parse", MEGATRON, "--unmatched", "-", "-o", str(tmp_path / "s.csv"))
    assert res.exit_code == 0, res.output
    assert not (tmp_path / "-").exists()
    # line 2 of the log is the tokenizer warning no pattern reads
    assert "2\tWARNING: overriding default arguments for tokenizer_type:Llama2Tokenizer" in res.output
    # the CSV on stdout too would mix the two: refused in one line
    res = run("parse", MEGATRON, "--unmatched", "-")
    assert res.exit_code == 2 and "-o" in res.output and not (tmp_path / "-").exists()


def test_gzipped_outputs_are_written_gzipped(tmp_path):
    for name in ("s.csv.gz", "s.jsonl.gz"):
        res = run("parse", MEGATRON, "-o", str(tmp_path / name))
        assert res.exit_code == 0, res.output
        with gzip.open(tmp_path / name, "rt") as fh:
            text = fh.read()
        first = json.loads(text.splitlines()[0]) if name.endswith("jsonl.gz") else None
        if first is None:
            frame = pd.read_csv(io.StringIO(text))
            assert len(frame) == 500 and frame["step_time_s"].iloc[0] == STEP1_TIME_S
        else:
            assert first["step"] == 1 and first["step_time_s"] == STEP1_TIME_S


def test_a_bad_output_writes_nothing_before_the_error(tmp_path):
    listing = tmp_path / "unmatched.txt"
    (tmp_path / "afile").write_text("")
    for bad in (tmp_path / "s.txt", tmp_path / "afile" / "s.csv", tmp_path):
        res = run("parse", MEGATRON, "-o", str(bad), "--unmatched", str(listing))
        assert res.exit_code == 2 and res.output.startswith("error: "), res.output
        assert len(res.output.strip().splitlines()) == 1
        assert not listing.exists(), bad
    assert ".csv, .parquet or .jsonl" in run("parse", MEGATRON, "-o", str(tmp_path / "s.txt")).output


def test_jsonl_writes_floats_and_timestamps_as_csv_does(tmp_path):
    assert run("parse", MEGATRON, "-o", str(tmp_path / "s.jsonl")).exit_code == 0
    assert run("parse", MEGATRON, "-o", str(tmp_path / "s.csv")).exit_code == 0
    line = (tmp_path / "s.jsonl").read_text().splitlines()[0]
    assert '"step_time_s":84.3969,' in line and "84.39690000" not in line
    assert json.loads(line)["timestamp"] == STEP1_STAMP
    csv_row = (tmp_path / "s.csv").read_text().splitlines()[1]
    assert f",{STEP1_STAMP}," in csv_row and ",84.3969," in csv_row
    # the README says so too
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert "+00:00" in readme


def test_a_step_without_a_timestamp_is_null_in_jsonl_and_empty_in_csv(tmp_path):
    from logparse.report.outputs import write_steps

    stamps = pd.to_datetime(["2024-09-03 15:54:07.5", None], format="ISO8601").tz_localize("UTC")
    frame = pd.DataFrame({"step": [1, 2], "timestamp": stamps})
    write_steps(frame, tmp_path / "s.jsonl")
    write_steps(frame, tmp_path / "s.csv")
    rows = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    assert rows[0]["timestamp"] == "2024-09-03T15:54:07.500000+00:00"
    assert rows[1]["timestamp"] is None  # JSON's null, not NaN (which is no JSON)
    assert "NaN" not in (tmp_path / "s.jsonl").read_text()
    assert (tmp_path / "s.csv").read_text().splitlines()[1:] == ["1,2024-09-03T15:54:07.500000+00:00", "2,"]


def test_summary_window_values_carry_no_float_noise(tmp_path):
    # 12 significant digits, as steps.csv writes a value: no representation noise (a mean printed as
    # 84.396900000000002), and as precise as the peers' own figures it is checked against (tests/test_peers.py)
    res = run("analyze", MEGATRON, "--hw", "h100", "--window", "100:200", "--out", str(tmp_path))
    assert res.exit_code == 0, res.output
    window = json.loads((tmp_path / "summary.json").read_text())["window"]

    def numbers(obj):
        if isinstance(obj, dict):
            for v in obj.values():
                yield from numbers(v)
        elif isinstance(obj, float):
            yield obj

    values = list(numbers(window))
    assert values and all(len(re.sub(r"[-.]|e.*|^0\.0*", "", repr(v))) <= 12 for v in values), values


def test_target_tokens_takes_suffixes(tmp_path):
    res = run("analyze", MEGATRON, "--hw", "h100", "--target-tokens", "2T", "--json", "--out", str(tmp_path))
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["eta"]["target_tokens"] == 2e12
    res = run("analyze", MEGATRON, "--target-tokens", "2X", "--out", str(tmp_path))
    assert res.exit_code == 2 and "K, M, B or T" in res.output


def test_a_forced_format_is_not_said_to_be_recognised(tmp_path):
    log = tmp_path / "plain.log"
    log.write_text("hello\nworld\n")
    res = run("parse", str(log), "--format", "nanogpt")
    assert res.exit_code == 1 and "recognised as" not in res.output
    assert "read as nanogpt (--format)" in res.output


def test_explain_says_a_forced_format_was_forced():
    nanogpt = str(SAMPLES / "nanogpt_gpt2_8xa100.log")
    first = run("patterns", "explain", nanogpt, "--format", "nanogpt").output.splitlines()[0]
    assert "forced by --format" in first and "detection scores" not in first
    assert "detection scores: nanogpt " in run("patterns", "explain", nanogpt).output.splitlines()[0]


def test_out_naming_a_file_says_so(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("")
    res = run("analyze", MEGATRON, "--out", str(afile))
    assert res.exit_code == 2 and "File exists" not in res.output
    assert "is a file" in res.output and "folder" in res.output


def test_no_pattern_set_lists_only_formats(tmp_path):
    log = tmp_path / "plain.log"
    log.write_text("hello\nworld\n")
    res = run("parse", str(log))
    tried = re.search(r"\(tried ([^)]*)\)", res.output)[1].split(", ")
    assert "megatron" in tried and "common" not in tried and "devices" not in tried


def _columns_aligned(lines: list[str], column: int) -> bool:
    """The start of the `column`-th field (split on 2+ spaces or the first space) is the same on every line."""
    starts = {m.start() for line in lines for m in [list(re.finditer(r"(?<=\s)\S", line))[column - 1]]}
    return len(starts) == 1


def test_lists_stay_aligned_on_long_names(tmp_path):
    extra = tmp_path / "sets"
    extra.mkdir()
    shutil.copy(Path(logparse.__file__).resolve().parents[1] / "patterns" / "nanogpt.toml", extra / "x.toml")
    text = (extra / "x.toml").read_text()
    (extra / "x.toml").write_text(
        text.replace('name = "nanogpt"', 'name = "a_very_long_pattern_set_name"', 1)
    )
    res = run("patterns", "list", "--patterns", str(extra))
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert any(line.startswith("a_very_long_pattern_set_name ") for line in lines), res.output
    assert _columns_aligned(lines, 1)  # the titles start in one column
    res = run("models", "list")
    assert res.exit_code == 0
    assert len({line.index(" L=") for line in res.output.splitlines()}) == 1


def test_a_fractional_parameter_count_is_printed_whole(tmp_path):
    # the log prints "Model params: 6.28 B" (ColossalAI counts in 2**30): 6.28 * 2**30 = 6,743,098,654.72
    res = run("analyze", COLOSSAL, "--hw", "h100", "--out", str(tmp_path))
    assert res.exit_code == 0, res.output
    assert "6,743,098,655" in res.output and "6,743,098,654.72" not in res.output


def test_group_helps_have_an_example_and_every_flag_a_help_text():
    for group in ("patterns", "hw", "models"):
        assert "Example" in run(group, "--help").output, group
    flops = " ".join(run("flops", "--help").output.split())
    for opt in (
        "--layers INTEGER Transformer layers",
        "--hidden INTEGER Hidden size",
        "--vocab INTEGER Vocab",
    ):
        assert opt in flops, opt
    compare = " ".join(run("compare", "--help").output.split())
    assert re.search(r"-o, --output PATH \w", compare), compare


def test_dir_lists_the_api():
    assert {"analyze", "parse", "explain", "resolve", "Analysis"} <= set(dir(logparse))


def test_nvl_peaks_are_half_the_datasheets_sparse_figures():
    # NVIDIA H100 and H200 datasheets, NVL columns: BF16 1,671 TFLOPS with sparsity -> 835.5 dense
    res = run("hw", "list", "--json")
    peaks = {d["name"]: d["peak_tflops"].get("bf16") for d in json.loads(res.output)}
    assert peaks["h100-nvl"] == 835.5 and peaks["h200-nvl"] == 835.5


def test_stitched_batch_runs_keep_their_folder(tmp_path):
    runs = tmp_path / "runs"
    (runs / "jobx").mkdir(parents=True)
    (runs / "team_a" / "run1").mkdir(parents=True)
    (runs / "team_a" / "run2").mkdir(parents=True)
    text = Path(MEGATRON).read_text().splitlines(keepends=True)
    # the two attempts of one job (the first half of the log, then the second)
    (runs / "jobx" / "slurm-1234.out").write_text("".join(text[:300]))
    (runs / "jobx" / "slurm-1300.out").write_text("".join(text[:54] + text[300:]))
    shutil.copy(MEGATRON, runs / "team_a" / "run1" / "train.log")
    shutil.copy(MEGATRON, runs / "team_a" / "run2" / "train.log")
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["batch", str(runs), "--hw", "h100", "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    index = pd.read_csv(out / "index.csv")
    assert sorted(index["run"]) == ["jobx_slurm", "run1_train", "run2_train"]
    # unique, and the same names each time
    paths = [runs / "a" / "jobx" / "slurm.out", runs / "b" / "jobx" / "slurm.out", runs / "slurm.out"]
    assert run_names(paths, {0, 1, 2}, runs) == ["a_jobx_slurm", "b_jobx_slurm", "slurm"]


@pytest.mark.parametrize(
    "name", ["megatron_llama2-7b_8xh100.log", "hf_trainer_ga4_cpu.log", "generic_kv_cpu.log"]
)
def test_a_long_steps_csv_written_in_two_halves_is_the_same_bytes(name, tmp_path, monkeypatch):
    """steps.csv of a long run is written by two processes, a half each (outputs.CSV_SPLIT_ROWS); the file is
    byte for byte what one process writes (here every frame is split), and no part file is left."""
    import io

    from logparse import api
    from logparse.report import outputs

    frame = api.analyze(str(Path(__file__).resolve().parents[1] / "sample_logs" / name)).steps
    one = io.StringIO()
    outputs.write_steps(frame, one, kind=".csv")
    monkeypatch.setattr(outputs, "CSV_SPLIT_ROWS", 2)
    outputs.write_steps(frame, tmp_path / "steps.csv")
    assert (tmp_path / "steps.csv").read_text(encoding="utf-8") == one.getvalue()
    assert [p.name for p in tmp_path.iterdir()] == ["steps.csv"]


def test_a_failure_in_the_other_half_of_steps_csv_is_raised_and_leaves_no_part(tmp_path, monkeypatch):
    from logparse.report import drawing, outputs

    def broken(frame, part, stamps):
        part.write_text("half")
        raise OSError(28, "No space left on device", str(part))

    frame = pd.DataFrame({"step": range(10), "loss": [1.5] * 10})
    monkeypatch.setattr(outputs, "CSV_SPLIT_ROWS", 2)
    monkeypatch.setattr(outputs, "_csv_rows", broken)
    # the forked half, even where an earlier test in this worker left a thread running (drawing.may_fork would
    # then write both halves here, and nothing would fail: seen with pytest-xdist's worksteal scheduling)
    monkeypatch.setattr(drawing, "may_fork", lambda: True)
    with pytest.raises(OSError, match="No space left"):
        outputs.write_steps(frame, tmp_path / "steps.csv")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
