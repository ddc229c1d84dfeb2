"""The pipeline reads one way: no import cycle among logparse's modules, and the report stage depends on
no later stage (api, cli). Every import counts: at module level, inside functions and under TYPE_CHECKING."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import logparse
from logparse.report.outputs import build_summary

from .conftest import ROOT, SAMPLES

SAMPLE_LOG = SAMPLES / "megatron_llama2-7b_8xh100.log"

PACKAGE = Path(logparse.__file__).parent


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """The logparse modules a file imports, wherever the import statement stands."""
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("logparse"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("logparse"):
                continue
            if node.module is None or target == "logparse":  # `from . import x`: x is a module
                out.update(f"{target}.{a.name}" for a in node.names)
            else:
                out.add(target)
    return out


def _package_files() -> list[Path]:
    """The package's modules (not the probe another test writes for a moment)."""
    return [p for p in PACKAGE.rglob("*.py") if not p.name.endswith("_probe__.py")]


def _graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in _package_files()}
    graph = {}
    for name, path in files.items():
        graph[name] = {t for t in _imports(path) if t in files and t != name and t != "logparse"}
    return graph


def test_no_import_cycle():
    graph = _graph()
    assert "logparse.report.outputs" in graph and "logparse.api" in graph  # the walk sees the package
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> None:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1:
                cycle = stack[stack.index(m) :] + [m]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if m not in state:
                visit(m)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)


# The pipeline, in the order the package's subpackages run (README "Development"); core/ is shared by all,
# specs/ is reference knowledge the stages from steps/ on read, api.py runs the stages up to report/, and
# batch/ and cli.py are its clients.
STAGES = (
    "core",
    "specs",
    "read",
    "patterns",
    "frame",
    "steps",
    "utilization",
    "phases",
    "report",
    "api",
    "batch",
    "cli",
)


def _stage(module: str) -> str:
    return module.split(".")[1]


def test_the_tree_is_the_pipeline():
    """Every module is in a stage (a subpackage, or api/cli on top), and each subpackage says what it owns."""
    stray = [m for m in _graph() if m not in ("logparse", "logparse.__main__") and _stage(m) not in STAGES]
    assert stray == []
    for stage in STAGES:
        if (PACKAGE / stage).is_dir():
            doc = ast.get_docstring(ast.parse((PACKAGE / stage / "__init__.py").read_text()))
            assert doc and len(doc) > 80, f"{stage}/__init__.py: say what the stage owns and hands on"


def test_each_stage_imports_only_earlier_stages():
    """A stage imports the shared core and the stages before it, never a later one (the imports inside
    functions and under TYPE_CHECKING included)."""
    graph = _graph()
    later = sorted(
        f"{m} -> {t}"
        for m, targets in graph.items()
        if m not in ("logparse", "logparse.__main__")
        for t in targets
        if STAGES.index(_stage(t)) > STAGES.index(_stage(m))
    )
    assert later == []


def test_the_stage_check_would_see_a_later_import():
    """Not vacuous: the graph has edges across stages, and an edge back (frame -> report) counts as later."""
    graph = _graph()
    assert {"logparse.report.outputs", "logparse.steps.run"} <= graph["logparse.api"]
    assert STAGES.index(_stage("logparse.report.outputs")) > STAGES.index(_stage("logparse.frame.assemble"))


def test_no_module_is_named_like_a_public_function_and_no_class_name_means_two_things():
    import logparse.api

    public = {n for n in logparse.__all__ if callable(getattr(logparse, n, None))}
    public |= {
        n
        for n, v in vars(logparse.api).items()
        if callable(v) and not n.startswith("_") and getattr(v, "__module__", None) == "logparse.api"
    }
    modules = {p.stem for p in _package_files()} | {p.name for p in PACKAGE.iterdir() if p.is_dir()}
    assert not (modules & {n for n in public if n.islower()}) - {"api"}, modules & public
    classes: dict[str, list[str]] = {}
    for path in _package_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, []).append(_module_name(path))
    assert {k: v for k, v in classes.items() if len(v) > 1} == {}


def test_report_and_plots_depend_on_no_later_stage():
    graph = _graph()
    for module in ("logparse.report.outputs", "logparse.report.plots"):
        assert not graph[module] & {"logparse.api", "logparse.cli", "logparse.batch.engine"}, module


