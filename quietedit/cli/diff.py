"""``quietedit diff``: what changed between two revisions, word by word."""

from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path

import click

from quietedit.analysis.classify import Classification, classify_change
from quietedit.analysis.diff import RevisionDiff, choose_pair, diff_revisions
from quietedit.analysis.terminal import plain_style, render_diff
from quietedit.archive.store import Archive
from quietedit.cli.options import CONFIG_OPTION, DATA_OPTION
from quietedit.config import load_config
from quietedit.errors import RevisionNotFoundError
from quietedit.model import format_timestamp
from quietedit.revisions import Revision


@click.command("diff")
@click.argument("document")
@CONFIG_OPTION
@DATA_OPTION
@click.option(
    "--from",
    "from_number",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="The older revision.  [default: the one before --to]",
)
@click.option(
    "--to",
    "to_number",
    type=click.IntRange(min=1),
    default=None,
    metavar="M",
    help="The newer revision.  [default: the newest]",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the diff and its classification as JSON."
)
def diff(
    document: str,
    config_path: Path | None,
    data_dir: Path | None,
    from_number: int | None,
    to_number: int | None,
    as_json: bool,
) -> None:
    """Show what changed between two revisions of DOCUMENT, word by word.

    The report opens with the kinds of change, how much they matter and whether the
    publisher said so (the silent verdict), then shows each changed block with removed
    words as [-...-] and added words as {+...+} (in colour on a terminal). Without
    --from/--to it compares the newest two revisions; --to M alone compares M with its
    predecessor, --from N alone compares N with the newest.

    \b
    Example:
        quietedit diff news-example-org-3f2a9c1d0b7e4a65 --to 3
    """
    root = data_dir if data_dir is not None else load_config(config_path).settings.paths.data
    if from_number is not None and to_number is not None and from_number >= to_number:
        raise click.BadParameter(
            f"revision {from_number} is not older than --to {to_number}; "
            "give the older revision to --from",
            param_hint="'--from'",
        )
    old, new, changes, verdict = _diff_document(
        Archive(root), document, from_number=from_number, to_number=to_number
    )
    if as_json:
        shown = {
            "document": document,
            "from": {"revision": old.number, "observed_at": _observed(old)},
            "to": {"revision": new.number, "observed_at": _observed(new)},
            "diff": changes.to_dict(),
            "classification": verdict.to_dict(),
        }
        click.echo(json.dumps(shown, indent=2, sort_keys=True, ensure_ascii=False))
        return
    heading = (
        f"{document}: revision {old.number} ({_observed(old)}) "
        f"→ revision {new.number} ({_observed(new)})"
    )
    style = terminal_style if sys.stdout.isatty() else plain_style
    click.echo(render_diff(changes, verdict, heading=heading, style=style), nl=False)


def _diff_document(
    archive: Archive, document: str, *, from_number: int | None, to_number: int | None
) -> tuple[Revision, Revision, RevisionDiff, Classification]:
    """Read the document's revisions, pick the pair, diff and classify it."""
    known = archive.document_ids()
    if document not in known:
        close = difflib.get_close_matches(document, known, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else f" ({len(known)} documents)"
        raise RevisionNotFoundError(f"no document {document!r} in {archive.root}{hint}")
    old, new = choose_pair(
        archive.revisions(document),
        document=document,
        from_number=from_number,
        to_number=to_number,
    )
    changes = diff_revisions(old, new)
    return old, new, changes, classify_change(old, new, diff=changes)


def _observed(revision: Revision) -> str:
    return format_timestamp(revision.observation.observed_at)


def terminal_style(role: str, text: str) -> str:
    """Colour, with strike-through and underline so the marks survive colour blindness."""
    if role == "removed":
        return click.style(text, fg="red", strikethrough=True)
    if role == "added":
        return click.style(text, fg="green", underline=True)
    if role == "heading":
        return click.style(text, bold=True)
    return text
