"""One ``quietedit post`` run: gather the new edits, decide what to post, post and record.

Gather: the edits of the last build (its cache in ``<site>/.quietedit-cache/``, so each
post links a page that exists; a month folded away has no pages and is not posted), the
posted-ledger (``state/posted.json``) and, per edit, the site's image for it if there is
one (``articles/<id>/diff/<n>/share.png`` beside the edit's page). Decide: which edits
(:func:`~quietedit.post.compose.select_edits`), their posts, and per network what each
ledger entry allows (:mod:`quietedit.post.ledger`). Apply: per network, oldest edit first,
intent written, post sent, outcome written.

A failure is recorded for its post and the run goes on with the others; a rate limit
(429) is waited out when its Retry-After is at most ``settings.post.max_wait``, and
otherwise ends that network's turn (its remaining posts wait for the next run). The run
holds the archive's lock: no ingest or other post run writes the archive meanwhile.
"""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Final, Protocol

from quietedit.archive.lock import RunLock
from quietedit.archive.store import Archive
from quietedit.config.settings import Settings
from quietedit.errors import (
    AccountRefusedError,
    ArchiveError,
    ConfigError,
    PostError,
    PostRefusedError,
    PublishError,
    RateLimitedError,
)
from quietedit.model import JSON, format_timestamp, parse_timestamp
from quietedit.post.compose import Post, PostImage, compose_post, select_edits
from quietedit.post.ledger import (
    ABANDONED,
    FAILED,
    INTENT,
    LEDGER_NAME,
    MASTODON_IDEMPOTENCY,
    MAX_ATTEMPTS,
    POSTED,
    UNKNOWN,
    Entry,
    Ledger,
    Thread,
    idempotency_key,
    intent,
    record_key,
)
from quietedit.post.sent import Sent
from quietedit.publish.atom import diff_path
from quietedit.publish.buildcache import BuildState
from quietedit.publish.documents import unconfigured_source
from quietedit.publish.pages import Edit
from quietedit.publish.share import IMAGE_NAME, alt_text, card_of

logger = logging.getLogger(__name__)

CACHE_FOLDER: Final = ".quietedit-cache"
SITE_NAME: Final = "quietedit"
"""The site's name as its pages and share images give it (``Renderer``'s default)."""
MAX_IMAGE_BYTES: Final = 1_000_000
"""Bytes of an image posted at most: Bluesky's older limit for an image's blob
(app.bsky.embed.images now takes 2 MB, servers not yet updated 1,000,000); a larger image
is left out of both networks' posts."""
DEFAULT_RATE_WAIT: Final = 60.0
"""Seconds waited after a 429 that names no wait."""

ENV_MASTODON_URL: Final = "QUIETEDIT_MASTODON_URL"
ENV_MASTODON_TOKEN: Final = "QUIETEDIT_MASTODON_TOKEN"  # noqa: S105  # a name, not a value
ENV_BLUESKY_SERVICE: Final = "QUIETEDIT_BLUESKY_SERVICE"
DEFAULT_BLUESKY_SERVICE: Final = "https://bsky.social"
"""Bluesky's own server, where most accounts are."""
ENV_BLUESKY_HANDLE: Final = "QUIETEDIT_BLUESKY_HANDLE"
ENV_BLUESKY_PASSWORD: Final = "QUIETEDIT_BLUESKY_PASSWORD"  # noqa: S105  # a name


class Account(Protocol):
    """A network account: :class:`~quietedit.post.mastodon.MastodonAccount` or
    :class:`~quietedit.post.bluesky.BlueskyAccount`."""

    name: str

    def lookup(self, token: str, *, now: datetime) -> Sent | None: ...

    def send(self, post: Post, *, token: str, thread: Thread | None, now: datetime) -> Sent: ...


@dataclass(frozen=True, slots=True)
class PostOptions:
    data: Path
    site: Path
    base_url: str
    settings: Settings
    sources: Mapping[str, str] = field(default_factory=dict)  # slug → name


@dataclass(slots=True)
class PostReport:
    """What a run did: one line per post made, per post given up or of unknown outcome,
    per failure; ``waiting``: posts left for the next run."""

    posts: list[Post] = field(default_factory=list)  # every post selected
    posted: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    waiting: int = 0