def test_the_walk_would_see_a_cycle(tmp_path):
    """The cycle finder is not vacuous: a function-level import back into api is an edge."""
    src = tmp_path / "m.py"
    src.write_text("def f():\n    from .api import analyze\n")
    fake = PACKAGE / "__cycle_probe__.py"
    try:
        fake.write_text(src.read_text())
        assert "logparse.api" in _imports(fake)
    finally:
        fake.unlink()


def test_the_summary_is_a_pure_function_of_the_analysis():
    """Building it twice gives identical JSON (it used to append the cross-check's warnings each time:
    the nanoGPT sample went from 1 warning to 2)."""
    a = logparse.analyze(ROOT / "sample_logs" / "nanogpt_gpt2_8xa100.log", hw="a100", gpus=8, model="gpt2")
    first = json.dumps(build_summary(a), sort_keys=True)
    second = json.dumps(build_summary(a), sort_keys=True)
    assert first == second
    assert json.dumps(a.summary, sort_keys=True) == first


def _user_set(tmp_path: Path, reported: str) -> Path:
    """The shipped nanoGPT set, copied into a user's folder as another framework with its own convention."""
    text = (ROOT / "patterns" / "nanogpt.toml").read_text()
    head, rest = text.split("[format.reported]", 1)
    rest = rest[rest.index("\n[[line]]") :]
    text = head.replace('name = "nanogpt"', 'name = "mynano"').replace(
        'title = "nanoGPT"', 'title = "my fork"'
    )
    folder = tmp_path / "sets"
    folder.mkdir(parents=True)
    (folder / "mynano.toml").write_text(text + reported + rest)
    return folder


def test_a_user_set_declares_its_reporting_convention(tmp_path):
    """No Python changes: the convention lives in the set. nanoGPT's MFU (printed 41.7% on the sample) divides
    PaLM's count by the A100's 312 TFLOPS; a fork that says so is cross-checked under it."""
    log = ROOT / "sample_logs" / "nanogpt_gpt2_8xa100.log"
    opts = {"hw": "a100", "gpus": 8, "model": "gpt2", "format": "mynano"}
    declared = _user_set(
        tmp_path,
        '[format.reported]\nframework = "My nanoGPT fork"\nformulas = ["palm"]\npeak_tflops = 312.0\n'
        'note = "as nanoGPT"\n',
    )
    rep = logparse.analyze(log, patterns=(str(declared),), **opts).summary["reported"]
    assert rep["framework"] == "My nanoGPT fork" and rep["framework_formula"] == "palm"
    assert rep["ours_under_framework_convention"]["peak_tflops"] == 312.0
    assert rep["agrees_within"] < 0.02
    # a fork that divides by the H100's 989 instead cannot reproduce the printed MFU, and says so
    wrong = _user_set(
        tmp_path / "w",
        '[format.reported]\nframework = "Wrong fork"\nformulas = ["palm"]\npeak_tflops = 989.0\n',
    )
    a = logparse.analyze(log, patterns=(str(wrong),), **opts)
    assert a.summary["reported"]["agrees_within"] > 0.5
    assert any("Wrong fork" in w and "the inputs differ" in w for w in a.summary["warnings"])
    # without a declared convention there is nothing to cross-check against
    bare = _user_set(tmp_path / "b", "")
    rep = logparse.analyze(log, patterns=(str(bare),), **opts).summary["reported"]
    assert "framework" not in rep and rep["mfu_mean"] is not None


def test_one_way_to_name_runs(tmp_path):
    from logparse.core.naming import run_name, run_names

    assert run_name("a/train.log.gz") == "train"
    paths = [
        tmp_path / "runs" / "a" / "train.log",
        tmp_path / "runs" / "b" / "x" / "train.log",
        tmp_path / "solo.out",
    ]
    assert run_names(paths) == ["a_train", "b_x_train", "solo"]


