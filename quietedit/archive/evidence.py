"""The evidence: the raw response behind each revision, as WARC/1.1 records outside ``data/``.

One WARC file per run, ``<YYYY>-<MM>/quietedit-<YYYYMMDD>T<HHMMSS>Z.warc.gz`` from the run's
start (``-shard-<k>-of-<n>`` before ``.warc.gz`` for a shard), below
``settings.paths.evidence``. The file opens with a ``warcinfo`` record; then each new
revision's response is one ``response`` record (a migrated schema-1 page, whose headers
were never kept, a ``resource`` record; a page rendered in a browser, its response then a
``conversion`` record of the rendered DOM that refers to it, and the revision names that),
each compressed as its own gzip member so standard tools (pywb, ReplayWeb.page,
``warcio index``) read them. A revision names its record with an
:class:`~quietedit.revisions.EvidenceRef`: file, record id, payload SHA-256.

A record's bytes are a function of its input alone: record ids are UUID5s of what the
record holds, ``WARC-Date`` is the observation's time, digests are SHA-256 and gzip writes
no timestamp. Records follow each other in the order the run's checks finished.

Crash safety: a record is written, flushed and fsynced before ``append_*`` returns, so
before the revision naming it; a process killed mid-append leaves part of a gzip member at
the end, which the next opening of the file cuts off (nothing refers past the last
complete record), and which :func:`check_evidence` does not count as damage.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Final, Self

from warcio.statusandheaders import StatusAndHeaders

from quietedit.archive.checks import Problem
from quietedit.archive.records import EVIDENCE_FILE_PATTERN, HASH_PATTERN, digest
from quietedit.archive.warc import (
    WarcScan,
    gzip_record,
    http_headers,
    scan_warc,
    warc_date,
    whole_member_after,
)
from quietedit.decide.shard import Shard
from quietedit.errors import ArchiveError
from quietedit.revisions import EvidenceRef
from quietedit.version import __version__

logger = logging.getLogger(__name__)

_STAMP_FORMAT: Final = "%Y%m%dT%H%M%SZ"
_RECORD_NAMESPACE: Final = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/quietedit/evidence")
"""Fixed forever: record ids of equal records must stay equal across versions."""

_DOCUMENT_HEADER: Final = "Quietedit-Document"
_RENDERED_HEADER: Final = "Quietedit-Rendered"
_SPEC: Final = "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"


def evidence_file_name(now: datetime, *, shard: Shard) -> str:
    """The WARC file of the run started at ``now`` (timezone-aware) by ``shard``."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware (UTC)")
    utc = now.astimezone(UTC)
    tail = "" if shard.whole else f"-shard-{shard.index}-of-{shard.count}"
    return f"{utc:%Y-%m}/quietedit-{utc:{_STAMP_FORMAT}}{tail}.warc.gz"


def is_evidence_file_name(name: str) -> bool:
    """Whether ``name`` is one :func:`evidence_file_name` could have returned."""
    return _file_time(name) is not None


