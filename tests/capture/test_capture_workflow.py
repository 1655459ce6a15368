"""update-sharded.yml's capture job, for real: its checkout (as actions/checkout makes it
from the job's settings) of a bare origin, then its own step that adds the documents
still observed: the new revisions capture looks for are on disk, the archive's other
partitions are not, and the push step sends the capture state back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.test_workflow_clone import (
    ACTIVE,
    OLD,
    checkout,
    env,
    git,
    origin,
    run_step,
    step,
    steps,
    write,
)

__all__ = ["env", "origin"]  # the fixtures: a clean git environment, a small archive


def test_the_capture_job_checks_out_the_documents_still_observed_and_pushes_its_state(
    tmp_path: Path, origin: str, env: dict[str, str]
) -> None:
    settings: dict[str, Any] = next(
        s["with"]
        for s in steps("update-sharded.yml", "capture")
        if s.get("uses", "").startswith("actions/checkout")
    )
    repo = tmp_path / "capture"
    checkout(origin, repo, settings, env=env)
    assert (repo / "data/state/partitions.json").exists() and not (repo / ACTIVE).exists()

    observed = step("update-sharded.yml", "capture", "Check out the documents still observed")
    added = run_step(repo, observed, env=env)

    assert added.returncode == 0, added.stderr
    assert (repo / ACTIVE).exists() and not (repo / OLD).exists()
    write(repo, "data/state/captures.json", '{"checked_at": "2026-11-30T08:00:00Z"}\n')
    push = step("update-sharded.yml", "capture", "Commit and push the capture state")
    pushed = run_step(repo, push, env=env, RUN_ID="4", BRANCH="main")
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    check = tmp_path / "check"
    git(tmp_path, "clone", "-q", origin, str(check), env=env)
    assert (check / "data/state/captures.json").exists()
    assert git(check, "log", "-1", "--format=%s", env=env).startswith("Captures ")
