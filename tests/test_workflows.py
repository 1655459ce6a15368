"""The GitHub Actions workflows: every `run:` block and script passes shellcheck, and the
jobs keep the properties the archive depends on: the hourly ones clone little, push
before they upload evidence, and never lose evidence; the weekly audit checks everything."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

GITHUB = Path(__file__).resolve().parents[1] / ".github"
WORKFLOWS = sorted((GITHUB / "workflows").glob("*.yml"))
SCRIPTS = sorted((GITHUB / "scripts").glob("*.sh"))


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


def shellcheck(script: str) -> subprocess.CompletedProcess[str]:
    beside_python = Path(sys.executable).parent / "shellcheck"
    found = shutil.which("shellcheck") or (str(beside_python) if beside_python.exists() else None)
    assert found is not None, "shellcheck is missing: pip install -e '.[test]'"
    return subprocess.run(
        [found, "-s", "bash", "-"], input=script, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(("where", "script"), run_blocks(), ids=lambda v: str(v)[:40])
def test_every_run_block_passes_shellcheck(where: str, script: str) -> None:
    # expressions are expanded by Actions before the shell runs: stand in a plain word
    done = shellcheck(re.sub(r"\$\{\{.*?\}\}", "EXPR", script))
    assert done.returncode == 0, f"{where}:\n{done.stdout}"


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_every_script_passes_shellcheck_and_is_executable(path: Path) -> None:
    done = shellcheck(path.read_text(encoding="utf-8"))
    assert done.returncode == 0, f"{path.name}:\n{done.stdout}"
    assert os.access(path, os.X_OK), f"{path.name} is not executable (git update-index --chmod=+x)"


def workflow(name: str) -> dict[Any, Any]:
    return load(GITHUB / "workflows" / name)


def step_index(
    steps: list[dict[str, Any]], *, uses: str = "", runs: str = "", path: str = ""
) -> int:
    """The index of the one step that uses the action ``uses`` (on ``path``, if given) or
    whose script contains ``runs``."""
    found = [
        index
        for index, step in enumerate(steps)
        if (
            uses
            and step.get("uses", "").split("@")[0] == uses
            and (not path or step.get("with", {}).get("path") == path)
        )
        or (runs and runs in step.get("run", ""))
    ]
    assert len(found) == 1, f"{len(found)} steps use {uses!r} / run {runs!r}"
    return found[0]


INGEST_JOBS = [("update.yml", "ingest-and-build"), ("update-sharded.yml", "ingest")]


def test_the_scheduled_job_runs_one_at_a_time_verifies_and_never_swallows_a_failed_push() -> None:
    update = workflow("update.yml")
    assert update["concurrency"]["cancel-in-progress"] is False
    cron = update[True]["schedule"][0]["cron"]  # YAML reads the key `on` as True
    assert not cron.startswith("0 ")  # off the hour
    steps = update["jobs"]["ingest-and-build"]["steps"]
    scripts = "\n".join(step.get("run", "") for step in steps)
    assert "quietedit verify --since" in scripts
    assert "|| true" not in scripts
    assert update["permissions"] == {}
    upload = steps[step_index(steps, uses="actions/upload-pages-artifact")]
    assert upload["with"]["path"] not in (".", "./")
    push = (GITHUB / "scripts" / "push-data.sh").read_text(encoding="utf-8")
    assert "--force" not in push and "|| true" not in push
    assert push.rstrip().endswith("exit 1")  # five rejected pushes fail the job


@pytest.mark.parametrize(("name", "job"), INGEST_JOBS)
def test_the_ingest_jobs_clone_little(name: str, job: str) -> None:
    """The newest commit, no file contents but those checked out, and of data/ only what
    every run reads, plus the documents still observed: not the archive's history."""
    document = workflow(name)
    steps = document["jobs"][job]["steps"]
    clone = steps[step_index(steps, runs="--filter=tree:0")]
    assert clone["name"] == "Clone the newest commit and the folders every run reads"
    assert not [s for s in steps if s.get("uses", "").startswith("actions/checkout")]
    script = clone["run"]
    assert "--depth=1" in script and "--sparse-index" in script
    cone = script.split("git sparse-checkout set --cone --sparse-index", 1)[1]
    cone = cone.split("\n\n", 1)[0].replace("\\", " ").split("\n", 2)
    cone = " ".join(cone[:2]).split()
    assert {"data/state", "data/feeds", "quietedit", "templates"} <= set(cone)
    # nor the index, which grows with the archive: a run fetches the shards it reads
    assert not [path for path in cone if path in ("data", "data/documents", "data/index")]
    # the scripts the job runs are checked out
    for script in re.findall(
        r"\.github/scripts/[\w.-]+", "\n".join(s.get("run", "") for s in steps)
    ):
        assert any(script.startswith(f"{path}/") for path in cone), script
    partitions = step_index(steps, runs="quietedit sparse-paths --fetch-trees")
    command = steps[partitions]["run"]
    assert command.rstrip().endswith("| git sparse-checkout add --stdin")
    # a shard checks out what its own plan reads
    assert ("--shard" in command) == (name == "update-sharded.yml")
    assert step_index(steps, runs="pip install") < partitions < step_index(steps, runs="ingest")
    # bash -o pipefail: a failing `quietedit sparse-paths` fails its step
    assert document["defaults"]["run"]["shell"] == "bash"


