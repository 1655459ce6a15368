"""Every setting of ``feeds.yaml``, defined once: key, type, default, bounds, reason (pure).

Each section of ``settings:`` is a frozen dataclass; each field is one setting, and its
``field(metadata=...)`` (written with :func:`~quietedit.config.specs.setting`) holds the
default as written in YAML, its kind, bounds, what it means and why the default is what it
is. The typed defaults, the bounds checked on construction, ``settings_reference()`` (the
rows of the reference and of ``quietedit config``) and the parser's rules all come from those
fields, so a default has no second copy: the fetcher's ``FetchPolicy`` *is*
``FetchSettings`` and the re-check policy *is* ``RecheckSettings``. ``Settings()`` is every
default.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from quietedit.analysis.findings import KINDS
from quietedit.config.specs import SettingSpec, check_bounds, section_specs, setting
from quietedit.version import __version__


@dataclass(frozen=True, slots=True)
class RecheckSettings:
    """``settings.recheck``: when an article is fetched again; seconds. The re-check policy.

    The interval is ``age_factor`` times the article's age, kept between ``min_interval`` and
    ``max_interval``; an observed edit restarts the curve. An article retires after
    ``observation_window`` times (1 + its observed changes) without a change, the multiplier
    capped at ``max_window_factor``.
    """

    age_factor: float = setting(
        "number",
        "0.25",
        "Re-check an article after this fraction of its age.",
        why="edits thin out roughly like 1/age, so a quarter of the age catches most of them "
        "with few checks",
        above=0,
        maximum=1,
    )
    min_interval: float = setting(
        "duration",
        "10m",
        "Floor of the re-check interval.",
        why="a fresh story is edited within minutes, but not every minute",
        above=0,
    )
    max_interval: float = setting(
        "duration",
        "12h",
        "Cap of the re-check interval.",
        why="an old article is still looked at twice a day until it retires",
        above=0,
        also="at least recheck.min_interval",
    )
    observation_window: float = setting(
        "duration",
        "7d",
        "Retire an article after this long without a change, times (1 + its observed changes).",
        why="few articles change after their first week",
        above=0,
    )
    max_window_factor: float = setting(
        "number",
        "4",
        "Cap on that (1 + observed changes) multiplier.",
        why="an often-edited article is watched for up to four weeks, not for ever",
        minimum=1,
    )
    distrust_after_claims: int = setting(
        "integer",
        "20",
        "A feed's `updated` claims stop forcing re-checks after this many in a row "
        "produced no revision, until one does.",
        why="some feeds bump `updated` on every build; twenty misses in a row is a habit, "
        "not chance",
        minimum=1,
    )
    probe_interval: float = setting(
        "duration",
        "1d",
        "A distrusted feed still has one `updated` claim honoured per this interval, "
        "so it can earn trust back.",
        why="one extra fetch a day per distrusted feed is cheap",
        above=0,
    )
    failure_max_interval: float = setting(
        "duration",
        "7d",
        "Cap of the exponential back-off of an article whose fetches fail; it is retried "
        "this rarely, never abandoned.",
        why="a page that is down for days often comes back, edited",
        above=0,
    )

    def __post_init__(self) -> None:
        check_bounds(self, "recheck.")


@dataclass(frozen=True, slots=True)
class RunSettings:
    """``settings.run``: the budget of one ingest run; the most overdue articles go first and
    the rest carry over to the next run. ``max_duration`` in seconds."""

    max_articles: int = setting(
        "integer",
        "100",
        "Article fetches per ingest run; the rest carry over, most overdue first.",
        why="an hourly run of about 100 pages at 1 request/s per host ends in minutes",
        minimum=0,
    )
    max_duration: float = setting(
        "duration",
        "25m",
        "Wall-time budget of one ingest run.",
        why="fits a 30-minute schedule",
        above=0,
    )
    workers: int = setting(
        "integer",
        "0",
        "Processes that read (extract) article pages while the run fetches: 1 reads them "
        "in the ingest process, N starts N workers, 0 one per CPU core for runs of at "
        "least 64 checks (smaller ones read in-process).",
        why="automatic: worker start-up pays off only on larger runs",
        minimum=0,
        maximum=64,
    )

    def __post_init__(self) -> None:
        check_bounds(self, "run.")


@dataclass(frozen=True, slots=True)
class PolitenessSettings:
    """``settings.politeness``: limits per host, for feeds and articles alike; seconds."""

    max_requests_per_host_per_hour: int = setting(
        "integer",
        "120",
        "Exact ceiling on requests to one host within any hour.",
        why="two a minute on average: far below what one reader's browser sends",
        minimum=1,
    )
    min_host_interval: float = setting(
        "duration",
        "1s",
        "Spacing between two requests to the same host.",
        why="one request a second per host is the usual crawler courtesy",
        minimum=0,
    )
    max_concurrency: int = setting(
        "integer",
        "8",
        "Hosts fetched in parallel.",
        why="enough to hide network latency; a run is limited by spacing, not by parallelism",
        minimum=1,
        maximum=64,
    )

    def __post_init__(self) -> None:
        check_bounds(self, "politeness.")


@dataclass(frozen=True, slots=True)
class FetchSettings:
    """``settings.fetch``: how one fetch behaves, the fetcher's ``FetchPolicy``; seconds and
    bytes. ``timeout`` 0 disables the attempt timeout."""

    timeout: float = setting(
        "duration",
        "15s",
        "Timeout of one attempt; 0 disables it.",
        why="a news page that has not arrived in 15 s is better retried",
        minimum=0,
    )
    deadline: float = setting(
        "duration",
        "60s",
        "Total time for one fetch, retries and waits included.",
        why="room for three attempts and their waits; one slow host cannot hold a run",
        above=0,
        also="at least fetch.timeout when that is above 0",
    )
    retries: int = setting(
        "integer",
        "2",
        "Extra attempts after the first.",
        why="most transient failures clear on the first or second retry",
        minimum=0,
        maximum=10,
    )
    backoff: float = setting(
        "duration",
        "0.5s",
        "Base of the full-jitter exponential backoff between attempts.",
        why="a short first wait; doubling reaches seconds by the third attempt",
        minimum=0,
    )
    max_wait: float = setting(
        "duration",
        "30s",
        "Cap on any one wait, from Retry-After or from backoff.",
        why="a hostile or huge Retry-After cannot stall a run",
        minimum=0,
    )
    max_bytes: int = setting(
        "size",
        "10MiB",
        "Cap on a response body, counted after decompression.",
        why="the biggest real news pages and feeds are about 1 MiB; a bomb stops at ten",
        minimum=1024,
    )

    def __post_init__(self) -> None:
        check_bounds(self, "fetch.")


@dataclass(frozen=True, slots=True)
class PathSettings:
    """``settings.paths``: folders, resolved against the config file's folder when loaded."""

    # A Path default is as immutable as a str one (ruff cannot know that of ``setting``).

    data: Path = setting(  # noqa: RUF009
        "path", "data", "The archive folder (committed to git).", why="beside feeds.yaml"
    )
    evidence: Path = setting(  # noqa: RUF009
        "path",
        "evidence",
        "The raw pages behind the revisions, as WARC files (kept out of git).",
        why="beside data/, so one folder holds the archive and another its evidence",
    )
    site: Path = setting(  # noqa: RUF009
        "path", "site", "Where `quietedit build` writes the site.", why="beside feeds.yaml"
    )
    templates: Path = setting(  # noqa: RUF009
        "path",
        "templates",
        "Templates, static assets and Markdown pages.",
        why="the shipped templates' folder",
    )


