"""The GitHub Actions workflows: every `run:` block passes shellcheck, and the scheduled
job keeps the properties the archive depends on."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

WORKFLOWS = sorted((Path(__file__).resolve().parents[1] / ".github" / "workflows").glob("*.yml"))


def load(path: Path) -> dict[Any, Any]:
    document: dict[Any, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return document


def run_blocks() -> list[tuple[str, str]]:
    blocks = []
    for path in WORKFLOWS:
        for name, job in load(path)["jobs"].items():
            for index, step in enumerate(job.get("steps", [])):
                if "run" in step:
                    blocks.append((f"{path.name}:{name}:{index}", step["run"]))
    return blocks


@pytest.mark.parametrize(("where", "script"), run_blocks(), ids=lambda v: str(v)[:40])
def test_every_run_block_passes_shellcheck(where: str, script: str) -> None:
    beside_python = Path(sys.executable).parent / "shellcheck"
    shellcheck = shutil.which("shellcheck") or (
        str(beside_python) if beside_python.exists() else None
    )
    assert shellcheck is not None, "shellcheck is missing: pip install -e '.[test]'"
    # expressions are expanded by Actions before the shell runs: stand in a plain word
    plain = re.sub(r"\$\{\{.*?\}\}", "EXPR", script)
    done = subprocess.run(
        [shellcheck, "-s", "bash", "-"], input=plain, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{where}:\n{done.stdout}"


def test_the_scheduled_job_runs_one_at_a_time_verifies_and_never_swallows_a_failed_push() -> None:
    update = load(Path(WORKFLOWS[0].parent / "update.yml"))
    assert update["concurrency"]["cancel-in-progress"] is False
    cron = update[True]["schedule"][0]["cron"]  # YAML reads the key `on` as True
    assert not cron.startswith("0 ")  # off the hour
    steps = update["jobs"]["ingest-and-build"]["steps"]
    scripts = "\n".join(step.get("run", "") for step in steps)
    assert "quietedit verify --since" in scripts
    assert "|| true" not in scripts
    assert update["permissions"] == {}
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 0
    upload = next(s for s in steps if "upload-pages-artifact" in s.get("uses", ""))
    assert upload["with"]["path"] not in (".", "./")
