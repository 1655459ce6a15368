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
    seconds from the first request to the end of the body. ``rendering`` is set when the
    body is not the server's response but the DOM a browser built from it (``render:`` in
    feeds.yaml): it holds the response and what the browser did.
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
    rendering: Rendering | None = None

    @property
    def original(self) -> RawDocument:
        """The response as the server sent it: for a rendered page the one it was built
        from, for any other page the page itself."""
        return self.rendering.original if self.rendering is not None else self

    def header(self, name: str) -> str | None:
        """The first value of response header ``name`` (any case), or None."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key == wanted), None)


@dataclass(frozen=True, slots=True)
class Rendering:
    """How a page's body came from a browser: ``original`` is the server's response it was
    built from, ``browser`` the browser and its version, ``requests`` the requests the page
    made that were fetched for it (each through the SSRF guard and robots.txt), ``refused``
    those refused (``"robots.txt: <url>"``, ``"guard: <url>"``, ``"budget: <url>"``…, at
    most a few dozen kept), ``skipped`` how many were not made at all (images, fonts, media,
    non-GET requests, other schemes)."""

    original: RawDocument
    browser: str
    requests: int = 0
    refused: tuple[str, ...] = ()
    skipped: int = 0
