"""A Markdown page of ``pages/*.md`` is taken as written: braces in it are text, never a
Jinja expression or statement; only a page that opens with ``{# jinja #}`` (the bundled
about page) is a template."""

from __future__ import annotations

from pathlib import Path

from quietedit.publish import BuildOptions, build_site
from tests.publish.conftest import BASE_URL, SOURCES, write_archive

PAGE = """# Templates we use

Write {{ database_url }} to link the database, or {% if data_url %}this{% endif %}.
A lone {{ never closed, and {% raw %} too: {{ range(3) | list }}.
"""


def test_a_users_page_with_jinja_syntax_renders_literally(tmp_path: Path) -> None:
    data, out, templates = tmp_path / "data", tmp_path / "site", tmp_path / "templates"
    write_archive(data)
    (templates / "pages").mkdir(parents=True)
    (templates / "pages/methodology.md").write_text(PAGE, encoding="utf-8")
    (templates / "pages/about.md").write_text(
        "{# jinja #}\n# About\n\nData: {{ data_url or 'none' }}.\n", encoding="utf-8"
    )

    report = build_site(
        BuildOptions(
            data=data,
            out=out,
            base_url=BASE_URL,
            sources=SOURCES,
            search=False,
            templates=templates,
            data_url="https://example.org/data/",
        )
    )

    assert not report.failures
    html = (out / "methodology/index.html").read_text(encoding="utf-8")
    assert "Write {{ database_url }} to link the database, or" in html
    assert "{% if data_url %}this{% endif %}" in html
    assert "A lone {{ never closed, and {% raw %} too: {{ range(3) | list }}." in html
    assert "<title>Templates we use" in html
    about = (out / "about/index.html").read_text(encoding="utf-8")
    assert "Data: https://example.org/data/." in about and "{#" not in about
