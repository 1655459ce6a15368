"""The error tree: every error quietedit raises on purpose is a ``QuieteditError`` (pure).

::

    QuieteditError
    ├── ConfigError              feeds.yaml or a QUIETEDIT_* variable is wrong (.problems: all)
    ├── ArchiveError             a data/ file is unreadable, unsafe or inconsistent (.path)
    │   ├── UnsafePathError      an id or path would leave the archive or collide with another
    │   ├── RevisionExistsError  the create-only rule refused to overwrite a revision
    │   ├── UnchangedContentError  a revision would repeat its predecessor's content hash
    │   └── ArchiveLockedError   another ingest run holds the archive
    ├── InvalidURLError          not an absolute http(s) URL with a valid host (.url; a ValueError)
    ├── FeedParseError           a feed or sitemap body is hopeless (.url, .reason)
    ├── HostProfileError         a stored host profile is not one this version reads (a ValueError)
    ├── InvalidShardError        a --shard value is not K/N with 1 <= K <= N (.value; a ValueError)
    ├── WorkerCrashedError       worker processes kept dying while reading one page (.url)
    ├── PageReadTimeoutError     a worker spent too long reading one page (.url, .seconds)
    ├── WorkerDiedError          a worker process died in a batch (.index: first item left)
    ├── FetchError               a fetch failed (.url: the hop that failed, .transient)
    │   ├── UnsupportedURLError  not an http(s) URL with a host, or a redirect to one
    │   ├── InvalidHeaderError   a caller header is malformed or one quietedit sets itself
    │   ├── BlockedURLError      the SSRF guard or a validate hook refused the URL or address
    │   ├── RobotsDisallowedError  robots.txt disallows the article for our user agent
    │   ├── TooManyRedirectsError  more than 5 redirect hops
    │   ├── HTTPStatusError      an unusable status (.status; 429 and 5xx are transient)
    │   ├── ResponseTooLargeError  the decompressed body passed the size cap (.limit)
    │   ├── ContentDecodingError  a gzip, deflate or brotli body is corrupt
    │   ├── FetchTimeoutError    an attempt timed out, or the fetch's deadline passed
    │   ├── NetworkError         DNS, connection or protocol failure (transient)
    │   ├── HostDeferredError    politeness: the host's budget or pause defers the request
    │   └── RenderError          a page could not be rendered in the browser (render: chromium)
    ├── AuditError               the git check of ``quietedit verify --since`` could not run
    ├── RevisionNotFoundError    a document or revision number the archive does not hold
    ├── ExportError              an export could not be written (.path)
    ├── PostError                a post to Mastodon or Bluesky failed (.network)
    │   ├── PostRefusedError     the server refused it (4xx): nothing was posted
    │   ├── AccountRefusedError  the server refused the account's credentials (401, 403)
    │   ├── RateLimitedError     429 Too Many Requests (.retry_after: seconds, or None)
    │   └── PostUncertainError   no answer, or 5xx: it may have been posted
    └── PublishError             the site could not be built or served
        ├── UnsafeOutputPathError  an output path would leave the site folder (.path)
        ├── DuplicateOutputError   two pages of one build claim the same output path
        └── TemplateError          a template is missing or broken (.template)

Messages name the bad value and, where there is one, the way out. Third-party exceptions
are translated into these at the module that uses the library, chained with ``from``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for annotations only: importing pathlib slows every command's start-up
    from pathlib import Path


class QuieteditError(Exception):
    """Base of every error quietedit raises on purpose."""


class ConfigError(QuieteditError):
    """The configuration is invalid; ``problems`` lists every problem found, one line each."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems: tuple[str, ...] = tuple(problems)
        count = len(self.problems)
        head = f"{count} configuration problem{'s' if count != 1 else ''}"
        super().__init__(head + ":\n" + "\n".join(f"  {p}" for p in self.problems))


class ArchiveError(QuieteditError):
    """A file of the archive is unreadable, unsafe or inconsistent."""

    def __init__(self, path: Path | str, message: str) -> None:
        self.path = str(path)
        self.message = message
        super().__init__(f"{self.path}: {message}")