def accounts_from_environment(environ: Mapping[str, str], *, settings: Settings) -> list[Account]:
    """The accounts whose variables are set; one set by half is a :class:`ConfigError`
    naming what is missing (never a value)."""
    problems: list[str] = []
    accounts: list[Account] = []
    url, token = environ.get(ENV_MASTODON_URL, ""), environ.get(ENV_MASTODON_TOKEN, "")
    if url and token:
        mastodon = _network("mastodon", "MastodonAccount")

        accounts.append(
            mastodon(url, token, timeout=settings.post.timeout, user_agent=settings.user_agent)
        )
    elif url or token:
        missing = ENV_MASTODON_TOKEN if url else ENV_MASTODON_URL
        problems.append(f"environment: {missing} is not set; Mastodon needs both variables")
    handle, password = environ.get(ENV_BLUESKY_HANDLE, ""), environ.get(ENV_BLUESKY_PASSWORD, "")
    if handle and password:
        bluesky = _network("bluesky", "BlueskyAccount")

        accounts.append(
            bluesky(
                environ.get(ENV_BLUESKY_SERVICE) or DEFAULT_BLUESKY_SERVICE,
                handle,
                password,
                timeout=settings.post.timeout,
                user_agent=settings.user_agent,
            )
        )
    elif handle or password:
        missing = ENV_BLUESKY_PASSWORD if handle else ENV_BLUESKY_HANDLE
        problems.append(f"environment: {missing} is not set; Bluesky needs both variables")
    if problems:
        raise ConfigError(problems)
    return accounts


def _network(module: str, name: str) -> Any:
    """The account class of ``quietedit.post.<module>``; a :class:`ConfigError` saying how
    to install its library when the ``post`` extra is missing."""
    try:
        loaded = importlib.import_module(f"quietedit.post.{module}")
    except ImportError as exc:
        raise ConfigError(
            [
                f"environment: a {module.title()} account is set, but its library is not "
                f"installed ({exc.name}); pip install 'quietedit[post]'"
            ]
        ) from exc
    return getattr(loaded, name)


def plan_posts(options: PostOptions, *, now: datetime) -> list[Post]:
    """The posts of the edits to post, oldest first (gather and decide; nothing sent)."""
    state = BuildState.load(options.site / CACHE_FOLDER)
    if not state.loaded:
        raise PublishError(
            f"{options.site}: no build found (no usable {CACHE_FOLDER}/); "
            f"run `quietedit build --out {options.site}` first"
        )
    oldest = format_timestamp(now - timedelta(seconds=options.settings.post.max_age))
    edits: list[Edit] = [
        edit
        for entry in state.documents.values()
        # a document last seen before the oldest edit wanted has no edit wanted; a folded
        # one has no pages to link
        if entry.files and entry.summary.last_seen >= oldest
        for edit in entry.edits
        if not edit.event  # a takedown or flip-flop listed among the edits is not one
    ]
    base = options.base_url if options.base_url.endswith("/") else options.base_url + "/"
    posts = []
    archive, names = Archive(options.data), dict(options.sources)
    for edit in select_edits(edits, options.settings.post, now=now):
        if edit.source not in names:
            # a source missing from feeds.yaml: named as its pages name it
            names[edit.source] = unconfigured_source(archive, edit.source).name
        name = names[edit.source]
        image = _image(options.site / diff_path(edit) / IMAGE_NAME, edit, name)
        # the edit's permalink: its link card (og:image) is the edit's own, and it leads
        # on to the edit's place in its article's timeline
        posts.append(compose_post(edit, link=base + diff_path(edit), source_name=name, image=image))
    return posts