@dataclass(frozen=True, slots=True)
class SiteSettings:
    """``settings.site``: the published site; bytes."""

    max_bytes: int = setting(
        "size",
        "900MB",
        "Size of the published site above which its oldest months fold into one archive "
        "page each (a list of the month's edited articles, linking to their data); the "
        "archive keeps everything.",
        why="GitHub Pages publishes at most 1 GB; 900 MB leaves room for the estimate's error "
        "and a month's growth",
        minimum=1_000_000,
    )
    reextracted: bool = setting(
        "bool",
        "false",
        "Show each revision's text as the current extractor re-read it from the stored page "
        "(`quietedit reextract`) instead of as first observed; the pages say which.",
        why="the text as first observed is what the archive attests; a re-reading is derived",
    )
    share_days: int = setting(
        "integer",
        "7",
        "Edits observed within this many days of the archive's newest observation get a "
        "share image (a 1200x630 PNG, the `og:image` of their link cards); older edits' "
        "images are removed, and their pages name no image. 0: no share images.",
        why="a link is shared in its first days; an image per edit for a whole year "
        "(about 13 KB each) would take most of the site's size budget; and an edited article "
        "is observed 14 days after its last change (observation_window), so an image "
        "dropped after 7 days belongs to an article the hourly checkout still holds",
        minimum=0,
    )

    def __post_init__(self) -> None:
        check_bounds(self, "site.")


