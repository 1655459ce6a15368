"""Every relative link in README.md and docs/ leads somewhere: a file that exists, and a
heading of that file when the link names one (``page.md#heading``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]

FENCE = re.compile(r"^```.*?^```", flags=re.DOTALL | re.MULTILINE)
CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6}) +(.+?) *#*$", flags=re.MULTILINE)
EXTERNAL = ("http://", "https://", "mailto:")


def prose(markdown: str) -> str:
    """``markdown`` without fenced blocks, so example text is never taken for a link."""
    return FENCE.sub("", markdown)


def links(markdown: str) -> list[str]:
    """The targets of the Markdown links in ``markdown``, outside code."""
    return LINK.findall(CODE.sub("", prose(markdown)))


def anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives ``markdown``'s headings: lower case, punctuation dropped
    (code marks and link targets too), spaces as ``-``, ``-1``, ``-2`` … on repeats."""
    seen: dict[str, int] = {}
    result: set[str] = set()
    for _, title in HEADING.findall(prose(markdown)):
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        result.add(slug if count == 0 else f"{slug}-{count}")
    return result


def test_the_anchor_rules_match_githubs() -> None:
    text = "# quietedit\n## `quietedit ingest`\n## `feeds.yaml` reference\n## Notes\n## Notes\n"
    text += "```\n## not a heading\n```\n"
    assert anchors(text) == {
        "quietedit",
        "quietedit-ingest",
        "feedsyaml-reference",
        "notes",
        "notes-1",
    }


def test_links_in_code_are_not_links() -> None:
    text = "[a](a.md) `[b](b.md)`\n```\n[c](c.md)\n```\n![d](d.png)"
    assert links(text) == ["a.md", "d.png"]


def relative_links() -> list[tuple[Path, str]]:
    return [
        (page, target)
        for page in PAGES
        for target in links(page.read_text(encoding="utf-8"))
        if not target.startswith(EXTERNAL)
    ]


@pytest.mark.parametrize(
    ("page", "target"),
    relative_links(),
    ids=lambda value: value.name if isinstance(value, Path) else value,
)
def test_every_relative_link_leads_to_a_file_and_heading(page: Path, target: str) -> None:
    path, _, anchor = target.partition("#")
    destination = (page.parent / path).resolve() if path else page
    assert destination.exists(), f"{page.name}: {target}: no such file"
    assert ROOT in destination.parents or destination == ROOT, f"{page.name}: {target}"
    if anchor:
        assert destination.suffix == ".md", f"{page.name}: {target}: an anchor into a non-page"
        found = anchors(destination.read_text(encoding="utf-8"))
        assert anchor in found, f"{page.name}: {target}: no heading #{anchor}"


def test_the_readme_links_every_docs_page() -> None:
    linked = {
        (ROOT / target.partition("#")[0]).resolve()
        for target in links((ROOT / "README.md").read_text(encoding="utf-8"))
    }
    missing = [page.name for page in PAGES[1:] if page not in linked]
    assert PAGES[1:], "docs/ has no pages"
    assert not missing, f"README.md links no docs page {missing}"


@pytest.mark.parametrize("page", PAGES[1:], ids=lambda page: page.name)
def test_every_docs_page_opens_with_its_title_and_what_it_covers(page: Path) -> None:
    title, blank, first, *_ = page.read_text(encoding="utf-8").splitlines()
    assert title.startswith("# ") and blank == "", f"{page.name} opens with no title"
    assert first and not first.startswith(("#", "```", "|", "-")), f"{page.name}: no summary"