def test_the_hourly_build_starts_from_the_previous_site_and_widens_only_without_it() -> None:
    """An incremental build reads only the partitions on disk; a build without the previous
    site (evicted, or a full rebuild asked for) reads every document: all of data/ then."""
    steps = workflow("update.yml")["jobs"]["ingest-and-build"]["steps"]
    restore = step_index(steps, uses="actions/cache/restore", path="_site")
    widen = step_index(steps, runs="sparse-paths --all --fetch-trees")
    build = step_index(steps, runs="quietedit build")
    save = step_index(steps, uses="actions/cache/save", path="_site")
    push = step_index(steps, runs=".github/scripts/push-data.sh")
    assert push < restore < widen < build < save
    assert steps[widen]["run"].strip() == (
        "quietedit sparse-paths --all --fetch-trees | git sparse-checkout add --stdin"
    )
    condition = steps[widen]["if"]
    assert f"steps.{steps[restore]['id']}.outputs.cache-matched-key == ''" in condition
    assert "inputs.full_rebuild" in condition
    assert steps[restore]["with"]["key"] == steps[save]["with"]["key"]
    assert "--data-url" in steps[build]["run"]
    assert "--database-url" in steps[build]["run"]  # the about page links the export


@pytest.mark.parametrize(
    ("name", "job"), [("update.yml", "ingest-and-build"), ("update-sharded.yml", "build")]
)
def test_a_failed_restore_of_the_site_leaves_nothing_for_the_build(name: str, job: str) -> None:
    """``actions/cache`` reports a restore that failed part way as a miss and leaves what
    tar extracted, the folders' times possibly set back: the site is removed, so that the
    build does not trust its record of pages (``publish/pagesrecord.py``)."""
    steps = workflow(name)["jobs"][job]["steps"]
    restore = step_index(steps, uses="actions/cache/restore", path="_site")
    remove = step_index(steps, runs="rm -rf _site")
    build = step_index(steps, runs="quietedit build")
    assert restore < remove < build
    assert steps[remove]["run"].strip() == "rm -rf _site"
    assert steps[remove]["if"] == (
        f"${{{{ steps.{steps[restore]['id']}.outputs.cache-matched-key == '' }}}}"
    )


