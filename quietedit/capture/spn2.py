"""The Internet Archive's Save Page Now 2 API, over httpx; its errors stop here.

``POST <base>/save`` (form field ``url``) with ``Authorization: LOW <access>:<secret>`` and
``Accept: application/json`` answers ``{"url", "job_id"}``; ``GET
<base>/save/status/<job_id>`` answers ``{"status": "pending" | "success" | "error", ...}``,
with ``timestamp`` and ``original_url`` on success. The keys are an account's
(https://archive.org/account/s3.php) and appear in no message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import httpx

from quietedit.errors import QuieteditError

ACCESS_VARIABLE: Final = "QUIETEDIT_ARCHIVE_ORG_ACCESS_KEY"
SECRET_VARIABLE: Final = "QUIETEDIT_ARCHIVE_ORG_SECRET_KEY"  # noqa: S105  # a name


class CaptureError(QuieteditError):
    """A request to the service failed (refused, rate-limited, unreachable): the run backs
    off. The message names the status and the service's own words, never a key;
    ``retry_after`` is the answer's Retry-After header ("" when it had none)."""

    def __init__(self, message: str, *, retry_after: str = "") -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class JobStatus:
    """A capture job's state: ``pending``, ``success`` (with ``timestamp`` and
    ``original_url``) or ``error`` (with ``message``)."""

    status: str
    timestamp: str = ""
    original_url: str = ""
    message: str = ""


class SavePageNow:
    """A client of one account; use as a context manager."""

    def __init__(
        self, base_url: str, access: str, secret: str, *, timeout: float, user_agent: str
    ) -> None:
        self._secrets = (access, secret)
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"),
            timeout=timeout,
            headers={
                "Authorization": f"LOW {access}:{secret}",
                "Accept": "application/json",
                "User-Agent": user_agent,
            },
            follow_redirects=False,
        )

    def __enter__(self) -> SavePageNow:
        return self

    def __exit__(self, *exc: object) -> None:
        self._client.close()

    def request(self, url: str) -> str:
        """Ask for a capture of ``url``; its job id."""
        body = self._call("POST", "/save", data={"url": url})
        job = body.get("job_id")
        if not isinstance(job, str) or not job:
            raise CaptureError(f"save {url}: no job id in the answer: {self._words(body)}")
        return job

    def status(self, job: str) -> JobStatus:
        body = self._call("GET", f"/save/status/{job}")
        status = body.get("status")
        if status == "success":
            timestamp, original = body.get("timestamp"), body.get("original_url")
            if not isinstance(timestamp, str) or not timestamp.isdigit():
                raise CaptureError(f"job {job}: success without a timestamp")
            return JobStatus("success", timestamp, original if isinstance(original, str) else "")
        if status == "error":
            return JobStatus("error", message=self._words(body))
        if status == "pending":
            return JobStatus("pending")
        raise CaptureError(f"job {job}: unknown status {status!r}")

    def _call(self, method: str, path: str, **kwargs: object) -> dict[str, object]:
        try:
            response = self._client.request(method, path, **kwargs)  # type: ignore[arg-type]
        except httpx.HTTPError as exc:
            raise CaptureError(f"{method} {path}: {type(exc).__name__}") from None
        try:
            body = response.json()
        except ValueError:
            body = {}
        if not isinstance(body, dict):
            body = {}
        if response.status_code != 200:
            retry = response.headers.get("Retry-After")
            tail = f", Retry-After {retry}" if retry else ""
            raise CaptureError(
                f"{method} {path}: HTTP {response.status_code}{tail}: {self._words(body)}",
                retry_after=retry or "",
            )
        if body.get("status") == "error" and method == "POST":
            raise CaptureError(f"{method} {path}: {self._words(body)}")
        return body

    def _words(self, body: dict[str, object]) -> str:
        text = (
            " ".join(
                str(body[k]) for k in ("status_ext", "message") if isinstance(body.get(k), str)
            )
            or "no explanation"
        )
        for secret in self._secrets:
            text = text.replace(secret, "***") if secret else text
        return text[:300]
