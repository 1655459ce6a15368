"""Loopback stand-ins for a Mastodon server and a Bluesky PDS, speaking the endpoints
``quietedit post`` uses, with what each request carried kept for the assertions.

Mastodon: ``POST /api/v2/media`` (multipart: file, description) and ``POST
/api/v1/statuses`` (status, in_reply_to_id, media_ids[], the Idempotency-Key header,
which, as on a real server, returns the first status again for a repeated key). Bluesky:
``com.atproto.server.createSession``, ``com.atproto.repo.uploadBlob``,
``com.atproto.repo.createRecord`` (a record key already taken is refused, as a PDS does,
and so is a record the app.bsky.feed.post lexicon does not allow)
and ``com.atproto.repo.getRecord``. Each can be told to answer the next requests with an
error (a 429 with Retry-After, a 500, a 401) before it behaves again.
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

from atproto_client import models
from atproto_client.exceptions import ModelError
from atproto_client.models.utils import get_or_create
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

MASTODON_TOKEN = "mastodon-test-token-5f2c9a71e0"  # noqa: S105  # the fake server's
BLUESKY_PASSWORD = "abcd-efgh-ijkl-mnop"  # noqa: S105  # an app password's form
DID = "did:plc:quietedittestbot0000000a"


def png_image(width: int = 12, height: int = 8) -> bytes:
    """A real PNG (RGB, a gradient) made with zlib: what a share image is to the uploads."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(
        b"\0" + b"".join(bytes((x * 20 % 256, y * 30 % 256, 128)) for x in range(width))
        for y in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


