"""``quietedit demo``: a bundled newsroom, ingested over simulated rounds, then published.

Offline (the newsroom listens on loopback), deterministic (a simulated clock, no
randomness: the same archive bytes on every run, the same evidence records) and quick. The
raw pages go to ``evidence/`` beside the archive folder. The archive is marked with the
state file ``state/demo.json``; a rerun deletes a folder only if it carries that mark, so a
real archive is never touched.
"""

from __future__ import annotations

import logging
import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from quietedit.archive.evidence import evidence_file_name
from quietedit.archive.store import Archive
from quietedit.config import Config, parse_config
from quietedit.decide.shard import WHOLE
from quietedit.demo.newsroom import NAME, Newsroom
from quietedit.demo.stories import ROUNDS, STORIES, round_time
from quietedit.errors import ArchiveError
from quietedit.ingest.run import LEDGER_STATE, IngestReport, run_ingest
from quietedit.publish.render import template_dirs

logger = logging.getLogger(__name__)

MARKER: Final = "demo"
"""The state file (``state/demo.json``) that marks an archive as the demo's own."""


@dataclass(frozen=True, slots=True)
class DemoRun:
    """What the demo ingested: one report per round, and the config the site is built with
    (its ``settings.paths.evidence`` holds the raw pages: ``evidence/`` beside ``data``)."""

    config: Config
    data: Path
    reports: tuple[IngestReport, ...]

    def summary(self) -> str:
        """What the archive holds: documents, revisions and events by kind."""
        archive = Archive(self.data)
        docs = archive.document_ids()
        revisions = sum(len(archive.revisions(doc)) for doc in docs)
        events = Counter(event.kind for doc in docs for event in archive.events(doc))
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(events.items())) or "none"
        return f"{len(docs)} documents, {revisions} revisions; events: {kinds}"


def prepare_data(data: Path) -> None:
    """Make ``data`` ready for a fresh demo archive: delete it if it is a previous demo's,
    refuse if it holds anything else."""
    if not data.exists():
        return
    if not data.is_dir():
        raise ArchiveError(data, "is a file; pass --data with a folder for the demo archive")
    if not any(data.iterdir()):
        return
    marker = Archive(data).layout.state_file(MARKER)
    if not marker.is_file():
        raise ArchiveError(
            data,
            f"holds files that are not a quietedit demo archive (no state/{MARKER}.json); "
            "the demo never overwrites them: pass --data with an empty or new folder",
        )
    shutil.rmtree(data)


def demo_config(feed_url: str, *, base_dir: Path) -> Config:
    """The configuration of the demo: the newsroom's feed and front page, loopback allowed,
    no spacing between requests (a real host must never be fetched like this)."""
    front = feed_url.rsplit("/", 1)[0] + "/"
    return parse_config(
        {
            "feeds": [
                {"url": feed_url, "name": NAME},
                {
                    "url": front,
                    "name": f"{NAME} front page",
                    "slug": "gazette-front",
                    "kind": "homepage",
                },
            ],
            "settings": {
                "allow_private_addresses": True,
                "politeness": {"min_host_interval": "0s"},
                "fetch": {"retries": 0},
                # the shipped templates, whatever folder the demo runs in
                "paths": {"templates": str(template_dirs(None)[0])},
            },
        },
        environ={},
        source="demo",
        base_dir=base_dir,
    )


def run_demo(data: Path, *, progress: Callable[[int, IngestReport], None] | None = None) -> DemoRun:
    """Serve the newsroom, ingest it over ``ROUNDS`` rounds into a fresh archive at ``data``
    (see ``prepare_data``), marking it as the demo's. ``progress`` is called after each round."""
    prepare_data(data)
    archive = Archive(data)
    reports = []
    with Newsroom(STORIES) as newsroom:
        config = demo_config(newsroom.feed_url, base_dir=data.absolute().parent)
        # the evidence of an earlier demo run: the same names, which a rerun would append to
        for number in range(1, ROUNDS + 1):
            name = evidence_file_name(round_time(number), shard=WHOLE)
            (config.settings.paths.evidence / name).unlink(missing_ok=True)
        # marked before anything else is written, so a rerun may always remove it
        archive.write_state(
            MARKER,
            {
                "note": "made by `quietedit demo`; a rerun deletes and remakes it",
                "newsroom": newsroom.base_url,
            },
        )
        for number in range(1, ROUNDS + 1):
            newsroom.round = number
            report = run_ingest(config, archive, now=round_time(number), simulated=True)
            reports.append(report)
            if progress is not None:
                progress(number, report)
    # the request ledger logs real-time offsets and durations of the loopback requests, the
    # one thing a simulated clock cannot fix; the demo has no host to be polite to
    archive.layout.state_file(LEDGER_STATE).unlink(missing_ok=True)
    return DemoRun(config=config, data=data, reports=tuple(reports))
