"""Posting to Bluesky with the atproto SDK; its exceptions stop here.

The account is ``QUIETEDIT_BLUESKY_HANDLE`` and ``QUIETEDIT_BLUESKY_PASSWORD`` (an app
password, never the account's own) on ``QUIETEDIT_BLUESKY_SERVICE`` (default
``https://bsky.social``). The XRPC calls are ``com.atproto.server.createSession`` (once per
run), ``com.atproto.repo.uploadBlob`` (the image), ``com.atproto.repo.createRecord`` (the
post) and, to settle a post whose outcome is unknown, ``com.atproto.repo.getRecord``.

Each post is an ``app.bsky.feed.post`` record under a record key chosen by quietedit and
kept in the ledger, so a retry can neither make a second record nor miss the first (a
record key the server already holds is looked up and taken as the post: a rerun whose
ledger lacks it). A post holds one embed. With a share image it is the image
(``app.bsky.embed.images``, with the image's alt text and its aspect ratio), and the
edit page's address is a link facet (``app.bsky.richtext.facet#link``) over the post's
last line: a link card's thumbnail has no alt text, so a card would hide the image's
words from a screen reader. Without an image it is a link card
(``app.bsky.embed.external``) built here from the page's address, title and
description: Bluesky servers fetch nothing for a card. A follow-up post of an article
carries both strong references (``root``: the article's first post, ``parent``: its
latest).
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from atproto import Client, models
from atproto_client import exceptions as atx
from atproto_client.client.session import Session, SessionEvent
from atproto_client.models.utils import get_response_model
from atproto_client.request import Request
from atproto_core.exceptions import AtProtocolError

from quietedit.errors import (
    AccountRefusedError,
    PostError,
    PostRefusedError,
    PostUncertainError,
    RateLimitedError,
)
from quietedit.model import format_timestamp
from quietedit.post.compose import Post
from quietedit.post.ledger import Thread
from quietedit.post.sent import Sent, redact

NETWORK: Final = "bluesky"
COLLECTION: Final = "app.bsky.feed.post"
_NOT_FOUND: Final = frozenset({"RecordNotFound"})


class BlueskyAccount:
    """One Bluesky account, logged in on first use; ``send`` posts one :class:`Post`."""

    name = NETWORK

    def __init__(
        self, service: str, handle: str, password: str, *, timeout: float, user_agent: str
    ) -> None:
        self._handle, self._password = handle, password
        self._secrets = (password,)
        request = Request(timeout=timeout)
        request.add_additional_header("User-Agent", user_agent)
        self._client = Client(base_url=service, request=request)
        self._did: str | None = None
        self._client.on_session_change(self._remember)

    def _remember(self, event: SessionEvent, session: Session) -> None:
        self._did = session.did

    def _repo(self, now: datetime) -> str:
        if self._did is None:
            try:
                self._client.login(self._handle, self._password, fetch_bsky_profile=False)
            except AtProtocolError as exc:
                raise self._translate(exc, "login", now=now) from None
            if self._did is None:
                raise PostUncertainError(NETWORK, "login: the server returned no account")
        return self._did

    def lookup(self, token: str, *, now: datetime) -> Sent | None:
        """The post under record key ``token``, or ``None`` when there is none."""
        repo = self._repo(now)
        try:
            found = self._client.com.atproto.repo.get_record(
                {"repo": repo, "collection": COLLECTION, "rkey": token}
            )
        except AtProtocolError as exc:
            if _xrpc_error(exc) in _NOT_FOUND:
                return None
            raise self._translate(exc, "getRecord", now=now) from None
        return Sent(post_id=str(found.uri), cid=str(found.cid or ""), url=_web_url(repo, token))

    def send(self, post: Post, *, token: str, thread: Thread | None, now: datetime) -> Sent:
        """Post ``post`` as record ``token``, a reply in ``thread`` when there is one."""
        repo = self._repo(now)
        try:
            embed: models.AppBskyEmbedImages.Main | models.AppBskyEmbedExternal.Main
            facets = None
            if post.image is not None and post.link_span is not None:
                embed = models.AppBskyEmbedImages.Main(
                    images=[
                        models.AppBskyEmbedImages.Image(
                            alt=post.image.alt,
                            image=self._upload(post.image.png),
                            aspect_ratio=_aspect_ratio(post.image.png),
                        )
                    ]
                )
                start, end = post.link_span
                facets = [
                    models.AppBskyRichtextFacet.Main(
                        index=models.AppBskyRichtextFacet.ByteSlice(byte_start=start, byte_end=end),
                        features=[models.AppBskyRichtextFacet.Link(uri=post.link)],
                    )
                ]
            else:
                embed = models.AppBskyEmbedExternal.Main(
                    external=models.AppBskyEmbedExternal.External(
                        uri=post.link,
                        title=post.card_title,
                        description=post.card_description,
                    )
                )
            reply = None
            if thread is not None:
                reply = models.AppBskyFeedPost.ReplyRef(
                    root=models.ComAtprotoRepoStrongRef.Main(
                        uri=thread.root[0], cid=thread.root[1]
                    ),
                    parent=models.ComAtprotoRepoStrongRef.Main(
                        uri=thread.parent[0], cid=thread.parent[1]
                    ),
                )
            record = models.AppBskyFeedPost.Record(
                text=post.bluesky,
                created_at=format_timestamp(now),
                embed=embed,
                facets=facets,
                reply=reply,
            )
            made = self._client.app.bsky.feed.post.create(repo, record, rkey=token)
        except AtProtocolError as exc:
            failure = self._translate(exc, "createRecord", now=now)
            if isinstance(failure, PostRefusedError):
                # a record under this key already: made by an earlier run whose ledger
                # this run lacks (a rerun of an older commit). It is the post.
                found = self.lookup(token, now=now)
                if found is not None:
                    return found
            raise failure from None
        return Sent(post_id=str(made.uri), cid=str(made.cid), url=_web_url(repo, token))

    def _upload(self, png: bytes) -> models.blob_ref.BlobRef:
        """``com.atproto.repo.uploadBlob`` as the SDK's ``upload_blob`` makes it, but with
        the bytes as httpx's ``content`` (the SDK passes ``data=``, which httpx deprecates)
        and the type said (the SDK sends ``*/*``)."""
        response = self._client.invoke_procedure(
            "com.atproto.repo.uploadBlob",
            content=png,
            headers={"Content-Type": "image/png"},
            output_encoding="application/json",
        )
        made = get_response_model(response, models.ComAtprotoRepoUploadBlob.Response)
        return made.blob

    def _translate(self, exc: AtProtocolError, call: str, *, now: datetime) -> PostError:
        # from None at the callers: the SDK's exception may hold the request
        response = exc.response if isinstance(exc, atx.RequestErrorBase) else None
        status = response.status_code if response is not None else None
        detail = redact(_details(exc), self._secrets)
        if isinstance(exc, atx.RateLimitExceededError) or status == 429:
            wait = exc.retry_after if isinstance(exc, atx.RateLimitExceededError) else None
            if wait is None and isinstance(exc, atx.RateLimitExceededError) and exc.reset_at:
                wait = max((exc.reset_at - now).total_seconds(), 0.0)
            return RateLimitedError(NETWORK, f"{call}: 429 Too Many Requests", retry_after=wait)
        if status in {401, 403} or (call == "login" and status is not None and status < 500):
            return AccountRefusedError(
                NETWORK, f"{call}: the account was refused ({status}): {detail}"
            )
        if status is None or status >= 500 or status in {408, 409}:
            what = f"server error {status}" if status else "no answer (timeout or network)"
            return PostUncertainError(NETWORK, f"{call}: {what}: {detail}")
        return PostRefusedError(NETWORK, f"{call}: refused with {status}: {detail}")


def _aspect_ratio(png: bytes) -> models.AppBskyEmbedDefs.AspectRatio | None:
    """The image's width and height from its PNG header (so a client lays it out before it
    loads); ``None`` when the header does not say."""
    width = int.from_bytes(png[16:20], "big") if png[12:16] == b"IHDR" else 0
    height = int.from_bytes(png[20:24], "big") if width else 0
    if width <= 0 or height <= 0:
        return None
    return models.AppBskyEmbedDefs.AspectRatio(width=width, height=height)


def _xrpc_error(exc: AtProtocolError) -> str | None:
    """The XRPC error name of a failed call ("RecordNotFound"), if the server gave one."""
    response = exc.response if isinstance(exc, atx.RequestErrorBase) else None
    content = response.content if response is not None else None
    return content.error if isinstance(content, models.common.XrpcError) else None


def _details(exc: AtProtocolError) -> str:
    response = exc.response if isinstance(exc, atx.RequestErrorBase) else None
    content = response.content if response is not None else None
    if isinstance(content, models.common.XrpcError):
        return f"{content.error}: {content.message}" if content.message else content.error
    return type(exc).__name__


def _web_url(repo: str, rkey: str) -> str:
    return f"https://bsky.app/profile/{repo}/post/{rkey}"