def _file_time(name: str) -> datetime | None:
    match = EVIDENCE_FILE_PATTERN.fullmatch(name)
    if match is None:
        return None
    try:
        when = datetime.strptime(match["stamp"], _STAMP_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        return None
    index, count = match["index"], match["count"]
    if index is not None and not 1 <= int(index) <= int(count):
        return None
    return when if f"{when:%Y-%m}" == match["month"] else None


def record_id(document: str, observed_at: datetime, sha256: str, *, kind: str = "response") -> str:
    """The ``urn:uuid:`` of the record of ``document``'s page observed at ``observed_at``
    (a ``conversion``, the rendered page, has its own even when its bytes equal the page's)."""
    key = f"{document}\n{warc_date(observed_at)}\n{sha256}"
    if kind == "conversion":
        key = f"conversion\n{key}"
    return f"urn:uuid:{uuid.uuid5(_RECORD_NAMESPACE, key)}"


class EvidenceLog:
    """Appends evidence records to the WARC file ``folder / name``; a context manager,
    safe to share between threads.

    The file is created on the first record (a run without new revisions leaves none),
    with its month folder. Opening an existing file for the first append cuts it back to
    the end of its last complete record (what a killed writer left after it is lost, and
    nothing refers to it). ``name`` must be one :func:`evidence_file_name` returns.
    """

    def __init__(self, folder: Path, name: str) -> None:
        started = _file_time(name)
        if started is None:
            raise ValueError(f"{name!r} is not an evidence file name (see evidence_file_name)")
        self.folder = folder
        self.name = name
        self.path = folder / name
        self._started = started
        self._fd: int | None = None
        self._warcinfo = f"urn:uuid:{uuid.uuid5(_RECORD_NAMESPACE, 'warcinfo ' + name)}"
        self._lock = threading.Lock()  # a run's writer threads share one log

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the file (every record is already on disk)."""
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def append_response(
        self,
        *,
        document: str,
        url: str,
        observed_at: datetime,
        status: int,
        headers: Sequence[tuple[str, str]],
        body: bytes,
    ) -> EvidenceRef:
        """Append the response to ``url`` (the final URL) observed at ``observed_at``.

        ``headers`` as received; ``body`` as the fetcher returned it (decoded). Returns
        the reference the revision keeps; the record is on disk when this returns.
        """
        http = http_headers(status, headers, length=len(body))
        return self._append(
            "response", document=document, url=url, observed_at=observed_at, body=body, http=http
        )

    def append_resource(
        self, *, document: str, url: str, observed_at: datetime, content_type: str, body: bytes
    ) -> EvidenceRef:
        """Append ``body``, a page fetched from ``url`` whose response headers were not
        kept (a schema-1 archive's evidence), as a ``resource`` record of ``content_type``."""
        return self._append(
            "resource",
            document=document,
            url=url,
            observed_at=observed_at,
            body=body,
            content_type=content_type,
        )

    def append_rendered(
        self,
        *,
        document: str,
        url: str,
        observed_at: datetime,
        body: bytes,
        content_type: str,
        refers_to: EvidenceRef,
        rendering: Sequence[tuple[str, str]],
    ) -> EvidenceRef:
        """Append ``body``, the DOM a browser built from the response kept as ``refers_to``,
        as a ``conversion`` record (WARC/1.1: "an alternative version of another record's
        content") that names that record in ``WARC-Refers-To``; ``rendering`` adds
        ``Quietedit-Rendered-*`` headers (the browser, the requests made and refused)."""
        return self._append(
            "conversion",
            document=document,
            url=url,
            observed_at=observed_at,
            body=body,
            content_type=content_type,
            extra=[
                ("WARC-Refers-To", f"<{refers_to.record}>"),
                *((f"{_RENDERED_HEADER}-{name}", value) for name, value in rendering),
            ],
        )

    def _append(
        self,
        kind: str,
        *,
        document: str,
        url: str,
        observed_at: datetime,
        body: bytes,
        http: StatusAndHeaders | None = None,
        content_type: str | None = None,
        extra: Sequence[tuple[str, str]] = (),
    ) -> EvidenceRef:
        sha256 = digest(body)
        record = record_id(document, observed_at, sha256, kind=kind)
        data = gzip_record(
            kind,
            [
                ("WARC-Record-ID", f"<{record}>"),
                ("WARC-Warcinfo-ID", f"<{self._warcinfo}>"),
                ("WARC-Date", warc_date(observed_at)),
                ("WARC-Target-URI", url),
                (_DOCUMENT_HEADER, document),
                *extra,
            ],
            body=body,
            http=http,
            content_type=content_type,
        )
        with self._lock:
            self._write(self._open(), data)
        return EvidenceRef(file=self.name, record=record, sha256=sha256)

    def _open(self) -> int:
        if self._fd is not None:
            return self._fd
        try:
            _make_folders(self.path.parent, top=self.folder)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise ArchiveError(self.path, f"cannot open the evidence file: {exc}") from exc
        try:
            _fsync_dir(self.path.parent)
            keep = self._complete_length(os.fstat(fd).st_size)
            if keep < os.fstat(fd).st_size:
                logger.warning("%s: cutting an interrupted record after byte %d", self.path, keep)
                os.ftruncate(fd, keep)
                os.fsync(fd)
            self._fd = fd
            if keep == 0:
                self._write_warcinfo(fd)
        except OSError as exc:
            self._abandon(fd)
            raise ArchiveError(self.path, f"cannot prepare the evidence file: {exc}") from exc
        except BaseException:
            self._abandon(fd)
            raise
        return fd

    def _complete_length(self, size: int) -> int:
        """How much of the file to keep: up to its last whole record."""
        if size == 0:
            return 0
        keep = scan_warc(self.path).complete
        if keep < size and (later := whole_member_after(self.path, keep)) is not None:
            raise ArchiveError(
                self.path,
                f"damaged at byte {keep}, yet whole records follow from byte {later}: not "
                "what an interrupted write leaves; move the file aside (keep it: revisions "
                "may name its records) and run again",
            )
        return keep

    def _abandon(self, fd: int) -> None:
        self._fd = None
        with contextlib.suppress(OSError):
            os.close(fd)

    def _write_warcinfo(self, fd: int) -> None:
        fields = (
            f"software: quietedit {__version__}\r\n"
            "format: WARC File Format 1.1\r\n"
            f"conformsTo: {_SPEC}\r\n"
        ).encode()
        record = gzip_record(
            "warcinfo",
            [
                ("WARC-Record-ID", f"<{self._warcinfo}>"),
                ("WARC-Date", warc_date(self._started)),
                ("WARC-Filename", self.path.name),
            ],
            body=fields,
        )
        self._write(fd, record)

    def _write(self, fd: int, record: bytes) -> None:
        data = memoryview(record)
        start = os.fstat(fd).st_size
        try:
            while data:
                written = os.write(fd, data)
                data = data[written:]
            os.fsync(fd)
        except OSError as exc:
            # Take back the part written; if even that fails, the next append reopens the
            # file and cuts it back to its last whole record.
            try:
                os.ftruncate(fd, start)
            except OSError:
                self._abandon(fd)
            raise ArchiveError(self.path, f"cannot write evidence: {exc}") from exc


def _make_folders(folder: Path, *, top: Path) -> None:
    """Create ``folder`` (inside ``top``) and flush each new name into its parent."""
    missing: list[Path] = []
    current = folder
    while not current.is_dir():
        missing.append(current)
        if current == top or current.parent == current:
            break
        current = current.parent
    for path in reversed(missing):
        path.mkdir(parents=True, exist_ok=True)
        _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def check_evidence(
    folder: Path, references: Iterable[tuple[str, EvidenceRef | str]]
) -> list[Problem]:
    """Check each ``(where, reference)`` against the WARC files in ``folder``.

    ``where`` names the revision file in the problems. An :class:`EvidenceRef` needs its
    file in ``folder`` (else "missing"), its record in that file and the record's payload
    to hash to its ``sha256``; a schema-1 reference, a bare ``sha256:<hex>``, needs any
    record in ``folder`` whose payload has that hash. Each file is read once, streaming;
    a damaged file is reported once, with the records before the damage still usable, and
    a record cut off at the end of a file (an interrupted append, named by no revision)
    is no problem. Returns the problems, sorted.
    """
    by_file: dict[str, list[tuple[str, EvidenceRef]]] = defaultdict(list)
    bare: list[tuple[str, str]] = []
    problems: list[Problem] = []
    for where, reference in references:
        if isinstance(reference, str):
            if HASH_PATTERN.fullmatch(reference):
                bare.append((where, reference))
            else:
                problems.append(Problem(where, f"evidence: {reference!r} is not a sha256: hash"))
        elif is_evidence_file_name(reference.file):
            by_file[reference.file].append((where, reference))
        else:
            problems.append(
                Problem(where, f"evidence file {reference.file!r} is not an evidence file name")
            )
    names = set(by_file)
    if bare:
        names |= set(_evidence_files(folder))
    payloads: set[str] = set()
    for name in sorted(names):
        scan = _scan(folder, name, problems)
        if scan is None:
            for where, reference in by_file.get(name, []):
                problems.append(Problem(where, _missing(folder, reference.file)))
            continue
        if bare:
            payloads.update(record.sha256 for record in scan.records)
        records = {record.record: record for record in scan.records}
        for where, reference in by_file.get(name, []):
            found = records.get(reference.record)
            if found is None:
                after = f" (read up to byte {scan.complete}: {scan.damage})" if scan.damage else ""
                problems.append(
                    Problem(where, f"evidence record {reference.record} is not in {name}{after}")
                )
            elif found.sha256 != reference.sha256:
                problems.append(
                    Problem(
                        where,
                        f"evidence record {reference.record} in {name} has payload "
                        f"{found.sha256}, not {reference.sha256}: the record was changed",
                    )
                )
    for where, hash_ in bare:
        if hash_ not in payloads:
            problems.append(Problem(where, f"missing: no evidence record has payload {hash_}"))
    return sorted(set(problems))


def _scan(folder: Path, name: str, problems: list[Problem]) -> WarcScan | None:
    """The file's whole records, reporting damage; ``None`` when there is no such file.

    A cut-off record at the end is what a writer killed mid-append leaves (no revision
    names it), so it is no problem; damage with whole records after it is one."""
    path = folder / name
    try:
        if path.is_symlink() or (path.exists() and not path.is_file()):
            # a link or a device (a symbolic link to /dev/zero never ends): never read
            problems.append(Problem(str(path), "not a regular file; evidence files are"))
            return WarcScan(damage="not a regular file")
        scan = scan_warc(path)
        tolerated = scan.damage is None or whole_member_after(path, scan.complete) is None
    except FileNotFoundError:
        return None
    except OSError as exc:
        problems.append(Problem(str(path), f"cannot read the evidence file: {exc}"))
        return WarcScan(damage=f"cannot read it: {exc}")
    if not tolerated:
        problems.append(Problem(str(path), f"damaged WARC file: {scan.damage}"))
    for record in scan.records:
        for message in record.digest_problems:
            problems.append(Problem(str(path), f"record {record.record}: {message}"))
    return scan


def _missing(folder: Path, name: str) -> str:
    month = name.split("/", 1)[0]
    return (
        f"missing: evidence file {name} is not in {folder} "
        f"(download it from the release evidence-{month})"
    )


def _evidence_files(folder: Path) -> list[str]:
    """The names of the evidence files in ``folder``, as references write them."""
    names: list[str] = []
    for path in sorted(folder.glob("*/quietedit-*.warc.gz")):
        name = path.relative_to(folder).as_posix()
        if is_evidence_file_name(name) and path.is_file():
            names.append(name)
    return names
