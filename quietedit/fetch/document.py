"""What a fetch returns (pure)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RawDocument:
    """A fetched document, bytes as received (decompressed, not decoded to text).

    ``url`` is the final URL after redirects, ``status`` its HTTP status (304 when the body
    came from the cache, with ``not_modified`` True), ``content_type`` the Content-Type as
    sent, ``etag`` and ``last_modified`` the validators. ``requested_url`` is the URL asked
    for, ``redirects`` every URL that redirected, in order, ``headers`` the final response's
    headers (lowercased names), ``attempts`` how many attempts it took and ``elapsed`` the
    seconds from the first request to the end of the body.
    """

    url: str
    status: int
    content_type: str | None
    body: bytes
    etag: str | None
    last_modified: str | None
    not_modified: bool = False
    requested_url: str = ""
    redirects: tuple[str, ...] = ()
    headers: tuple[tuple[str, str], ...] = ()
    attempts: int = 1
    elapsed: float = 0.0

    def header(self, name: str) -> str | None:
        """The first value of response header ``name`` (any case), or None."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key == wanted), None)
