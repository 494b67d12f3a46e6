"""A replay page opened in headless Chromium: the figure renders (its SVG and slider are in the DOM) and
a screenshot is saved beside the test's files.

Skipped, saying how to install it, when Chromium is absent (``apt-get install chromium``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from aero_events.analysis.timeline import timeline_from_session
from aero_events.viz import replay_spec, replay_steps, write_html
from tests.viz.games import eventful_session

CHROMIUM = next((found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--virtual-time-budget=10000", "--window-size=1400,1000"]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="headless Chromium is not installed: `apt-get install chromium` (Debian) to run the browser check")


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "chromium-profile"
    return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, text=True,
                          timeout=180, check=False)


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    timeline = timeline_from_session(eventful_session())
    steps = replay_steps(timeline)
    firing = next(step.index for step in steps if step.kind == "firing")
    spec = replay_spec(timeline, steps=steps, show_step=firing)  # open on a volley: shots and words on screen
    return write_html(spec, tmp_path_factory.mktemp("browser") / "replay.html", title="replay")


def test_the_replay_renders_in_a_browser(page: Path, tmp_path: Path):
    result = _chromium(tmp_path, "--dump-dom", page.as_uri())
    assert result.returncode == 0, result.stderr[-2000:]
    dom = result.stdout
    assert "main-svg" in dom, "Plotly drew no SVG"
    assert "slider-container" in dom or "slider-group" in dom, "no animation slider in the page"
    assert "scatterlayer" in dom and "updatemenu-container" in dom
    assert "T1 " in dom  # the slider's current label, T{turn} {phase} #{seq}
    assert "legendtext" in dom and "shots that hit" in dom  # the legend explains the symbols on the board
    assert "imperium-1" in dom and "Thunderbolt" in dom  # aircraft are named on the board


def test_play_goes_on_from_the_frame_the_page_opened_on(tmp_path: Path):
    """Issue 17: Play restarted from frame 0 when the page opened at frame 10. The page is opened on frame
    10; a script then presses Play (the button's own arguments) and reads the slider a moment later."""
    timeline = timeline_from_session(eventful_session())
    steps = replay_steps(timeline)
    spec = replay_spec(timeline, steps=steps, show_step=10, frame_ms=40)
    page = write_html(spec, tmp_path / "play.html")
    press_play = """<script>
    setTimeout(function () {
      var gd = document.getElementById('aero-replay');
      var play = gd.layout.updatemenus[0].buttons[0];
      Plotly.animate(gd, play.args[0], play.args[1]);
      setTimeout(function () {
        document.title = 'slider at ' + gd._fullLayout.sliders[0].active;
      }, 100);
    }, 1500);
    </script></body>"""
    page.write_text(page.read_text(encoding="utf-8").replace("</body>", press_play, 1), encoding="utf-8")
    result = _chromium(tmp_path, "--dump-dom", page.as_uri())
    assert result.returncode == 0, result.stderr[-2000:]
    title = result.stdout.split("<title>", 1)[1].split("</title>", 1)[0]
    assert title.startswith("slider at "), title
    assert int(title.removeprefix("slider at ")) > 10  # went on from frame 10, not back to 0


def test_a_screenshot_of_the_replay(page: Path, tmp_path: Path):
    shot = tmp_path / "replay.png"
    result = _chromium(tmp_path, f"--screenshot={shot}", page.as_uri())
    assert result.returncode == 0, result.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1400, 1000)
    assert len(data) > 30_000  # a blank page compresses to a few kilobytes; the board does not
