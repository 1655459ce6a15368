"""Templates to text: the Jinja2 environment, where templates are found, and site URLs.

Autoescaping is on for every HTML and XML template, so archive text can never become
markup; undefined variables are errors, so a typo in a template fails the build instead of
printing nothing. Templates come from ``settings.paths.templates`` first and then from
the templates shipped with quietedit, so a site can override one template and keep the
rest, and a non-editable install (whose wheel carries ``quietedit/templates``) still finds
them.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from quietedit.errors import TemplateError
from quietedit.model import parse_timestamp
from quietedit.publish.text import text_language
from quietedit.version import __version__

logger = logging.getLogger(__name__)

PACKAGED_TEMPLATES: Final = Path(__file__).resolve().parent.parent / "templates"
"""Where a wheel carries the templates (hatch ``force-include`` of ``templates/``)."""
SOURCE_TEMPLATES: Final = Path(__file__).resolve().parents[2] / "templates"
"""The repository's ``templates/``, for a source checkout or an editable install."""

JINJA_PAGE: Final = "{# jinja #}"
"""The first line of a ``pages/*.md`` page that is a Jinja template (the bundled about
page); a page without it is Markdown as written, whatever braces it holds."""
CONTENT_SECURITY_POLICY: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'"
)
"""No inline script, nothing from another origin. (A meta CSP cannot set
``frame-ancestors``; Pages sets no headers.)"""
SEARCH_CONTENT_SECURITY_POLICY: Final = (
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; "
    "form-action 'self'"
)
"""The search page's: Pagefind's WebAssembly (``wasm-unsafe-eval``) and its UI's images
and fonts; every other page does without them, in fewer bytes."""


def template_dirs(configured: Path | None) -> list[Path]:
    """The template search path: ``configured`` (if it exists), then the shipped templates."""
    dirs = []
    if configured is not None:
        if configured.is_dir():
            dirs.append(configured)
        else:
            logger.info(
                "templates folder %s does not exist; using the built-in templates", configured
            )
    for candidate in (PACKAGED_TEMPLATES, SOURCE_TEMPLATES):
        if candidate.is_dir() and candidate not in dirs and (candidate / "base.html").is_file():
            dirs.append(candidate)
    if not any((d / "base.html").is_file() for d in dirs):
        raise TemplateError(
            "base.html",
            f"not found in {[str(d) for d in dirs] or 'any templates folder'}; "
            "set settings.paths.templates to a folder with the site templates, "
            "or reinstall quietedit",
        )
    return dirs