@pytest.mark.parametrize(("name", "job"), INGEST_JOBS)
def test_evidence_is_uploaded_after_the_push_and_what_is_left_carried_to_the_next_run(
    name: str, job: str
) -> None:
    definition = workflow(name)["jobs"][job]
    steps = definition["steps"]
    assert definition["permissions"] == {"contents": "write"}
    assert definition["env"]["QUIETEDIT_PATHS_EVIDENCE"] == "evidence"  # the folder carried

    checkout = step_index(steps, runs="--filter=tree:0")
    restore = step_index(steps, uses="actions/cache/restore", path="evidence")
    ingest = step_index(steps, runs="quietedit ingest")
    push = step_index(steps, runs=".github/scripts/push-data.sh")
    upload = step_index(steps, runs=".github/scripts/upload-evidence.sh evidence")
    save = step_index(steps, uses="actions/cache/save", path="evidence")
    # restored after the checkout (which empties its folder), before the ingest writes
    assert checkout < restore < ingest < push < upload < save == len(steps) - 1

    assert "if" not in steps[upload]  # only when every step before it, the push too, succeeded
    assert steps[upload]["env"]["GH_TOKEN"] == "${{ github.token }}"  # noqa: S105 (an expression)
    # a failed upload keeps its files (for the next run) and does not stop the site
    assert steps[upload]["continue-on-error"] is True

    restored, saved = steps[restore], steps[save]
    assert restored["with"]["path"] == saved["with"]["path"] == "evidence"
    key = saved["with"]["key"]
    assert restored["with"]["key"] == key
    assert "${{ github.run_id }}" in key and "${{ github.run_attempt }}" in key  # unique
    prefixes = restored["with"]["restore-keys"].strip().splitlines()
    assert any(key.startswith(prefix) for prefix in prefixes)  # the next run finds it
    if name == "update-sharded.yml":
        assert "${{ matrix.shard }}" in key and "${{ matrix.shard }}" in prefixes[0]
    # saved even when a step failed after the ingest, but only when the restore ran
    condition = saved["if"]
    assert "always()" in condition
    assert f"steps.{restored['id']}.outcome == 'success'" in condition
    # and a second copy of what is left, downloadable, outlives a lost cache
    attached = steps[step_index(steps, uses="actions/upload-artifact")]
    assert attached["if"] == "${{ always() && hashFiles('evidence/**/*.warc.gz') != '' }}"
    assert attached["with"]["path"] == "evidence" and attached["with"]["retention-days"] >= 30


def test_the_sharded_build_fetches_only_the_history_since_the_run_began() -> None:
    steps = workflow("update-sharded.yml")["jobs"]["build"]["steps"]
    checkout = steps[step_index(steps, uses="actions/checkout")]["with"]
    assert checkout["fetch-depth"] == 1 and "sparse-checkout" not in checkout  # builds all
    deepen = step_index(steps, runs="git fetch --quiet --deepen")
    assert deepen < step_index(steps, runs="quietedit verify --since")


def test_the_weekly_audit_runs_the_full_check_on_the_full_history() -> None:
    audit = workflow("audit.yml")
    minute, _, _, _, weekday = audit[True]["schedule"][0]["cron"].split()
    assert minute != "0" and weekday != "*"  # off the hour, once a week
    assert "workflow_dispatch" in audit[True]
    assert audit["permissions"] == {}
    job = audit["jobs"]["audit"]
    assert job["permissions"] == {"contents": "read"}  # reads only
    steps = job["steps"]
    checkout = steps[step_index(steps, uses="actions/checkout")]["with"]
    assert checkout["fetch-depth"] == 0 and checkout["persist-credentials"] is False
    assert [s for s in steps if s.get("run", "").strip() == "quietedit verify"]
    since = steps[step_index(steps, runs="quietedit verify --since")]["run"]
    assert "git rev-list --max-parents=0 HEAD" in since
    evidence = steps[step_index(steps, runs="quietedit verify --evidence")]
    assert evidence["if"] == "${{ inputs.evidence }}"  # on request only: it downloads a lot


POSTERS = [("update.yml", "ingest-and-build"), ("update-sharded.yml", "build")]


