"""Helpers the site tests share: parse built pages, resolve internal links."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser

from tests.publish.conftest import BASE_URL

BASE_PATH = urlsplit(BASE_URL).path


def html_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if ".quietedit-cache" not in p.parts)


def parse(path: Path) -> LexborHTMLParser:
    return LexborHTMLParser(path.read_text(encoding="utf-8"))


def resolve(site: Path, page: Path, link: str) -> tuple[Path, str] | None:
    """The file an internal link points to and its fragment; None for external links."""
    parts = urlsplit(link)
    if parts.scheme or parts.netloc:
        if link.startswith(BASE_URL):
            parts = urlsplit(link[len(BASE_URL) - len(BASE_PATH) :])
        else:
            return None
    path = parts.path
    if not path:
        target = page
    elif path.startswith("/"):
        assert path.startswith(BASE_PATH), f"{page}: {link} is outside the base path"
        target = site / path[len(BASE_PATH) :]
    else:
        target = (page.parent / path).resolve()
    if path.endswith("/") or target.is_dir():
        target = target / "index.html"
    return target, parts.fragment


def api_documents(site: Path) -> list[dict[str, Any]]:
    """Every published document the JSON API lists: ``api/index.json``'s day files, read
    in order, each with the ``url`` of its own file (which the day file leaves out)."""
    return [
        {**doc, "url": _document_url(site, doc["id"])}
        for day in api_days(site)
        for doc in day["documents"]
    ]


def _document_url(site: Path, doc: str) -> Any:
    record = json.loads((site / f"api/documents/{doc}.json").read_text(encoding="utf-8"))
    return record["url"]


def api_ids(site: Path) -> set[str]:
    """Every document the JSON API names, with pages or without."""
    return {d["id"] for d in api_documents(site)} | {
        doc for day in api_days(site) for doc in day["unpublished"]
    }


def api_days(site: Path) -> list[dict[str, Any]]:
    """The day files of ``api/index.json``, in order."""
    index = json.loads((site / "api/index.json").read_text(encoding="utf-8"))
    return [json.loads((site / d["file"]).read_text(encoding="utf-8")) for d in index["days"]]


def link_problems(site: Path) -> tuple[int, list[str]]:
    """Check every internal href/src of every page of ``site``: how many were checked, and
    each that leads to no file or to a missing #fragment."""
    ids: dict[Path, set[str]] = {}
    problems = []
    checked = 0
    for page in html_pages(site):
        tree = parse(page)
        for node in tree.css("a[href], link[href], script[src], img[src]"):
            link = node.attributes.get("href") or node.attributes.get("src") or ""
            found = resolve(site, page, link)
            if found is None:
                continue
            target, fragment = found
            checked += 1
            if not target.is_file():
                problems.append(f"{page.relative_to(site)}: {link} → missing {target}")
                continue
            if fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = {n.attributes["id"] or "" for n in parse(target).css("[id]")}
                if fragment not in ids[target]:
                    problems.append(f"{page.relative_to(site)}: {link} → no #{fragment}")
    return checked, problems