class UnsafePathError(ArchiveError):
    """An id or relative path would escape the archive folder or is not a safe name."""


class RevisionExistsError(ArchiveError):
    """A revision file already exists: revisions are created once and never rewritten."""


class UnchangedContentError(ArchiveError):
    """The new revision's content hash equals its predecessor's: nothing changed."""


class ArchiveLockedError(ArchiveError):
    """Another ingest run holds the archive's lock; two runs never write at once."""


class AuditError(QuieteditError):
    """The git audit of the archive could not be carried out (no repository, unknown revision)."""


class RevisionNotFoundError(QuieteditError):
    """A document id or revision number asked for (``quietedit diff``) is not in the archive."""


class PostError(QuieteditError):
    """A post to a social network failed; ``network`` names it ("mastodon", "bluesky").
    The message never holds a credential."""

    def __init__(self, network: str, message: str) -> None:
        self.network = network
        super().__init__(f"{network}: {message}")


class PostRefusedError(PostError):
    """The server refused the request (a 4xx other than 429): nothing was posted."""


class AccountRefusedError(PostError):
    """The server refused the credentials (401, 403, a failed login): nothing was posted,
    and no other post of that account will be this run."""


class RateLimitedError(PostError):
    """The server answered 429; ``retry_after`` is its wait in seconds, if it said one."""

    def __init__(self, network: str, message: str, *, retry_after: float | None) -> None:
        self.retry_after = retry_after
        super().__init__(network, message)


class PostUncertainError(PostError):
    """No answer (a timeout, a lost connection) or a 5xx: the post may have been made."""


class ExportError(QuieteditError):
    """``quietedit export`` could not write its output; ``path`` names it."""

    def __init__(self, path: Path | str, message: str) -> None:
        self.path = str(path)
        super().__init__(f"{self.path}: {message}")


class PublishError(QuieteditError):
    """The site could not be built or served."""


class UnsafeOutputPathError(PublishError):
    """An output path would leave the site folder or is not a plain relative path."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        super().__init__(f"output path {path!r}: {message}")


class DuplicateOutputError(PublishError):
    """Two pages of one build would write the same file; the second is refused."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(
            f"output path {path!r} is written twice in one build; "
            "two pages claim the same URL (a slug or id collision)"
        )


class TemplateError(PublishError):
    """A site template is missing or fails to render; ``template`` names it."""

    def __init__(self, template: str, message: str) -> None:
        self.template = template
        super().__init__(f"template {template}: {message}")


class InvalidURLError(QuieteditError, ValueError):
    """A URL cannot name an article: not absolute http(s), no valid host, or too long.

    ``url`` is the URL as given; the message says what is wrong with it.
    """

    def __init__(self, url: str, problem: str) -> None:
        self.url = url
        shown = url if len(url) <= 200 else url[:200] + "…"
        super().__init__(f"URL {shown!r} {problem}")


class FeedParseError(QuieteditError):
    """A feed or sitemap body could not be read at all (recoverable flaws are data instead).

    ``url`` is the feed's (or sitemap's) address, ``reason`` says what is wrong with the body.
    """

    def __init__(self, url: str, reason: str, *, source: str = "feed") -> None:
        self.url = url
        self.reason = reason
        super().__init__(f"{source} {url}: {reason}")


class HostProfileError(QuieteditError, ValueError):
    """A stored host profile (learnt furniture of one host) cannot be read back."""


class InvalidShardError(QuieteditError, ValueError):
    """A ``--shard`` value is not ``K/N`` with ``1 <= K <= N``; ``value`` is it as given."""

    def __init__(self, value: str, problem: str) -> None:
        self.value = value
        shown = value if len(value) <= 40 else value[:40] + "…"
        super().__init__(f"shard {shown!r}: {problem}")


class WorkerCrashedError(QuieteditError):
    """Worker processes died ``attempts`` times while reading the page of ``url``."""

    def __init__(self, url: str, *, attempts: int) -> None:
        self.url = url
        self.attempts = attempts
        super().__init__(
            f"{url}: a worker process died reading this page {attempts} times (a crash in a "
            "parser or the memory limit); the check is recorded as failed and retried later"
        )