@pytest.mark.parametrize(("name", "builder"), POSTERS)
def test_edits_are_posted_after_the_deploy_only_with_the_secrets_which_only_its_steps_see(
    name: str, builder: str
) -> None:
    update = workflow(name)
    job = update["jobs"]["post"]
    assert set(job["needs"]) == {builder, "deploy"}
    assert job["permissions"] == {"contents": "write"}
    # one poster: no matrix, and no other job posts (shards would post the same edits)
    assert "strategy" not in job
    others = [j for n, j in update["jobs"].items() if n != "post"]
    assert not [j for j in others if "quietedit post" in str(j.get("steps", ""))]
    steps = job["steps"]
    check = steps[0]
    assert "secrets." not in str(update["jobs"]["post"].get("env", ""))
    assert check["id"] == "accounts" and "found=true" in check["run"]
    # every later step waits for the secrets; the push also after a failed post
    for step in steps[1:]:
        assert "steps.accounts.outputs.found == 'true'" in step["if"], step
    post = step_index(steps, runs="quietedit post")
    push = step_index(steps, runs=".github/scripts/push-data.sh")
    restore = step_index(steps, uses="actions/cache/restore", path="_site")
    assert restore < post < push and "always()" in steps[push]["if"]
    # the exact site this run built and saved, never an older one
    built = update["jobs"][builder]["steps"]
    saved = built[step_index(built, uses="actions/cache/save", path="_site")]
    assert steps[restore]["with"]["key"] == saved["with"]["key"]
    assert steps[restore]["with"]["fail-on-cache-miss"] is True
    # credentials reach only the steps that read them, never a command line
    for index, step in enumerate(steps):
        secrets = [v for v in step.get("env", {}).values() if "secrets." in str(v)]
        assert not secrets or index in (0, post), step
        assert "secrets." not in step.get("run", "")
    assert "--base-url" in steps[post]["run"]


def test_captures_are_asked_for_after_the_ingest_and_before_the_check_and_the_commit() -> None:
    steps = workflow("update.yml")["jobs"]["ingest-and-build"]["steps"]
    capture = step_index(steps, runs="quietedit capture")
    ingest = step_index(steps, runs="quietedit ingest")
    verify = step_index(steps, runs="quietedit verify")
    push = step_index(steps, runs=".github/scripts/push-data.sh")
    assert ingest < capture < verify < push
    keys = steps[capture]["env"]
    assert set(keys) == {"QUIETEDIT_ARCHIVE_ORG_ACCESS_KEY", "QUIETEDIT_ARCHIVE_ORG_SECRET_KEY"}
    assert "secrets." not in steps[capture]["run"]
    # the keys reach no other step of the job
    others = [s for i, s in enumerate(steps) if i != capture]
    assert not any("ARCHIVE_ORG" in str(s.get("env", {})) for s in others)


def test_the_sharded_run_asks_for_captures_once_after_every_shard_and_before_the_build() -> None:
    sharded = workflow("update-sharded.yml")
    jobs = sharded["jobs"]
    job = jobs["capture"]
    assert job["needs"] == "ingest" and job["if"] == "${{ !cancelled() }}"
    assert "strategy" not in job  # one job for all shards, which never capture themselves
    assert "quietedit capture" not in str(jobs["ingest"]["steps"])
    assert "capture" in jobs["build"]["needs"] and jobs["build"]["if"] == "${{ !cancelled() }}"
    assert job["permissions"] == {"contents": "write"}
    steps = job["steps"]
    assert steps[0]["id"] == "keys" and "found=true" in steps[0]["run"]
    for step in steps[1:]:
        assert "steps.keys.outputs.found == 'true'" in step["if"], step
    checkout = steps[step_index(steps, uses="actions/checkout")]["with"]
    assert checkout["ref"] == "${{ github.ref_name }}"  # the head, with every shard's push
    assert checkout["filter"] == "blob:none" and checkout["fetch-depth"] == 1
    add = step_index(steps, runs="quietedit sparse-paths")
    capture = step_index(steps, runs="quietedit capture")
    push = step_index(steps, runs=".github/scripts/push-data.sh")
    assert add < capture < push
    assert steps[capture]["continue-on-error"] is True
    keys = steps[capture]["env"]
    assert set(keys) == {"QUIETEDIT_ARCHIVE_ORG_ACCESS_KEY", "QUIETEDIT_ARCHIVE_ORG_SECRET_KEY"}
    for index, step in enumerate(steps):
        secrets = [v for v in step.get("env", {}).values() if "secrets." in str(v)]
        assert not secrets or index in (0, capture), step
        assert "secrets." not in step.get("run", "")