def dry_run(options: PostOptions, networks: Sequence[str], *, now: datetime) -> list[str]:
    """What a run would post to ``networks``, in words (nothing sent, nothing written):
    per post not yet made, where it goes (a new thread or a reply) and its text."""
    posts = plan_posts(options, now=now)
    ledger = Ledger.from_record(_read(Archive(options.data))).pruned(now=now)
    lines: list[str] = []
    for network in networks:
        todo = [p for p in posts if _pending(ledger.entry(p.key, network))]
        lines.append(f"{network}: {len(todo)} post(s)")
        for item in todo:
            thread = ledger.thread(item.document, network)
            where = f"reply to {thread.parent[0]}" if thread else "new thread"
            if any(o.document == item.document and o.number < item.number for o in todo):
                where = "reply to the post before it"
            image = f"image of {len(item.image.png)} bytes" if item.image else "no image"
            text = item.mastodon if network == "mastodon" else item.bluesky
            lines.append(f"== {item.key} ({item.observed_at}): {where}; {image}")
            if item.image:
                lines.append(f"   alt: {item.image.alt}")
            lines.extend(f"   {line}" for line in text.splitlines())
            if network == "bluesky" and item.link_span is not None:
                lines.append(f"   link: {item.link} (the image's post, no card)")
            elif network == "bluesky":
                lines.append(f"   card: {item.link}")
                lines.append(f"         {item.card_title}")
                lines.append(f"         {item.card_description}")
    return lines


def _pending(entry: Entry | None) -> bool:
    return entry is None or entry.status in {INTENT, FAILED}


