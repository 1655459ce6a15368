"""``bench/stepcpu.py``: a step's CPU seconds count the processes it leaves behind, as the
ingest leaves its page readers (a fork server's children), once the bench adopts them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"

# a step whose process starts another that outlives it and spends 0.4 s of CPU
STEP = """
import subprocess, sys
burn = "import time\\nwhile time.process_time() < 0.4: pass"
subprocess.Popen([sys.executable, "-c", burn])
"""

# the bench's side, in a process of its own: adopting orphans lasts for a process's life
MEASURE = """
import json, sys
from pathlib import Path
from stepcpu import adopt_orphans, timed
adopted = adopt_orphans() if sys.argv[1] == "adopt" else False
figures = {}
timed(figures, "step", [sys.executable, "-c", sys.argv[2]], cwd=Path.cwd())
print(json.dumps({"adopted": adopted, **figures}))
"""


def measure(*, adopt: bool, tmp_path: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, "adopt" if adopt else "no", STEP],
        cwd=tmp_path, env={"PYTHONPATH": str(BENCH), "PATH": ""},
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def test_the_cpu_of_a_process_the_step_left_behind_is_counted_apart(tmp_path: Path) -> None:
    figures = measure(adopt=True, tmp_path=tmp_path)
    assert figures["adopted"]
    # the orphan's burn, waited for after the step (the kernel's user and system times,
    # counted in clock ticks, can fall a tick short of the process clock it burned by)
    assert figures["step cpu left"] >= 0.35
    assert figures["step cpu"] < 0.3  # the step's own process only started it


def test_without_adopting_the_orphan_is_in_no_figure(tmp_path: Path) -> None:
    figures = measure(adopt=False, tmp_path=tmp_path)
    assert figures["step cpu left"] == 0
    assert figures["step cpu"] < 0.3


def test_the_origins_upload_pack_is_counted_by_the_step_whose_fetches_ran_it(
    tmp_path: Path,
) -> None:
    sys.path.insert(0, str(BENCH))
    try:
        from stepcpu import mark_step, upload_cpu, upload_pack_timer
    finally:
        sys.path.remove(str(BENCH))
    origin, clone = tmp_path / "origin.git", tmp_path / "clone"
    for command in (
        ["git", "init", "-q", "--bare", str(origin)],
        ["git", "init", "-q", str(clone)],
        ["git", "-C", str(clone), "remote", "add", "origin", origin.as_uri()],
    ):
        subprocess.run(command, check=True, capture_output=True)
    timer = upload_pack_timer(tmp_path)
    assert timer is not None
    program, figures = timer

    def fetch() -> None:
        subprocess.run(
            ["git", "-C", str(clone), "fetch", "-q", f"--upload-pack={program}", "origin"],
            check=True,
            capture_output=True,
        )

    fetch()
    fetch()
    mark_step(timer, "clone")
    mark_step(timer, "ingest")  # no fetch
    fetch()
    mark_step(timer, "verify --since")

    # one line of the origin's seconds per upload-pack run, each under its own step
    lines = figures.read_text(encoding="utf-8").splitlines()
    assert [line.split()[0] if line.startswith("step") else "run" for line in lines] == [
        "run", "run", "step", "step", "run", "step",
    ]  # fmt: skip
    found = upload_cpu(figures)
    assert list(found) == ["clone", "ingest", "verify --since"]
    assert found["ingest"] == 0.0
    assert all(value >= 0.0 for value in found.values())