SIGNIFICANCES: Final = ("cosmetic", "minor", "moderate", "substantive")
"""The labels of :class:`quietedit.analysis.findings.Significance`, lowest first."""
VERDICTS: Final = ("silent", "technical", "proper", "unknown")
"""Whether and how the publisher said so: no signal seen; a technical notice (only a date
moved); a proper one (a correction, update or editor's note); nothing checked."""


@dataclass(frozen=True, slots=True)
class PostSettings:
    """``settings.post``: which edits ``quietedit post`` posts to Mastodon and Bluesky.

    An edit is posted when it has at least one of ``kinds``, its significance is one of
    ``significance`` and its verdict one of ``verdicts``.
    """

    kinds: tuple[str, ...] = setting(
        "words",
        "headline, lede, facts, quote, removed, correction",
        "The kinds of change worth a post: an edit with at least one of them is posted.",
        why="what readers of edit trackers ask to hear about; typos, style and moved "
        "paragraphs would bury them",
        choices=KINDS,
    )
    significance: tuple[str, ...] = setting(
        "words",
        "moderate, substantive",
        "The significances worth a post.",
        why="a minor edit is rarely worth a reader's attention on a timeline",
        choices=SIGNIFICANCES,
    )
    verdicts: tuple[str, ...] = setting(
        "words",
        "silent",
        "The verdicts worth a post: silent (the publisher showed no sign of the edit), "
        "technical (only a date or an “Updated” line moved), proper (a correction, update "
        "or editor's note) or unknown.",
        why="an edit nobody was told about is what the project exists to show",
        choices=VERDICTS,
    )
    max_age: float = setting(
        "duration",
        "2d",
        "Edits seen longer ago than this are never posted (a first run over an old archive "
        "does not flood the accounts).",
        why="news on a timeline is a day or two old at most",
        maximum=30 * 86_400,  # the posted-ledger keeps an entry 30 days (post/ledger.py)
    )
    max_posts: int = setting(
        "integer",
        "10",
        "Posts per network per run at most; the rest wait for the next run, oldest first.",
        why="an hourly run posting ten edits stays far below Mastodon's 300 posts in 3 "
        "hours and Bluesky's 1,666 records an hour",
        minimum=0,
    )
    max_wait: float = setting(
        "duration",
        "2m",
        "The longest Retry-After of a rate-limited network the run waits for; a longer one "
        "leaves that network's posts for the next run.",
        why="an hourly job must not sleep through its own schedule",
        maximum=3_600,
    )
    timeout: float = setting(
        "duration",
        "30s",
        "Time limit of one request to Mastodon or Bluesky.",
        why="an upload of an image takes seconds; a server that hangs must not hang the run",
        above=0,
    )

    def __post_init__(self) -> None:
        check_bounds(self, "post.")