@dataclass(frozen=True, slots=True)
class SiteURLs:
    """Links inside the site: ``base_url`` is absolute and ends with ``/``."""

    base_url: str

    @classmethod
    def parse(cls, base_url: str) -> SiteURLs:
        parts = urlsplit(base_url)
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            raise TemplateError(
                "--base-url",
                f"{base_url!r} is not an http(s) URL; use e.g. https://user.github.io/repo/",
            )
        if parts.query or parts.fragment:
            raise TemplateError("--base-url", f"{base_url!r} has a query or fragment; drop it")
        return cls(base_url if base_url.endswith("/") else base_url + "/")

    base_path: str = field(init=False, repr=False, compare=False)
    """The path part of ``base_url`` (computed once: every link on every page uses it)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "base_path", urlsplit(self.base_url).path or "/")

    @property
    def host(self) -> str:
        return urlsplit(self.base_url).hostname or "localhost"

    def link(self, path: str) -> str:
        """The root-relative link of a site path (``articles/x/``, ``feed.xml``, ``""``)."""
        return self.base_path + path.lstrip("/")

    def absolute(self, path: str) -> str:
        return self.base_url + path.lstrip("/")


def output_file(path: str) -> str:
    """The file a site path is written to: folders get ``index.html``."""
    return path + "index.html" if path == "" or path.endswith("/") else path


@lru_cache(maxsize=1 << 14)  # a document's few timestamps recur on each of its pages
def human_time(value: str | None) -> str:
    """``2026-11-30T08:15:00Z`` → ``30 Nov 2026, 08:15 UTC``."""
    if not value:
        return "unknown"
    try:
        moment = parse_timestamp(value)
    except ValueError:
        return value
    return moment.strftime("%d %b %Y, %H:%M UTC").lstrip("0")


def minute(value: str) -> str:
    """``2026-11-30T08:15:42.5Z`` → ``2026-11-30T08:15Z``: a ``datetime`` attribute to the
    minute, as :func:`human_time` shows it (the value itself when it is not a timestamp)."""
    try:
        moment = parse_timestamp(value)
    except ValueError:
        return value
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")


def clock(value: str) -> str:
    """``2026-11-30T08:15:42Z`` → ``08:15 UTC``: the time of day, in a list under its day."""
    try:
        return parse_timestamp(value).astimezone(UTC).strftime("%H:%M UTC")
    except ValueError:
        return value


def clock_time(value: str) -> Markup:
    """``2026-11-30T08:15:42Z`` → ``08:15``: the time of day in an archive page's list,
    under its day's heading (whose ``<time>`` carries the date; the page says its times
    are UTC), as plain text: no element or zone each of its items would repeat; a value
    that is no time, escaped as it is."""
    try:
        minute = parse_timestamp(value).astimezone(UTC).strftime("%H:%M")
    except ValueError:
        return Markup.escape(value)
    return Markup(minute)  # noqa: S704 - digits and a colon


def human_day(value: str) -> str:
    try:
        return datetime.fromisoformat(value).strftime("%A %d %B %Y").replace(" 0", " ")
    except ValueError:
        return value


_MARKS: Final = {"-": ("<del>", "</del>"), "+": ("<ins>", "</ins>")}
"""On the site's pages: the stylesheet gives ``<del>``/``<ins>`` their hidden labels."""
_LABELLED_MARKS: Final = {
    "-": ('<del><span class="vh">[removed: </span>', '<span class="vh">]</span></del>'),
    "+": ('<ins><span class="vh">[added: </span>', '<span class="vh">]</span></ins>'),
}
"""In feeds, which a reader shows without the site's stylesheet: the labels as text."""
_BREAK: Final = (
    '<span class="para-break" title="paragraph break"><span aria-hidden="true"> ¶ </span>'
    '<span class="vh">[paragraph break]</span></span>'
)


def segments_html(
    segments: tuple[tuple[str, str], ...], side: str = "both", *, labelled: bool = False
) -> Markup:
    """A word diff as markup: ``<del>``/``<ins>``, text escaped; ``labelled``, with the
    "[added: …]" labels as visually hidden text (a page's stylesheet adds them otherwise).

    ``side`` "old" leaves out additions, "new" removals (the two columns of a side-by-side
    view). Python rather than a template macro: diff pages call it for every block.
    """
    marks = _LABELLED_MARKS if labelled else _MARKS
    parts: list[str] = []
    for op, text in segments:
        if op == "=":
            parts.append(str(escape(text)))
        elif op in marks and side != ("new" if op == "-" else "old"):
            opening, closing = marks[op]
            parts.append(opening + str(escape(text)) + closing)
        elif op == "|":
            parts.append(_BREAK)
    return Markup("".join(parts))  # noqa: S704 - every text part is escaped above


@jinja2.pass_context
def template_segments(
    context: jinja2.runtime.Context, segments: tuple[tuple[str, str], ...], side: str = "both"
) -> Markup:
    """:func:`segments_html` for templates: labelled in the feeds' templates (``feeds/``)."""
    labelled = (context.name or "").startswith("feeds/")
    return segments_html(segments, side, labelled=labelled)


PAGE_LANGUAGE: Final = "en"
"""The language of the site's own words, ``<html lang>`` in ``base.html``."""


def text_attributes(language: str | None) -> Markup:
    """The ``lang`` and ``dir`` attributes (with a leading space) of an element holding an
    article's text in ``language``: `` lang="he" dir="rtl"``, or `` dir="auto"`` when the
    page named no language (see :func:`~quietedit.publish.text.text_language`); nothing
    for English, the language the page itself declares (``<html lang="en">``)."""
    tag, direction = text_language(language)
    if (tag, direction) == (PAGE_LANGUAGE, "ltr"):
        return Markup("")
    if tag is None:
        return Markup(f' dir="{direction}"')  # noqa: S704 - a constant of three values
    return Markup(' lang="{}" dir="{}"').format(tag, direction)