class PageReadTimeoutError(QuieteditError):
    """A worker process spent more than ``seconds`` reading the page of ``url``."""

    def __init__(self, url: str, *, seconds: float) -> None:
        self.url = url
        self.seconds = seconds
        super().__init__(
            f"{url}: reading this page took more than {seconds:g} s (a pathological page); "
            "its worker was stopped, the check is recorded as failed and retried later"
        )


class WorkerDiedError(QuieteditError):
    """A worker process died (a signal, the out-of-memory killer) in a batch of work;
    ``index`` is the first item of the batch left without a result."""

    def __init__(self, index: int, *, reason: str = "") -> None:
        self.index = index
        detail = f" ({reason})" if reason else ""
        super().__init__(
            f"a worker process died at item {index} of the batch or after it{detail}; "
            "run the batch again, with fewer processes to find the item"
        )


class FetchError(QuieteditError):
    """A fetch failed. ``url`` is the URL that failed (a redirect hop's own, when a hop failed).

    ``transient`` says whether the same fetch could succeed later (a timeout, a 503): a batch
    records the failure and carries the item over instead of giving it up.
    """

    def __init__(self, url: str, message: str, *, transient: bool = False) -> None:
        self.url = url
        self.message = message
        self.transient = transient
        super().__init__(f"{url}: {message}")


class UnsupportedURLError(FetchError):
    """The URL is malformed, not http(s), has no host, or carries ``user:password@``."""


class InvalidHeaderError(FetchError):
    """A caller header has a malformed name or value, or is one quietedit sets itself."""


class BlockedURLError(FetchError):
    """The SSRF guard (or a caller's ``validate`` hook) refused a URL or the address it names."""


class RobotsDisallowedError(FetchError):
    """robots.txt of the URL's origin disallows it for quietedit's user agent."""


class TooManyRedirectsError(FetchError):
    """The redirect chain went past the hop limit."""


class HTTPStatusError(FetchError):
    """The server answered with a status that carries no usable document.

    ``status`` is the HTTP status; 429 and 5xx are transient (and retried), other 4xx are not.
    ``retry_after`` is the server's Retry-After in seconds, uncapped, when it sent one.
    """

    def __init__(
        self, url: str, status: int, message: str, *, retry_after: float | None = None
    ) -> None:
        self.status = status
        self.retry_after = retry_after
        super().__init__(url, message, transient=status == 429 or status >= 500)


class ResponseTooLargeError(FetchError):
    """The body, counted after decompression, went past ``limit`` bytes; reading stopped there."""

    def __init__(self, url: str, limit: int, message: str) -> None:
        self.limit = limit
        super().__init__(url, message)


class ContentDecodingError(FetchError):
    """The body's Content-Encoding (gzip, deflate, br) could not be decoded."""


class FetchTimeoutError(FetchError):
    """An attempt produced no complete response in time, or the whole fetch passed its deadline.

    ``deadline`` is True for the latter, which ends the fetch; an attempt's timeout is retried.
    """

    def __init__(self, url: str, message: str, *, deadline: bool = False) -> None:
        self.deadline = deadline
        super().__init__(url, message, transient=True)


class NetworkError(FetchError):
    """DNS, connecting, or the HTTP exchange itself failed; a later attempt may succeed."""

    def __init__(self, url: str, message: str) -> None:
        super().__init__(url, message, transient=True)


class HostDeferredError(FetchError):
    """Politeness defers the request: the host's hourly budget is spent, or its wait is too long.

    ``retry_at`` is the earliest time (seconds since the epoch) the host may be asked again.
    """

    def __init__(self, url: str, message: str, *, retry_at: float) -> None:
        self.retry_at = retry_at
        super().__init__(url, message, transient=True)


class RenderError(FetchError):
    """A page of a ``render: chromium`` feed could not be rendered: no Playwright or Chromium,
    the browser failed or took too long, or the rendered page passed the size cap."""