def _in_a_fresh_interpreter(code: str) -> str:
    """Run `code` in a new Python (nothing imported yet); it must succeed. Returns what it printed."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_the_cli_answers_help_without_loading_the_heavy_stages():
    """`logparse --help` and `logparse hw list` load neither pandas nor matplotlib (nor the pattern sets);
    `import logparse` does not load matplotlib. In a fresh interpreter, so nothing is imported already."""
    code = (
        "import sys\n"
        "import logparse\n"
        "assert 'matplotlib' not in sys.modules, 'import logparse'\n"
        "from click.testing import CliRunner\n"
        "from logparse.cli import cli\n"
        "for argv in (['--help'], ['hw', 'list']):\n"
        "    res = CliRunner().invoke(cli, argv)\n"
        "    assert res.exit_code == 0, res.output\n"
        "heavy = sorted(m for m in ('pandas', 'matplotlib', 'numpy', 'logparse.api', 'logparse.patterns.sets') if m in sys.modules)\n"
        "print(heavy)\n"
    )
    assert _in_a_fresh_interpreter(code) == "[]"


def test_the_api_names_stay_functions_when_their_submodules_are_imported():
    code = (
        "import logparse\n"
        "from logparse.steps.run import Run\n"  # the stage module steps/run.py, imported first
        "import logparse.api\n"
        "assert callable(logparse.resolve) and callable(logparse.parse) and callable(logparse.analyze)\n"
        "from logparse import resolve\n"
        "assert resolve is logparse.api.resolve\n"
    )
    _in_a_fresh_interpreter(code)


def test_no_function_in_steps_report_or_phases_is_over_60_lines():
    """Where the decisions pile up, each step is a function of its own."""
    long = []
    for stage in ("steps", "report", "phases"):
        for path in sorted((PACKAGE / stage).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    size = node.end_lineno - node.lineno + 1
                    if size > 60:
                        long.append(f"{_module_name(path)}.{node.name}: {size} lines")
    assert long == []


# The open mappings, each named once where it is defined: a TOML table before it is checked, a log line's
# values by column, the keywords a user gave. Everything else a stage hands on is a record.
OPEN_MAPPINGS = {"core/tomlfile.py": "Table", "core/schema.py": "Row", "core/options.py": "Given"}


def _untyped_dicts(path: Path) -> list[int]:
    """Lines of `path` that write dict[str, Any], other than the definition of its open mapping."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Subscript) and ast.unparse(node).replace(" ", "") == "dict[str,Any]":
            lines.append(node.lineno)
    named = OPEN_MAPPINGS.get(path.relative_to(PACKAGE).as_posix())
    if named is not None:
        text = path.read_text().splitlines()
        lines = [n for n in lines if not text[n - 1].startswith(f"{named} = ")]
    return lines


def test_dict_str_any_only_names_a_format_open_by_nature():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += [f"{path.relative_to(PACKAGE)}:{n}" for n in _untyped_dicts(path)]
    assert found == []
    # each open mapping is defined where the table says
    from logparse.core import options, schema, tomlfile

    assert (tomlfile.Table, schema.Row, options.Given) == (dict[str, Any],) * 3