@dataclass(frozen=True, slots=True)
class ArchiveOrgSettings:
    """``settings.archive_org``: a capture of each new revision by the Internet Archive's
    Save Page Now 2 API (``quietedit capture``); keys from the environment."""

    enabled: bool = setting(
        "bool",
        "false",
        "Ask the Internet Archive to capture the page of every new revision and link the "
        "copy from the edit's page.",
        why="a public copy needs the operator's Internet Archive account (its keys)",
    )
    base_url: str = setting(
        "text",
        "https://web.archive.org",
        "The Save Page Now 2 service: captures are asked at <base_url>/save, their jobs "
        "polled at <base_url>/save/status/<job>, copies linked at <base_url>/web/<time>/<url>.",
        why="the Internet Archive's own; another only for a mirror or a test server",
    )
    max_captures: int = setting(
        "integer",
        "20",
        "Captures asked per run at most; the rest wait, oldest first, for the next run.",
        why="an account may have a dozen captures under way at once and a few hundred a day",
        minimum=0,
    )
    timeout: float = setting(
        "duration",
        "20s",
        "Time limit of one request to the service.",
        why="the service answers at once with a job to poll later; a slow answer is a "
        "busy service, to be left for the next run",
        above=0,
    )
    backoff: float = setting(
        "duration",
        "15m",
        "After a failed request, no request before this long; doubled after each further "
        "failure, up to six hours; longer when the service asks for longer (its "
        "`Retry-After`, up to a day).",
        why="a refused or overloaded service is asked again later, not hammered each run",
        minimum=0,
    )

    def __post_init__(self) -> None:
        check_bounds(self, "archive_org.")


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting; ``Settings()`` is every default (paths relative to the current folder)."""

    allow_private_addresses: bool = setting(
        "bool",
        "false",
        "Lift the SSRF guard so loopback and private networks can be fetched "
        "(tests, the demo, newsroom intranets); logged loudly.",
        why="a feed from the internet must never reach the runner's own network",
    )
    user_agent: str = setting(
        "text",
        f"quietedit/{__version__} (+https://github.com/quietedit/quietedit)",
        "The User-Agent of every request; say who you are so publishers can reach you.",
        why="names the tool and where to read about it",
    )
    watch: tuple[str, ...] = setting(
        "terms",
        "[]",
        "Terms watched in every source's articles: each gets a feed, `feeds/watch/<slug>.xml` "
        "(and one per source), of the edits that added or removed it, matched as whole words "
        "regardless of case; a term ending in `*` matches words that begin with it. A feed's "
        "own `watch:` in feeds.yaml adds terms for that feed alone.",
        why="none: which names and words matter is the reader's choice",
    )
    recheck: RecheckSettings = field(default_factory=RecheckSettings)
    run: RunSettings = field(default_factory=RunSettings)
    politeness: PolitenessSettings = field(default_factory=PolitenessSettings)
    fetch: FetchSettings = field(default_factory=FetchSettings)
    paths: PathSettings = field(default_factory=PathSettings)
    site: SiteSettings = field(default_factory=SiteSettings)
    post: PostSettings = field(default_factory=PostSettings)
    archive_org: ArchiveOrgSettings = field(default_factory=ArchiveOrgSettings)


def _sections() -> tuple[tuple[str, type], ...]:
    """The section fields of ``Settings`` and their dataclasses, in file order."""
    return tuple(
        (item.name, item.default_factory)  # type: ignore[misc]
        for item in dataclasses.fields(Settings)
        if item.default_factory is not dataclasses.MISSING
    )


SECTIONS: Final = _sections()

SETTINGS: Final[tuple[SettingSpec, ...]] = (
    *(spec for _, spec in section_specs(Settings, "")),
    *(spec for name, section in SECTIONS for _, spec in section_specs(section, f"{name}.")),
)


def settings_reference() -> tuple[SettingSpec, ...]:
    """Every setting in file order, with its variable, default, kind, rule, meaning and reason."""
    return SETTINGS


def settings_from_values(values: dict[str, Any]) -> Settings:
    """The ``Settings`` of ``values``, by key path ("fetch.timeout"); missing keys default."""
    top = {key: value for key, value in values.items() if "." not in key}
    sections = {
        name: section(
            **{
                key.partition(".")[2]: value
                for key, value in values.items()
                if key.partition(".")[0] == name and "." in key
            }
        )
        for name, section in SECTIONS
    }
    return Settings(**top, **sections)


def value_at(settings: Settings, key: str) -> Any:
    """The value of the setting at ``key`` ("fetch.timeout")."""
    owner: Any = settings
    for part in key.split("."):
        owner = getattr(owner, part)
    return owner
