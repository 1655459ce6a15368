"""``quietedit verify``, ``quietedit migrate`` and ``quietedit config``: check and migrate the
archive, check the configuration."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import click

from quietedit.archive.lock import RunLock
from quietedit.archive.migrate import WarcPageKeeper, migrate_archive
from quietedit.archive.since import verify_since
from quietedit.archive.verify import verify_archive
from quietedit.cli.options import CONFIG_OPTION, DATA_OPTION, now_option
from quietedit.config import effective_settings, load_config

logger = logging.getLogger("quietedit")


@click.command()
@CONFIG_OPTION
@DATA_OPTION
@click.option(
    "--since",
    metavar="GIT_REV",
    default=None,
    help="Check only what changed since GIT_REV (in time proportional to the change) and "
    "prove with git that no revision or event file present at GIT_REV was modified or "
    "deleted since.",
)
@click.option(
    "--evidence",
    "evidence_dir",
    type=click.Path(path_type=Path, file_okay=False),
    metavar="DIR",
    default=None,
    help="Also check the raw page of every revision checked against the WARC files in DIR: "
    "its record present, whole, and with the body hash the revision states.",
)
def verify(
    config_path: Path | None, data_dir: Path | None, since: str | None, evidence_dir: Path | None
) -> None:
    """Check the archive: schema, hashes, hash chains, numbering, orphans, the index.

    Prints one line per problem (path: message) and exits 1 if there is any, 0 if the
    archive is sound. Without --since every file is read; with it, only the files git
    shows changed since GIT_REV, plus the git audit of that range. With --evidence, the
    revisions read are checked against their WARC records too; a revision whose WARC file
    is not in DIR is reported as missing.

    \b
    Example:
        quietedit verify --data data --since HEAD~1
        quietedit verify --data data --evidence evidence
    """
    root = data_dir if data_dir is not None else load_config(config_path).settings.paths.data
    report = verify_archive(root) if since is None else verify_since(root, since)
    problems = list(report.problems)
    if evidence_dir is not None:
        from quietedit.archive.evidence import check_evidence  # loads warcio

        problems = sorted([*problems, *check_evidence(evidence_dir, report.references)])
    for problem in problems:
        click.echo(str(problem))
    logger.info(
        "checked %d documents, %d revisions (%d naming evidence)%s: %s",
        report.documents,
        report.revisions,
        report.evidence,
        (f", changed since {since}, and git history since then" if since else "")
        + (f", and their evidence in {evidence_dir}" if evidence_dir is not None else ""),
        f"{len(problems)} problem(s)" if problems else "no problems",
    )
    if problems:
        sys.exit(1)


@click.command()
@CONFIG_OPTION
@DATA_OPTION
@click.option(
    "--evidence",
    "evidence_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Where the raw pages of the schema-1 archive go, as WARC records.  "
    "[default: evidence/ beside the archive folder]",
)
def migrate(config_path: Path | None, data_dir: Path | None, evidence_dir: Path | None) -> None:
    """Move an archive to the current layout: a schema-1 archive's documents into date
    partitions, the index, raw pages out of the archive into WARC files; the index of
    schema 2 (index/<hh>.json) into the shard folders of schema 3; each document folder
    directly in its partition (YYYY/MM/DD/<id>) into its bucket (YYYY/MM/DD/<bb>/<id>).

    Safe to interrupt and to run again: a second run finishes what the first left and
    then finds nothing to do. Prints what it did; exits 1 if a document could not be
    moved (it stays where it was). Commit the result in one commit: the git audit
    (verify --since) accepts the moves of that one change.

    \b
    Example:
        quietedit migrate --data data && quietedit verify --data data
    """
    paths = load_config(config_path).settings.paths
    root = data_dir if data_dir is not None else paths.data
    evidence = evidence_dir if evidence_dir is not None else paths.evidence
    now = datetime.now(UTC)
    with RunLock(root, now=now), WarcPageKeeper(evidence, now=now) as keeper:
        report = migrate_archive(root, keep_page=keeper)
    click.echo(
        f"moved {report.documents} documents ({report.revisions} revisions, "
        f"{report.events} events), kept {report.pages} evidence pages in {evidence}, "
        f"wrote {report.index_entries} index entries, moved {report.index_files} index "
        f"files of schema 2, sealed {report.index_sealed} of schema 3, moved "
        f"{report.bucketed} document folders into their "
        f"buckets, rewrote {report.rewritten} feed and state files"
    )
    for problem in report.problems:
        click.echo(str(problem))
    if report.problems:
        sys.exit(1)


@click.command("config")
@CONFIG_OPTION
def show_config(config_path: Path | None) -> None:
    """Validate feeds.yaml and print the effective configuration as JSON.

    Environment overrides (QUIETEDIT_*) and defaults are applied; header values are
    shown as "<redacted>" so tokens never reach a log.

    \b
    Example:
        QUIETEDIT_RUN_MAX_ARTICLES=20 quietedit config --config feeds.yaml
    """
    config = load_config(config_path)
    shown = {
        "source": config.source,
        "feeds": [
            {
                "url": feed.url,
                "name": feed.name,
                "slug": feed.slug,
                "enabled": feed.enabled,
                "render": feed.render,
                "headers": {name: "<redacted>" for name, _ in feed.headers},
                "kind": feed.kind,
                "include": list(feed.links.include),
                "exclude": list(feed.links.exclude),
            }
            for feed in config.feeds
        ],
        "settings": effective_settings(config),
    }
    click.echo(json.dumps(shown, indent=2, ensure_ascii=False))


@click.command("sparse-paths")
@CONFIG_OPTION
@DATA_OPTION
@now_option("The run's time, for today's and yesterday's partitions (default: the clock)")
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help=(
        "Print the archive folder alone: a checkout of all of it (a full build); "
        "its folders, when the archive is the top of the work tree."
    ),
)
@click.option(
    "--fetch-trees",
    is_flag=True,
    help="First fetch the folder listings (git trees) those folders need, in a partial clone.",
)
@click.option(
    "--observed",
    is_flag=True,
    help="Print the folder of every document still observed, not only of those the run's "
    "plan reads.",
)
@click.option(
    "--shard",
    metavar="K/N",
    default=None,
    help="The documents the plan of `quietedit ingest --shard K/N` reads, e.g. 2/3.",
)
def sparse_paths(
    config_path: Path | None,
    data_dir: Path | None,
    now_text: str | None,
    everything: bool,
    fetch_trees: bool,
    observed: bool,
    shard: str | None,
) -> None:
    """Print the archive folders an hourly run needs, for a sparse git checkout.

    One path a line, relative to the top of the git work tree holding the archive (or as
    given, outside git): the feed and state folders (not the index: a run fetches the
    shards it reads, those of the documents new to it); today's and yesterday's (UTC)
    day folders of the entries that leave feeds and partitions, whole; and of the other
    documents still observed, the folders of those the run's plan at --now will read: the
    articles the re-check policy makes due, within the
    per-run cap and per-host budgets of the configuration, and the pages their sites'
    templates are learnt from (with --observed: every one). Cone mode brings each one's
    partition's checks files along. A document the run reads that is not checked out (a
    feed's claim made it due) is fetched when the run reads it. The index and the whole
    documents folder before any run has saved its list. Feed them to `git sparse-checkout
    add --stdin` (cone mode).

    \b
    With --fetch-trees, in a clone made without trees (--filter=tree:0), it first fetches
    the trees on the way to each folder and those below it, a level at a time, so that
    git does not fetch them itself (which brings the trees of the whole archive).

    \b
    Example:
        quietedit sparse-paths --fetch-trees | git sparse-checkout add --stdin
    """
    from quietedit.archive.gittrees import fetch_trees as fetch_listings
    from quietedit.archive.layout import DEPARTED_DIR
    from quietedit.archive.store import Archive
    from quietedit.cli.ingest import parse_now
    from quietedit.decide.shard import WHOLE, parse_shard
    from quietedit.errors import InvalidShardError
    from quietedit.ingest.checkout import checkout_plan
    from quietedit.ingest.partitions import checkout_list, recent

    try:
        part = WHOLE if shard is None else parse_shard(shard)
    except InvalidShardError as exc:
        raise click.BadParameter(str(exc), param_hint="--shard") from exc
    config = load_config(config_path)
    root = data_dir if data_dir is not None else config.settings.paths.data
    now = parse_now(now_text) if now_text else datetime.now(UTC)
    archive = Archive(root)
    if everything:
        chosen = None
    elif observed:
        chosen = checkout_list(archive, now=now)
    else:
        chosen = checkout_plan(archive, config, shard=part, now=now)
    # not the index: the run fetches the shards it reads (few), and it grows with the archive
    folders = [archive.layout.root / name for name in ("feeds", "state")]
    if everything:
        folders = [archive.layout.root]
    else:  # and the day files the run writes the entries that leave its feeds to
        folders.extend(archive.layout.departed_dir(day) for day in sorted(recent(now)))
    if chosen is None and not everything:  # every document is read: the index whole too
        folders.extend((archive.layout.index_dir, archive.layout.documents_dir))
    elif chosen is not None:
        folders.extend(
            archive.layout.partition_dir(partition) for partition in sorted(chosen.whole)
        )
        folders.extend(
            archive.layout.document_dir(document, partition)
            for partition, documents in chosen.single().items()
            for document in documents
        )
    top = _relative(archive.layout.root, _work_tree_top(root))
    prefix = "" if top == "." else f"{top}/"
    if everything and top == ".":
        # the archive is the whole work tree, and cone mode takes no "." for it: its
        # folders, each whole (files at the top are always checked out)
        folders = [archive.layout.root / name for name in ("feeds", "state", "index")]
        folders.extend((archive.layout.documents_dir, archive.layout.root / DEPARTED_DIR))
    # below the archive's own path, resolved once: a line per document still observed
    below = [folder.relative_to(archive.layout.root).as_posix() for folder in folders]
    lines = [f"{prefix}{path}".removesuffix("/.") for path in below]
    work_tree = _work_tree_top(root)
    if fetch_trees and work_tree is not None:
        made = fetch_listings(work_tree, lines)
        logger.info("fetched %d folder listings in %d requests", made.trees, made.requests)
    click.echo("".join(f"{line}\n" for line in lines), nl=False)


def _work_tree_top(root: Path) -> Path | None:
    probe = root.resolve()
    while not probe.is_dir() and probe != probe.parent:  # the archive may not exist yet
        probe = probe.parent
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],  # noqa: S607 - git as found on PATH
            cwd=probe,
            capture_output=True,
            text=True,
            check=False,
        )
    except (FileNotFoundError, NotADirectoryError):
        return None
    return Path(done.stdout.strip()).resolve() if done.returncode == 0 else None


def _relative(folder: Path, base: Path | None) -> str:
    if base is not None:
        try:
            return folder.resolve().relative_to(base).as_posix()
        except ValueError:
            pass
    return os.fspath(folder)


@click.command("fetch-trees")
@click.option(
    "--revision",
    metavar="GIT_REV",
    default="HEAD",
    show_default=True,
    help="The commit whose folder listings are fetched (FETCH_HEAD: what a fetch brought).",
)
@click.option(
    "--stdin", "from_stdin", is_flag=True, help="Also read folders from stdin, one a line."
)
@click.argument("folders", nargs=-1)
def fetch_trees_command(revision: str, from_stdin: bool, folders: tuple[str, ...]) -> None:
    """In a clone made without trees, fetch the folder listings (git trees) at GIT_REV that
    the sparse checkout's folders, and FOLDERS, need: a level at a time, by id.

    Run in the git work tree. Git left to itself fetches a missing tree with every tree
    below it (for data/, the whole archive's); a rebase onto commits fetched without trees
    (`git fetch --filter=tree:0`) reads the trees of the folders checked out and of those
    the commit being rebased wrote, and this fetches those alone beforehand. Nothing is
    run outside a partial clone. Exits 1 when the server refused a request: git then
    fetches what is missing itself, more slowly.

    \b
    Example:
        git diff-tree -r --name-only HEAD~1 HEAD | xargs -r dirname |
          quietedit fetch-trees --revision FETCH_HEAD --stdin
    """
    from quietedit.archive.gitcmd import git
    from quietedit.archive.gittrees import fetch_trees

    top = _work_tree_top(Path.cwd())
    if top is None:
        raise click.ClickException("not in a git work tree")
    wanted = list(folders)
    if from_stdin:
        wanted.extend(line.strip() for line in sys.stdin if line.strip())
    listed = git(top, "sparse-checkout", "list")
    if listed is not None and listed.returncode == 0:
        wanted.extend(line.strip() for line in listed.stdout.splitlines() if line.strip())
    made = fetch_trees(top, sorted(set(wanted)), revision=revision)
    logger.info("fetched %d folder listings in %d requests", made.trees, made.requests)
    if made.failed:
        sys.exit(1)
