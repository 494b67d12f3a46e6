"""The notebooks in analysis/ run from top to bottom in a fresh kernel (the venv's own Python).

Each notebook makes its own games in a temporary directory, so it needs nothing but the
package; outputs are not written back (the stored notebooks stay clean).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="install the dev extra: pip install -e .[dev]")
nbclient = pytest.importorskip("nbclient", reason="install the dev extra: pip install -e .[dev]")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "analysis").glob("*.ipynb"))


def test_the_three_notebooks_are_there():
    assert [path.name for path in NOTEBOOKS] == ["01_replay.ipynb", "02_post_match.ipynb", "03_many_games.ipynb"]


def test_the_python3_kernel_is_this_python():
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    assert Path(spec.argv[0]).resolve() == Path(sys.executable).resolve() or spec.argv[0] in ("python", "python3")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_runs(path: Path, tmp_path: Path):
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(notebook, kernel_name="python3", timeout=600,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [output for cell in notebook.cells for output in cell.get("outputs", [])
              if output.get("output_type") == "error"]
    assert not errors
    shown = [output for cell in notebook.cells for output in cell.get("outputs", [])
             if "application/vnd.plotly.v1+json" in output.get("data", {}) or "text/html" in output.get("data", {})]
    assert shown, f"{path.name} shows no figure or table"