def rfc822(value: str) -> str:
    """An RFC 3339 archive timestamp as RSS 2.0 wants it (RFC 822, GMT)."""
    return format_datetime(parse_timestamp(value), usegmt=True)


class Renderer:
    """Renders the site's templates with the site's URLs and filters."""

    def __init__(self, dirs: list[Path], *, urls: SiteURLs, site_name: str = "quietedit") -> None:
        self.dirs = dirs
        self.urls = urls
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader([str(d) for d in dirs]),
            autoescape=jinja2.select_autoescape(["html", "xml", "rss", "svg"]),
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            auto_reload=False,  # one build renders with one set of templates
            cache_size=-1,
        )
        self.env.globals.update(
            url=urls.link,
            abs_url=urls.absolute,
            site_name=site_name,
            base_path=urls.base_path,
            # a constant without a double quote: written as it is, not entity-escaped
            csp=Markup(CONTENT_SECURITY_POLICY),  # noqa: S704
            search_csp=Markup(SEARCH_CONTENT_SECURITY_POLICY),  # noqa: S704
            version=__version__,
            segments=template_segments,
            text_attrs=text_attributes,
        )
        self.env.filters.update(
            human_time=human_time,
            human_day=human_day,
            rfc822=rfc822,
            minute=minute,
            clock=clock,
            clock_time=clock_time,
        )
        self.markdown = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")

    def render(self, template: str, **context: Any) -> str:
        """Render ``template`` with ``context``; template problems become ``TemplateError``."""
        try:
            return self.env.get_template(template).render(**context)
        except jinja2.TemplateNotFound as exc:
            raise TemplateError(template, f"not found in {[str(d) for d in self.dirs]}") from exc
        except jinja2.TemplateSyntaxError as exc:
            raise TemplateError(template, f"line {exc.lineno}: {exc.message}") from exc
        except jinja2.UndefinedError as exc:
            raise TemplateError(template, str(exc)) from exc

    def fingerprint(self) -> str:
        """A hash of every template file: a changed template invalidates the build cache."""
        digest = hashlib.sha256(__version__.encode())
        for folder in self.dirs:
            for path in sorted(folder.rglob("*")):
                if path.is_file():
                    digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
                    digest.update(path.read_bytes())
        return digest.hexdigest()

    def markdown_page(self, name: str, **context: Any) -> tuple[str, Markup]:
        """``pages/<name>.md`` as ``(title, html)``; raw HTML in the Markdown is not passed on.

        A page whose first line is :data:`JINJA_PAGE` is a Jinja template first, given
        ``context`` (autoescaped, so a value never becomes markup): the about page links
        the database export only where the site says where it is. Any other page is taken
        as it is written: a ``{{`` or ``{%`` in it is text, never evaluated."""
        for folder in self.dirs:
            path = folder / "pages" / f"{name}.md"
            if path.is_file():
                text = self._page_text(name, path.read_text(encoding="utf-8"), context)
                title = next(
                    (line[2:].strip() for line in text.splitlines() if line.startswith("# ")), name
                )
                return title, Markup(self.markdown.render(text))  # noqa: S704 - html disabled
        raise TemplateError(f"pages/{name}.md", f"not found in {[str(d) for d in self.dirs]}")

    def _page_text(self, name: str, source: str, context: dict[str, Any]) -> str:
        if source.split("\n", 1)[0].strip() != JINJA_PAGE:
            return source
        try:
            return self.env.from_string(source).render(**context)
        except jinja2.TemplateSyntaxError as exc:
            raise TemplateError(f"pages/{name}.md", f"line {exc.lineno}: {exc.message}") from exc
        except jinja2.UndefinedError as exc:
            raise TemplateError(f"pages/{name}.md", str(exc)) from exc

    def static_files(self) -> dict[str, bytes]:
        """Every file under ``static/`` of the template folders (earlier folders win)."""
        found: dict[str, bytes] = {}
        for folder in reversed(self.dirs):
            static = folder / "static"
            if static.is_dir():
                for path in sorted(static.rglob("*")):
                    if path.is_file():
                        found["static/" + path.relative_to(static).as_posix()] = path.read_bytes()
        return found

    def markdown_names(self) -> list[str]:
        names = {p.stem for d in self.dirs for p in (d / "pages").glob("*.md")}
        return sorted(names)