@dataclass
class Failure:
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Exchange:
    """One request as the server saw it: method, path, headers, parsed body."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any

    def line(self) -> str:
        return f"{self.method} {self.path}"


class FakeMastodon:
    def __init__(self, server: HTTPServer) -> None:
        self.url = server.url_for("/").rstrip("/")
        self.statuses: dict[str, dict[str, Any]] = {}
        self.by_key: dict[str, str] = {}
        self.media: dict[str, dict[str, Any]] = {}
        self.requests: list[Exchange] = []
        self.failures: list[Failure] = []  # answered first, one per request
        server.expect_request("/api/v2/media", method="POST").respond_with_handler(self._media)
        server.expect_request("/api/v1/statuses", method="POST").respond_with_handler(self._status)

    def fail_next(
        self, status: int, *, headers: dict[str, str] | None = None, error: str = ""
    ) -> None:
        body = {"error": error or f"test error {status}"}
        self.failures.append(Failure(status, body, headers or {}))

    def _record(self, request: Request, body: Any) -> Response | None:
        self.requests.append(
            Exchange(request.method, request.path, dict(request.headers.items()), body)
        )
        if request.headers.get("Authorization") != f"Bearer {MASTODON_TOKEN}":
            return _json({"error": "The access token is invalid"}, 401)
        if self.failures:
            failure = self.failures.pop(0)
            return _json(failure.body, failure.status, failure.headers)
        return None

    def _media(self, request: Request) -> Response:
        upload = request.files.get("file")
        data = upload.read() if upload is not None else b""
        body = {"description": request.form.get("description"), "bytes": len(data)}
        if (failed := self._record(request, body)) is not None:
            return failed
        if not data.startswith(b"\x89PNG"):
            return _json({"error": "Validation failed: File content type is invalid"}, 422)
        media_id = str(9000 + len(self.media))
        self.media[media_id] = {"id": media_id, "type": "image", "url": None, **body}
        return _json({"id": media_id, "type": "image", "url": None, "preview_url": None,
                      "description": body["description"]})  # fmt: skip

    def _status(self, request: Request) -> Response:
        form = (
            request.get_json(silent=True) if request.is_json else request.form.to_dict(flat=False)
        )
        body = _flat(form or {})
        if (failed := self._record(request, body)) is not None:
            return failed
        key = request.headers.get("Idempotency-Key", "")
        if key and key in self.by_key:
            return _json(self.statuses[self.by_key[key]])
        status_id = str(1100 + len(self.statuses))
        status = {
            "id": status_id,
            "url": f"{self.url}/@edits/{status_id}",
            "uri": f"{self.url}/users/edits/statuses/{status_id}",
            "content": body.get("status"),
            "in_reply_to_id": body.get("in_reply_to_id"),
            "media_ids": body.get("media_ids", []),
            "created_at": "2026-11-28T18:00:00.000Z",
            "visibility": "public",
        }
        self.statuses[status_id] = status
        if key:
            self.by_key[key] = status_id
        return _json(status)


class FakeBluesky:
    def __init__(self, server: HTTPServer) -> None:
        self.url = server.url_for("/").rstrip("/")
        self.records: dict[str, dict[str, Any]] = {}  # rkey → record
        self.blobs: list[int] = []
        self.requests: list[Exchange] = []
        self.failures: list[Failure] = []
        self.sessions = 0
        self.access = ""
        routes = {
            "com.atproto.server.createSession": ("POST", self._session),
            "com.atproto.repo.uploadBlob": ("POST", self._blob),
            "com.atproto.repo.createRecord": ("POST", self._create),
            "com.atproto.repo.getRecord": ("GET", self._get),
        }
        for name, (method, handler) in routes.items():
            server.expect_request(f"/xrpc/{name}", method=method).respond_with_handler(handler)

    def fail_next(
        self, status: int, *, headers: dict[str, str] | None = None, message: str = "test"
    ) -> None:
        error = {429: "RateLimitExceeded", 500: "InternalServerError"}.get(status, "InvalidRequest")
        self.failures.append(Failure(status, {"error": error, "message": message}, headers or {}))

    def _record(self, request: Request, body: Any, *, auth: bool = True) -> Response | None:
        self.requests.append(
            Exchange(request.method, request.path, dict(request.headers.items()), body)
        )
        if auth and (
            not self.access or request.headers.get("Authorization") != f"Bearer {self.access}"
        ):
            return _json({"error": "AuthenticationRequired", "message": "Invalid token"}, 401)
        if self.failures and request.path.endswith(("createRecord", "uploadBlob")):
            failure = self.failures.pop(0)
            return _json(failure.body, failure.status, failure.headers)
        return None

    def _new_access(self) -> str:
        # exp on the real clock: the SDK refreshes a session within 15 minutes of it
        exp = int(time.time()) + 7200
        self.access = _jwt({"sub": DID, "scope": "com.atproto.appPass", "exp": exp})
        return self.access

    def _session(self, request: Request) -> Response:
        body = request.get_json()
        if (failed := self._record(request, body, auth=False)) is not None:
            return failed
        if body.get("password") != BLUESKY_PASSWORD:
            return _json(
                {"error": "AuthenticationRequired", "message": "Invalid identifier or password"},
                401,
            )
        self.sessions += 1
        refresh = _jwt({"sub": DID, "exp": int(time.time()) + 86400})
        return _json({"accessJwt": self._new_access(), "refreshJwt": refresh,
                      "handle": body["identifier"], "did": DID, "active": True})  # fmt: skip

    def _blob(self, request: Request) -> Response:
        data = request.get_data()
        if (
            failed := self._record(request, {"bytes": len(data), "type": request.content_type})
        ) is not None:
            return failed
        self.blobs.append(len(data))
        link = _cid(data)
        return _json({"blob": {"$type": "blob", "ref": {"$link": link}, "mimeType": "image/png",
                               "size": len(data)}})  # fmt: skip

    def _create(self, request: Request) -> Response:
        body = request.get_json()
        if (failed := self._record(request, body)) is not None:
            return failed
        rkey = body.get("rkey")
        if body.get("repo") != DID or body.get("collection") != "app.bsky.feed.post" or not rkey:
            return _json(
                {"error": "InvalidRequest", "message": "bad repo, collection or rkey"}, 400
            )
        if rkey in self.records:
            return _json({"error": "InvalidRequest", "message": "Record already exists"}, 400)
        if (problem := _invalid_post(body["record"])) is not None:
            return _json({"error": "InvalidRecord", "message": problem}, 400)
        cid = _cid(json.dumps(body["record"], sort_keys=True).encode())
        self.records[rkey] = {"uri": f"at://{DID}/app.bsky.feed.post/{rkey}", "cid": cid,
                              "value": body["record"]}  # fmt: skip
        return _json({"uri": self.records[rkey]["uri"], "cid": cid})

    def _get(self, request: Request) -> Response:
        args = request.args.to_dict()
        if (failed := self._record(request, args, auth=False)) is not None:
            return failed
        found = self.records.get(args.get("rkey", ""))
        if found is None:
            return _json({"error": "RecordNotFound", "message": "Could not locate record"}, 400)
        return _json(found)


def _invalid_post(record: Any) -> str | None:
    """What a PDS validating the record (``validate: true``) would refuse: the record
    against the app.bsky.feed.post lexicon (as the atproto SDK's models hold it, string
    formats included), its text within 300 characters, and each facet within the text's
    UTF-8 bytes."""
    try:
        get_or_create(record, models.AppBskyFeedPost.Record, strict=True, strict_string_format=True)
    except ModelError as exc:
        return f"Invalid app.bsky.feed.post record: {str(exc).splitlines()[1]}"
    text = record.get("text", "")
    if len(text) > 300:
        return "Record/text must not be longer than 300 graphemes"
    for facet in record.get("facets", []):
        index = facet["index"]
        if not 0 <= index["byteStart"] < index["byteEnd"] <= len(text.encode()):
            return "Record/facets: byteSlice outside the text"
    return None


def _flat(form: dict[str, Any]) -> dict[str, Any]:
    """A form's single values as values, ``media_ids[]`` as the list ``media_ids``."""
    out: dict[str, Any] = {}
    for key, value in form.items():
        values = value if isinstance(value, list) else [value]
        if key.endswith("[]"):
            out[key[:-2]] = values
        else:
            out[key] = values[0] if len(values) == 1 else values
    return out


def _json(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(body), status=status, headers=headers or {},
                    content_type="application/json; charset=utf-8")  # fmt: skip


def _jwt(claims: dict[str, Any]) -> str:
    def part(value: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'ES256K', 'typ': 'JWT'})}.{part(claims)}.c2lnbmF0dXJl"


def _cid(data: bytes) -> str:
    """A CIDv1 (raw, sha2-256) in base32, as a PDS names blobs and records."""
    digest = bytes((0x01, 0x55, 0x12, 0x20)) + hashlib.sha256(data).digest()
    return "b" + base64.b32encode(digest).decode().lower().rstrip("=")
