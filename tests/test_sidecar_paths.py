"""A run folder's logparse.toml may name pattern folders (`patterns = [...]`) only inside the batch folder,
after symlinks, and no error message echoes a file's values into the batch's index: a
sidecar's `patterns = ["/any/dir"]` loaded TOML from any readable folder, and a validation error quoted that
file's values into index.html and index.json."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

from logparse.batch.sidecar import load_sidecar
from logparse.core.errors import LogparseError
from tests.conftest import TOY_SET, run_apart

# the toy set with a value a file outside the batch might hold, where the schema wants an integer
SECRET = "SECRET-12345"
SECRET_SET = TOY_SET.replace("detect = [", f'priority = "{SECRET}"\ndetect = [')
TOY_LOG = "".join(f"toy step {i} took 1500 ms\n" for i in range(1, 31))


def batch(runs: Path, out: Path):
    return run_apart(["batch", str(runs), "--jobs", "1", "--out", str(out)])


def make_runs(tmp_path: Path, sidecar: str) -> tuple[Path, Path]:
    """runs/a/toy.log with `sidecar` as runs/a/logparse.toml, runs/b/toy.log without one; and a folder
    `outside` (beside runs, outside the batch) holding a good toy set and the secret one."""
    runs = tmp_path / "runs"
    for name in ("a", "b"):
        (runs / name).mkdir(parents=True)
        (runs / name / "toy.log").write_text(TOY_LOG)
    (runs / "a" / "logparse.toml").write_text(sidecar)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "toy.toml").write_text(TOY_SET)
    return runs, outside


def rows(out: Path) -> pd.DataFrame:
    return pd.read_csv(out / "index.csv").set_index("run")


def assert_secret_not_shown(out: Path) -> None:
    for name in ("index.csv", "index.json", "index.html"):
        assert SECRET not in (out / name).read_text(), name


def assert_refused(res, out: Path, runs: Path) -> str:
    """Run `a` failed with one line naming its sidecar and saying the folder is outside; `b` went on."""
    assert res.exit_code == 1, res.output
    index = rows(out)
    assert index.loc["b_toy", "status"] == "ok"
    error = index.loc["a_toy", "error"]
    assert index.loc["a_toy", "status"] == "error" and "\n" not in error
    assert str(runs / "a" / "logparse.toml") in error and "outside the batch folder" in error, error
    return error


@pytest.mark.parametrize("how", ["absolute", "relative"])
def test_a_pattern_folder_outside_the_batch_folder_is_refused(tmp_path, how):
    runs, outside = make_runs(tmp_path, "")
    (outside / "secret.toml").write_text(SECRET_SET)
    target = str(outside) if how == "absolute" else "../../outside"
    (runs / "a" / "logparse.toml").write_text(f"patterns = [{target!r}]\n")
    out = tmp_path / "out"
    assert_refused(batch(runs, out), out, runs)
    assert_secret_not_shown(out)


def test_a_pattern_folder_inside_the_run_folder_is_used(tmp_path):
    runs, _ = make_runs(tmp_path, 'patterns = ["pats"]\n')
    (runs / "a" / "pats").mkdir()
    (runs / "a" / "pats" / "toy.toml").write_text(TOY_SET)
    out = tmp_path / "out"
    res = batch(runs, out)
    index = rows(out)
    # a reads its log with the sidecar's set, 1500 ms a step; b, without it, does not
    assert index.loc["a_toy", "status"] == "ok" and index.loc["a_toy", "format"] == "toy", res.output
    assert index.loc["a_toy", "step_time_s"] == pytest.approx(1.5)
    assert index.loc["b_toy", "format"] != "toy"


def test_a_sidecar_in_the_batch_folder_itself_names_a_folder_under_it(tmp_path):
    runs, _ = make_runs(tmp_path, "")
    (runs / "a" / "logparse.toml").unlink()
    (runs / "logparse.toml").write_text('patterns = ["shared"]\n')
    (runs / "shared").mkdir()
    (runs / "shared" / "toy.toml").write_text(TOY_SET)
    out = tmp_path / "out"
    res = batch(runs, out)
    assert res.exit_code == 0, res.output
    assert set(rows(out)["format"]) == {"toy"}


def test_a_symlinked_folder_inside_that_leads_outside_is_refused(tmp_path):
    runs, outside = make_runs(tmp_path, 'patterns = ["pats"]\n')
    (outside / "secret.toml").write_text(SECRET_SET)
    os.symlink(outside, runs / "a" / "pats")
    out = tmp_path / "out"
    assert_refused(batch(runs, out), out, runs)
    assert_secret_not_shown(out)


def test_a_symlinked_set_file_inside_that_leads_outside_is_refused(tmp_path):
    runs, outside = make_runs(tmp_path, 'patterns = ["pats"]\n')
    (outside / "secret.toml").write_text(SECRET_SET)
    (runs / "a" / "pats").mkdir()
    os.symlink(outside / "secret.toml", runs / "a" / "pats" / "toy.toml")
    out = tmp_path / "out"
    error = assert_refused(batch(runs, out), out, runs)
    assert "toy.toml" in error
    assert_secret_not_shown(out)


def test_a_set_inside_with_a_bad_value_names_file_and_key_not_the_value(tmp_path):
    runs, _ = make_runs(tmp_path, 'patterns = ["pats"]\n')
    (runs / "a" / "pats").mkdir()
    (runs / "a" / "pats" / "toy.toml").write_text(SECRET_SET)
    out = tmp_path / "out"
    res = batch(runs, out)
    assert res.exit_code == 1
    error = rows(out).loc["a_toy", "error"]
    assert str(runs / "a" / "pats" / "toy.toml") in error and "priority" in error and "an integer" in error, (
        error
    )
    assert_secret_not_shown(out)
    assert SECRET not in res.stderr


@pytest.mark.parametrize(
    "text, words",
    [
        (f'gpus = "{SECRET}"\n', ["gpus", "an integer"]),
        (f'hw = ["{SECRET}"]\n', ["hw", "a string"]),
        (f'dtype = "{SECRET}"\n', ["dtype", "bf16"]),
        (f'patterns = [1, "{SECRET}"]\n', ["patterns"]),
    ],
)
def test_a_bad_sidecar_value_is_named_by_its_key_not_shown(tmp_path, text, words):
    runs, _ = make_runs(tmp_path, text)
    out = tmp_path / "out"
    res = batch(runs, out)
    error = rows(out).loc["a_toy", "error"]
    assert str(runs / "a" / "logparse.toml") in error and all(w in error for w in words), error
    assert_secret_not_shown(out)
    assert SECRET not in res.stderr


def test_load_sidecar_limits_pattern_folders_to_the_root_it_is_given(tmp_path):
    """The batch folder may hold the shared sets a run folder's sidecar names (`../shared`); without a
    root, the sidecar's own folder is the limit."""
    runs = tmp_path / "runs"
    (runs / "a").mkdir(parents=True)
    (runs / "shared").mkdir()
    sidecar = runs / "a" / "logparse.toml"
    sidecar.write_text('patterns = ["../shared"]\n')
    assert load_sidecar(sidecar, root=runs)["patterns"] == (str(runs / "a" / "../shared"),)
    with pytest.raises(LogparseError, match="outside the batch folder"):
        load_sidecar(sidecar)
    sidecar.write_text('patterns = ["../../elsewhere"]\n')
    with pytest.raises(LogparseError, match="outside the batch folder") as info:
        load_sidecar(sidecar, root=runs)
    assert str(info.value).startswith(f"{sidecar}: patterns: ")