def test_the_untyped_dict_check_would_see_one(tmp_path, monkeypatch):
    probe = tmp_path / "core"
    probe.mkdir()
    (probe / "schema.py").write_text("Row = dict[str, Any]\n\ndef f() -> dict[str, Any]:\n    return {}\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path)
    assert _untyped_dicts(probe / "schema.py") == [3]  # the definition passes, the function does not


def test_a_command_imports_with_the_collector_paused_and_analyzes_with_it_on():
    """The command line's main() turns the cyclic collector off while the command imports its modules
    (core/collector.py); analyze turns it on once imported (settle: frozen first), any other command at its
    start. A collector the caller had turned off stays off."""
    code = (
        "import gc, sys, tempfile\n"
        "from click.testing import CliRunner\n"
        "from logparse import cli\n"
        "from logparse.core import collector\n"
        "seen = []\n"
        "real = cli.cli\n"
        "cli.cli = lambda **kw: seen.append(gc.isenabled())\n"
        "cli._started_for_logparse = lambda: True\n"  # as the `logparse` script's process
        "cli._leave = lambda code: None\n"  # which main() ends (os._exit) where it would return
        "cli.main()\n"
        "assert seen == [False], seen\n"
        "cli.cli = real\n"
        "res = CliRunner().invoke(cli.cli, ['hw', 'list'])\n"
        "assert res.exit_code == 0 and gc.isenabled(), 'hw list'\n"
        "collector.pause()\n"
        "assert not gc.isenabled()\n"
        f"res = CliRunner().invoke(cli.cli, ['analyze', {str(SAMPLE_LOG)!r}, '-q', '--out', tempfile.mkdtemp()])\n"
        "assert res.exit_code == 0, res.output\n"
        "assert gc.isenabled() and gc.get_freeze_count() > 0, 'analyze'\n"
        "gc.disable()\n"
        "collector.pause(); collector.resume()\n"
        "assert not gc.isenabled(), 'a collector turned off by the caller'\n"
    )
    _in_a_fresh_interpreter(code)


def test_the_command_line_draws_without_the_3d_toolkit_and_says_nothing():
    """A logparse command's process imports matplotlib without mpl_toolkits.mplot3d (cli._without_3d): no
    '3d' projection, no warning (even with warnings as errors); a library caller's matplotlib keeps it."""
    code = (
        "import warnings\n"
        "warnings.simplefilter('error')\n"
        "from logparse.cli import _without_3d\n"
        "_without_3d()\n"
        "import logparse.report.plots\n"
        "from matplotlib.projections import get_projection_names\n"
        "print('3d' in get_projection_names())\n"
    )
    assert _in_a_fresh_interpreter(code) == "False"
    code = "import logparse.report.plots\nfrom matplotlib.projections import get_projection_names\n"
    assert _in_a_fresh_interpreter(code + "print('3d' in get_projection_names())\n") == "True"
    # a whole `analyze` with warnings as errors: test_the_command_ends_its_process_with_its_output_flushed...


def test_the_command_ends_its_process_with_its_output_flushed_and_exit_handlers_run(tmp_path):
    """cli._leave ends a `logparse` process without the interpreter's teardown: its exit code as given (a
    message: on stderr, exit 1), everything printed (buffered stdout, no newline) out, atexit handlers run;
    `python -m logparse analyze --json` prints the whole summary, and nothing on stderr with warnings as errors
    (the 3D toolkit's absence is silent), its report drawn."""
    code = (
        "import atexit, sys\n"
        "from pathlib import Path\n"
        "from logparse import cli\n"
        f"atexit.register(lambda: Path({str(tmp_path / 'ran')!r}).write_text('yes'))\n"
        "sys.stdout.write('x' * 100000)\n"
        "cli._leave(sys.argv[1] if sys.argv[1] == 'no good' else int(sys.argv[1]))\n"
        "print('not reached')\n"
    )
    for arg, code_, err in (("3", 3, ""), ("0", 0, ""), ("no good", 1, "no good\n")):
        out = subprocess.run([sys.executable, "-c", code, arg], capture_output=True, text=True, timeout=60)
        assert (out.returncode, out.stdout, out.stderr) == (code_, "x" * 100000, err)
        assert (tmp_path / "ran").read_text() == "yes"
        (tmp_path / "ran").unlink()
    out = subprocess.run(
        [sys.executable, "-W", "error", "-m", "logparse", "analyze", str(SAMPLE_LOG), "--gpus", "8", "--hw", "h100",
         "--json", "--out", str(tmp_path / "o")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert (out.returncode, out.stderr) == (0, "") and json.loads(out.stdout)["stable"]["mfu_mean"] > 0.4
    assert (tmp_path / "o" / "report.png").stat().st_size > 50_000
    out = subprocess.run([sys.executable, "-m", "logparse", "analyze", str(tmp_path / "none.log")],
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert out.returncode == 1 and out.stderr.startswith("error: ") and "Traceback" not in out.stderr


def test_no_module_binds_a_name_twice_at_its_top_level():
    # a second `_WORDS = ...` further down a long module silently replaces the first for every function, those
    # written for the first included
    package = Path(logparse.__file__).parent
    twice = []
    for path in sorted(package.rglob("*.py")):
        names: list[str] = []
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                overload = any(
                    getattr(d, "id", getattr(d, "attr", None)) == "overload" for d in node.decorator_list
                )
                names += (
                    [] if overload else [node.name]
                )  # (typing's overloads declare one function's signatures)
            elif isinstance(node, ast.ClassDef):
                names.append(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names += [t.id for t in targets if isinstance(t, ast.Name)]
        twice += [
            f"{path.relative_to(package)}: {n}" for n in sorted({n for n in names if names.count(n) > 1})
        ]
    assert not twice, twice
