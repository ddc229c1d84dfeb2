"""The example notebook runs (its code cells, in order), so it cannot rot, and what a cell returns is shown as
Jupyter shows it: the report figure as an image, with no `%matplotlib` magic."""

from __future__ import annotations

import ast
import json

import matplotlib
import pytest

from tests.conftest import ROOT, SAMPLES

matplotlib.use("Agg")

NOTEBOOK = ROOT / "notebooks" / "explore_a_run.ipynb"
PNG = b"\x89PNG\r\n\x1a\n"


def run_cells(path) -> dict[str, object]:
    """Each code cell run in one namespace, as a kernel runs it: its statements, then its last expression,
    whose value is what the cell shows (by cell id)."""
    namespace: dict = {}
    shown: dict[str, object] = {}
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse("".join(cell["source"]))
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, str(path), "exec"), namespace)  # noqa: S102
        if last is not None:
            shown[cell["id"]] = eval(compile(ast.Expression(last.value), str(path), "eval"), namespace)  # noqa: S307
    shown["namespace"] = namespace
    return shown


@pytest.mark.parametrize("where", ["notebooks", "root"])
def test_notebook_cells_run(monkeypatch, where):
    """From its own folder (Jupyter's working directory) and from the repository root, as its text says; in
    its own folder, the report figure a cell returns is displayed as Jupyter displays it: IPython's display
    formatter (what a kernel sends the page) gives an image/png for it, without `%matplotlib inline`."""
    monkeypatch.chdir(NOTEBOOK.parent if where == "notebooks" else ROOT)
    shown = run_cells(NOTEBOOK)
    assert shown["namespace"]["a"].summary["stable"]["mfu_mean"] > 0.4
    if where == "root":
        return
    from IPython.core.formatters import DisplayFormatter
    from matplotlib.figure import Figure

    figures = [v for v in shown.values() if isinstance(v, Figure)]
    assert len(figures) == 1, "the notebook shows the report figure"
    data, _ = DisplayFormatter().format(figures[0])
    assert data["image/png"].startswith(PNG)
    # the image is the whole report: 12 inches wide at its 110 dpi (IHDR's width, bytes 16-20)
    assert int.from_bytes(data["image/png"][16:20], "big") == 12 * 110


def test_a_report_figure_shows_itself_in_ipython():
    """`fig.show()` in IPython displays the figure (matplotlib's own Figure.show works only for a figure pyplot
    made, and raised here); outside IPython the figure still saves."""
    from IPython.core.interactiveshell import InteractiveShell

    import logparse

    fig = logparse.analyze(SAMPLES / "hf_trainer_ga4_cpu.log").plot()
    shell = InteractiveShell.instance()
    sent: list[dict] = []
    try:
        shell.display_pub.publish = lambda data, metadata=None, **kw: sent.append(data)
        fig.show()
    finally:
        InteractiveShell.clear_instance()
    assert len(sent) == 1 and sent[0]["image/png"].startswith(PNG)
