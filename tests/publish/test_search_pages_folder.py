"""Each search bundle is indexed from a folder of its own pages (``search._pages_folder``):
Pagefind walks the folder it is given, and the site's is every article folder of the
archive (363,000 at a year of ``bench/year.py``), once for each bundle."""

from __future__ import annotations

from pathlib import Path

from quietedit.publish.search import Shard, _pages_folder


def test_the_folder_holds_the_bundles_pages_alone_at_their_site_paths(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for doc in ("news-example-org-0000000000000001", "news-example-org-0000000000000002"):
        (site / "articles" / doc).mkdir(parents=True)
        (site / "articles" / doc / "index.html").write_text(f"<h1>{doc}</h1>", encoding="utf-8")
    (site / "articles" / "news-example-org-0000000000000002" / "diff").mkdir()
    shard = Shard(
        "news",
        "week",
        ("news-example-org-0000000000000001", "news-example-org-000000000000000f"),  # no page
    )

    folder = _pages_folder(str(site), shard, tmp_path / "work" / "pages-0")

    found = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert found == ["articles/news-example-org-0000000000000001/index.html"]
    page = folder / found[0]
    assert page.read_bytes() == (site / found[0]).read_bytes()


def test_a_bundle_without_pages_gets_an_empty_folder(tmp_path: Path) -> None:
    shard = Shard("news", "1", ("news-example-org-0000000000000003",))

    folder = _pages_folder(str(tmp_path / "site"), shard, tmp_path / "pages-1")

    assert folder.is_dir() and not any(folder.iterdir())
