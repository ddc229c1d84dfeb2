"""The wheel ships the product and only the product: logparse/, its tables and pattern sets, the
console script, the index.html template; not the tests' synthetic-log writers (tests/synth)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT


def _build_wheel(tmp_path: Path) -> Path:
    """Build the wheel from a copy of what setuptools reads (so no build/ or egg-info from an
    earlier build in the checkout can leak into it, and the checkout is left alone)."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("logparse", "patterns"):
        shutil.copytree(ROOT / folder, src / folder, ignore=ignore)
    out = tmp_path / "dist"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q", "-w", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if proc.returncode and "No matching distribution found for setuptools" in proc.stderr:
        pytest.skip("pip cannot fetch setuptools for the isolated build (no package index reachable)")
    assert proc.returncode == 0, proc.stderr
    (wheel,) = out.glob("logparse-*.whl")
    return wheel


def test_the_wheel_holds_logparse_its_data_and_no_test_tooling(tmp_path):
    with zipfile.ZipFile(_build_wheel(tmp_path)) as zf:
        names = set(zf.namelist())
        entry_points = next(zf.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
    packaged = {n for n in names if ".dist-info/" not in n}

    # every module and table of the package, and nothing outside it
    tree = [p for p in (ROOT / "logparse").rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    expected = {p.relative_to(ROOT).as_posix() for p in tree if p.suffix in (".py", ".toml", ".json", ".j2")}
    assert {"logparse/cli.py", "logparse/specs/hardware.toml", "logparse/specs/models.toml"} <= expected
    assert {"logparse/patterns/synonyms.toml", "logparse/patterns/pattern_set.schema.json"} <= expected
    assert "logparse/steps/run.py" in expected  # every stage's subpackage
    # the batch's index.html is rendered from a template that must ship with the code
    assert "logparse/batch/templates/index.html.j2" in expected
    # the user-facing patterns/ folder ships as logparse/builtin_patterns
    pattern_sets = {f"logparse/builtin_patterns/{p.name}" for p in (ROOT / "patterns").glob("*.toml")}
    assert "logparse/builtin_patterns/megatron.toml" in pattern_sets
    assert expected | pattern_sets <= packaged, sorted((expected | pattern_sets) - packaged)
    assert all(n.startswith("logparse/") for n in packaged), sorted(packaged)

    # the synthetic-log writers are test tooling
    assert not [n for n in names if "synth" in n], sorted(n for n in names if "synth" in n)
    assert not [n for n in names if n.startswith("tests/")]

    assert "logparse = logparse.cli:main" in entry_points