def _image(path: Path, edit: Edit, source_name: str) -> PostImage | None:
    try:
        with path.open("rb") as handle:
            png = handle.read(MAX_IMAGE_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        logger.warning("%s: image not read (%s); posted without it", path, exc.strerror)
        return None
    if len(png) > MAX_IMAGE_BYTES or not png.startswith(b"\x89PNG\r\n\x1a\n"):
        logger.warning(
            "%s: not a PNG of at most %d bytes; posted without it", path, MAX_IMAGE_BYTES
        )
        return None
    return PostImage(png, alt_text(card_of(edit, outlet=source_name, site=SITE_NAME)))


def post_edits(
    options: PostOptions,
    accounts: Sequence[Account],
    *,
    now: datetime,
    clock: Callable[[], datetime],
    sleep: Callable[[float], None] = time.sleep,
) -> PostReport:
    """Post the new edits to ``accounts`` and record every step in the posted-ledger.

    ``now`` decides which edits are new; ``clock`` stamps the ledger's entries and the
    posts (the real time in a run, a fixed one in tests)."""
    report = PostReport(posts=plan_posts(options, now=now))
    archive = Archive(options.data)
    with RunLock(options.data, now=now):
        ledger = Ledger.from_record(_read(archive)).pruned(now=now)
        for skipped in ledger.skipped:
            report.failures.append(f"state/{LEDGER_NAME}.json: entry {skipped} unreadable, dropped")
        for account in accounts:
            ledger = _post_to(account, report, ledger, archive, options, clock=clock, sleep=sleep)
    return report


def _read(archive: Archive) -> dict[str, JSON] | None:
    try:
        return archive.read_state(LEDGER_NAME)
    except ArchiveError as exc:
        # a ledger that cannot be read must not be taken for an empty one: everything
        # in it would be posted again
        raise ArchiveError(
            archive.root / "state" / f"{LEDGER_NAME}.json",
            f"posted-ledger unreadable ({exc}); repair or restore it from git before posting",
        ) from exc


def _post_to(
    account: Account,
    report: PostReport,
    ledger: Ledger,
    archive: Archive,
    options: PostOptions,
    *,
    clock: Callable[[], datetime],
    sleep: Callable[[float], None],
) -> Ledger:
    """Post ``report.posts`` to ``account``; the ledger as it ends."""
    budget = options.settings.post.max_posts
    network = account.name

    def save(key: str, entry: Entry) -> None:
        nonlocal ledger
        ledger = ledger.with_entry(key, network, entry)
        # durable before the request that follows it: the intent is the guard
        archive.write_state(LEDGER_NAME, ledger.to_record(), final=True)

    for index, post in enumerate(report.posts):
        entry = ledger.entry(post.key, network)
        if entry is not None and entry.status in {POSTED, ABANDONED}:
            continue
        if entry is not None and entry.status == UNKNOWN:
            report.unknown.append(f"{network}: {post.key}: outcome unknown since {entry.at}")
            continue
        now = clock()
        if entry is not None and entry.status == INTENT:
            if network == "mastodon" and now - parse_timestamp(entry.at) > MASTODON_IDEMPOTENCY:
                save(post.key, Entry(UNKNOWN, format_timestamp(now), entry.token, entry.attempts))
                report.unknown.append(
                    f"{network}: {post.key}: outcome unknown (sent at {entry.at}, no answer "
                    "recorded); not sent again: check the account"
                )
                continue
            try:
                found = account.lookup(entry.token, now=now)
            except PostError as exc:
                report.failures.append(f"{post.key}: {exc}")
                continue
            if found is not None:
                save(post.key, _posted(entry, found, now))
                report.posted.append(f"{network}: {post.key}: {found.url} (found, made earlier)")
                continue
        if entry is not None and entry.status == FAILED and entry.attempts >= MAX_ATTEMPTS:
            save(post.key, Entry(ABANDONED, format_timestamp(now), entry.token, entry.attempts))
            report.failures.append(
                f"{network}: {post.key}: given up after {entry.attempts} refusals"
            )
            continue
        if budget <= 0:
            report.waiting += 1
            continue
        token = entry.token if entry is not None else _token(post, network)
        attempts = entry.attempts if entry is not None else 0
        # an intent sent again keeps the time it was first sent: Mastodon keeps its
        # Idempotency-Key for an hour from then, not from the retry
        sent_at = parse_timestamp(entry.at) if entry is not None and entry.status == INTENT else now
        budget -= 1
        for attempt in range(2):  # once more after a rate limit waited out
            save(post.key, intent(token, now=sent_at, attempts=attempts))
            try:
                sent = account.send(
                    post, token=token, thread=ledger.thread(post.document, network), now=now
                )
            except (RateLimitedError, AccountRefusedError) as exc:
                # nothing was made: the entry goes back to what it was
                ledger = ledger.restored(post.key, network, entry)
                archive.write_state(LEDGER_NAME, ledger.to_record(), final=True)
                wait = getattr(exc, "retry_after", None)
                wait = DEFAULT_RATE_WAIT if wait is None else wait
                if isinstance(exc, RateLimitedError) and attempt == 0:
                    if wait <= options.settings.post.max_wait:
                        logger.info("%s rate-limited: waiting %.0f s", network, wait)
                        sleep(wait)
                        now = clock()
                        continue
                    report.failures.append(f"{exc}; the wait ({wait:.0f} s) is too long")
                else:
                    report.failures.append(str(exc))
                report.waiting += _left(report.posts[index:], ledger, network)
                return ledger
            except PostRefusedError as exc:
                failed = Entry(FAILED, format_timestamp(now), token, attempts + 1, error=str(exc))
                save(post.key, failed)
                report.failures.append(f"{post.key}: {exc}")
            except PostError as exc:
                # outcome unknown: the intent stays, and the next run settles it
                report.failures.append(f"{post.key}: {exc}; outcome unknown, settled next run")
            else:
                save(post.key, _posted(Entry(INTENT, "", token, attempts + 1), sent, now))
                report.posted.append(f"{network}: {post.key}: {sent.url or sent.post_id}")
            break
    return ledger


def _token(post: Post, network: str) -> str:
    """The key of every attempt of a post: Mastodon's Idempotency-Key, Bluesky's record key.
    Both follow from the edit alone (the record key's time is the edit's), so that a run
    whose ledger lacks an earlier run's post (a rerun of an old commit) makes the same key,
    which the server refuses instead of posting twice."""
    if network == "mastodon":
        return idempotency_key(post.key, network)
    return record_key(post.key, at=parse_timestamp(post.observed_at))


def _posted(entry: Entry, sent: Sent, now: datetime) -> Entry:
    return Entry(
        POSTED, format_timestamp(now), entry.token, entry.attempts, sent.post_id, sent.cid, sent.url
    )


def _left(posts: Sequence[Post], ledger: Ledger, network: str) -> int:
    """Posts of ``posts`` still to be made on ``network``."""
    done = {POSTED, ABANDONED, UNKNOWN}
    return sum(
        1 for p in posts if (e := ledger.entry(p.key, network)) is None or e.status not in done
    )
