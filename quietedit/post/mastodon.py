"""Posting to Mastodon with Mastodon.py; its exceptions stop here.

The account is ``QUIETEDIT_MASTODON_URL`` (the server, e.g. ``https://mastodon.social``)
and ``QUIETEDIT_MASTODON_TOKEN`` (an access token with the ``write:statuses`` and
``write:media`` scopes). Each post is ``POST /api/v2/media`` (when it has an image, with
its alt text as the description) and ``POST /api/v1/statuses`` with an ``Idempotency-Key``
that is the same on every attempt, replying to the article's previous post.

Mastodon.py is told to raise on 429 (``ratelimit_method="throw"``) rather than sleep up to
five minutes, and the server's version (``mastodon_version``) rather than ask it: the run
decides how long it waits. Its 429 error carries no headers, so the session keeps the last
response and the wait is read from ``Retry-After``, else ``X-RateLimit-Reset``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final

import requests
from mastodon import (
    Mastodon,
    MastodonAPIError,
    MastodonError,
    MastodonNetworkError,
    MastodonRatelimitError,
    MastodonServerError,
)

from quietedit.errors import (
    AccountRefusedError,
    PostError,
    PostRefusedError,
    PostUncertainError,
    RateLimitedError,
)
from quietedit.fetch.retry import parse_retry_after
from quietedit.post.compose import Post
from quietedit.post.ledger import Thread
from quietedit.post.sent import Sent, redact

NETWORK: Final = "mastodon"
ASSUMED_VERSION: Final = "4.0.0"
"""Tells Mastodon.py which endpoints to use (``/api/v2/media``) without asking the server:
every maintained Mastodon server is at least this."""


class MastodonAccount:
    """One Mastodon account; ``send`` posts one :class:`Post`."""

    name = NETWORK

    def __init__(self, base_url: str, token: str, *, timeout: float, user_agent: str) -> None:
        self._secrets = (token,)
        self._last: requests.Response | None = None
        session = requests.Session()
        session.hooks["response"].append(self._remember)
        self._client = Mastodon(
            access_token=token,
            api_base_url=base_url,
            ratelimit_method="throw",
            request_timeout=timeout,
            mastodon_version=ASSUMED_VERSION,
            # "none" would leave the version unparsed, and media would go to the old
            # /api/v1/media; "created" only checks that a method exists at that version
            version_check_mode="created",
            session=session,
            user_agent=user_agent,
        )

    def _remember(self, response: requests.Response, *args: Any, **kwargs: Any) -> None:
        self._last = response

    def lookup(self, token: str, *, now: datetime) -> Sent | None:
        """Mastodon cannot be asked for a post by its key: ``None`` (the ledger relies on
        the Idempotency-Key instead)."""
        return None

    def send(self, post: Post, *, token: str, thread: Thread | None, now: datetime) -> Sent:
        """Post ``post`` (replying to ``thread``'s latest post) under ``token``."""
        self._last = None  # an answer to an earlier post must not explain this one's failure
        try:
            media_ids = []
            if post.image is not None:
                media = self._client.media_post(
                    post.image.png,
                    mime_type="image/png",
                    description=post.image.alt,
                    file_name="edit.png",
                )
                media_ids.append(media["id"])
            status = self._client.status_post(
                post.mastodon,
                in_reply_to_id=thread.parent[0] if thread is not None else None,
                media_ids=media_ids or None,
                idempotency_key=token,
            )
        except MastodonError as exc:
            raise self._translate(exc, now=now) from None
        return Sent(post_id=str(status["id"]), cid="", url=str(status.get("url") or ""))

    def _translate(self, exc: MastodonError, *, now: datetime) -> PostError:
        # from None above: the library's exception text may quote the request
        status = self._last.status_code if self._last is not None else None
        if isinstance(exc, MastodonRatelimitError) or status == 429:
            return RateLimitedError(
                NETWORK, "429 Too Many Requests", retry_after=self._retry_after(now)
            )
        if isinstance(exc, MastodonNetworkError):
            return PostUncertainError(NETWORK, "no answer from the server (timeout or network)")
        detail = redact(_api_detail(exc), self._secrets)
        if isinstance(exc, MastodonServerError) or (status is not None and status >= 500):
            return PostUncertainError(NETWORK, f"server error {status}: {detail}")
        if status in {401, 403}:
            return AccountRefusedError(
                NETWORK, f"the access token was refused ({status}): {detail}"
            )
        if isinstance(exc, MastodonAPIError) and status is not None:
            return PostRefusedError(NETWORK, f"refused with {status}: {detail}")
        return PostUncertainError(NETWORK, f"{type(exc).__name__}: {detail}")

    def _retry_after(self, now: datetime) -> float | None:
        if self._last is None:
            return None
        header = self._last.headers.get("Retry-After")
        if header:
            return parse_retry_after(header, now=now)
        reset = self._last.headers.get("X-RateLimit-Reset")
        if reset:
            try:
                moment = datetime.fromisoformat(reset.strip().replace("Z", "+00:00"))
            except ValueError:
                return None
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
            return max((moment - now).total_seconds(), 0.0)
        return None


def _api_detail(exc: MastodonError) -> str:
    """The server's own words: Mastodon.py's API errors carry (message, status, reason,
    error text)."""
    said = [str(a) for a in exc.args[2:4] if a]  # (reason, error): the error is the better
    return said[-1] if said else type(exc).__name__
