"""docs/writing-a-pattern-set.md, followed step by step: a new format from a TOML file alone."""

from __future__ import annotations

import json
import re
import shlex

import pytest
from click.testing import CliRunner

from logparse.cli import cli
from tests.conftest import ROOT

GUIDE = (ROOT / "docs" / "writing-a-pattern-set.md").read_text()
BLOCKS = re.findall(r"```(\w*)\n(.*?)```", GUIDE, flags=re.S)


def block(lang: str) -> str:
    """The guide's one block of a kind; for TOML, the example set (the first block; the second is the
    reporting-convention table of section 5)."""
    found = [body for kind, body in BLOCKS if kind == lang]
    assert len(found) == (2 if lang == "toml" else 1), f"unexpected number of ```{lang} blocks"
    return found[0]


def test_the_guides_reporting_convention_loads(tmp_path):
    """Section 5's [format.reported] table, added to the example set, gives the set its convention."""
    from logparse.patterns.sets import load_file

    example, reported = [body for kind, body in BLOCKS if kind == "toml"]
    head, lines = example.split("\n[[line]]", 1)
    path = tmp_path / "fairseq.toml"
    path.write_text(head + "\n" + reported + "\n[[line]]" + lines)
    conv = load_file(path).reported
    assert conv[None].framework == "fairseq" and conv[None].formulas == ("palm", "megatron-2024")
    assert conv[None].peak_tflops == 312.0
    column = conv["reported_hfu_tflops_per_gpu"]
    assert column.formulas == ("narayanan",) and column.counts_recompute and column.framework == "fairseq"


def commands() -> list[list[str]]:
    return [
        shlex.split(line)
        for kind, body in BLOCKS
        if kind == ""
        for line in body.splitlines()
        if line.startswith("logparse ")
    ]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LOGPARSE_PATTERNS", raising=False)
    (tmp_path / "train.log").write_text(block("log"))
    (tmp_path / "my-patterns").mkdir()
    (tmp_path / "my-patterns" / "fairseq.toml").write_text(block("toml"))
    return tmp_path


def run(argv: list[str]):
    return CliRunner().invoke(cli, argv[1:] if argv[0] == "logparse" else argv)


def test_the_guides_set_replaces_the_shipped_one(workdir):
    """logparse ships a fairseq set (patterns/fairseq.toml) since the guide was written: the log is read
    without the guide's set, and the guide's set, of the same name, replaces the shipped one."""
    shipped = run(["patterns", "explain", "train.log"])
    assert shipped.exit_code == 0 and "fairseq.world_size" in shipped.output
    mine = run(["patterns", "explain", "train.log", "--patterns", "my-patterns"])
    assert mine.exit_code == 0 and "fairseq.gpus" in mine.output and "fairseq.world_size" not in mine.output


def test_every_command_of_the_guide_works(workdir):
    cmds = commands()
    assert [c[1] for c in cmds] == ["patterns", "patterns", "analyze"]
    for argv in cmds:
        res = run(argv)
        assert res.exit_code == 0, (argv, res.output)
    s = json.loads(run([*cmds[-1], "--json"]).stdout)
    assert s["format"] == "fairseq" and s["gpus"] == 1 and s["gpus_source"] == "log"
    assert (s["steps"]["first"], s["steps"]["last"], s["steps"]["count"]) == (2800, 3200, 5)
    assert s["steps"]["step_time_source"] == "tokens per step / tokens per second, both as logged"
    assert s["model"]["params"] == 225086464 and s["hardware"]["peak_tflops_per_gpu"] == 125.0
    assert s["formula"] == "6n"


def test_a_wrong_sample_fails_as_the_guide_shows(workdir):
    toml = workdir / "my-patterns" / "fairseq.toml"
    toml.write_text(toml.read_text().replace("tokens_per_s = 57.3", "tokens_per_s = 573"))
    res = run(["logparse", "patterns", "test", "my-patterns"])
    assert res.exit_code == 1
    shown = re.search(r"`(FAIL my-patterns/fairseq.toml: [^`]+)`", GUIDE).group(1)
    assert shown in res.output