@pytest.mark.parametrize(
    "change",
    [
        ("detect = [", f'priority = "{SECRET}"\ndetect = ['),  # an integer wanted
        ('kind = "step"', f'kind = "{SECRET}"'),  # one of a few names
        ('name = "toy"', f'name = "toy"\nrole = "{SECRET}"'),
        ('column = "step_time_s"', f'column = "{SECRET}"'),  # one of the columns
        ('{ column = "step_time_s", scale = 0.001 }', f'"{SECRET}"'),  # a table wanted (with a hint)
        ("scale = 0.001", f'scale = "{SECRET}"'),
        ("detect = ['^toy step']", f'detect = "{SECRET}"'),
        ("expect = { step = 3, step_time_s = 1.5 }", f'expect = "{SECRET}"'),
        ("[format]", f'format = "{SECRET}"\n[formats]'),
    ],
)
def test_no_schema_message_quotes_a_value_of_the_file(tmp_path, change):
    """What the schema check says of a file names the file, the table and the key, and the kind of the
    value it found, never the value: a string the file holds (a secret, if the file is not a pattern set
    at all) stays out of the message, and so out of the batch's page."""
    from logparse.core.errors import PatternError
    from logparse.patterns import sets as patterns

    path = tmp_path / "mine.toml"
    body = TOY_SET.replace(*change)
    assert body != TOY_SET
    path.write_text(body)
    with pytest.raises(PatternError) as info:
        patterns.load_file(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and SECRET not in message, message


def test_a_sidecar_that_links_outside_the_batch_folder_is_not_read(tmp_path):
    runs, outside = make_runs(tmp_path, "")
    (runs / "a" / "logparse.toml").unlink()
    (outside / "logparse.toml").write_text(f'gpus = "{SECRET}"\n')
    os.symlink(outside / "logparse.toml", runs / "a" / "logparse.toml")
    out = tmp_path / "out"
    assert_refused(batch(runs, out), out, runs)
    assert_secret_not_shown(out)
