"""Checks of the built demo site's files that need no browser: links and HTML validity."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Final

import pytest

from tests.publish import test_links
from tests.publish.sitecheck import html_pages

VNU: Final = (
    Path(__file__).parents[3] / "tools" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
)


def test_every_internal_link_and_anchor_of_the_demo_site_resolves(demo_site: Path) -> None:
    # the site tests' checker, unchanged: the demo is built for the same base URL
    test_links.test_every_internal_link_and_fragment_resolves(demo_site)


def test_vnu_reports_no_html_errors(demo_site: Path) -> None:
    java = shutil.which("java")
    if java is None or not VNU.is_file():
        pytest.skip(f"needs java and {VNU} (npm ci --prefix tools)")
    pages = [str(page) for page in html_pages(demo_site)]
    assert len(pages) > 20
    done = subprocess.run(
        [java, "-jar", str(VNU), "--errors-only", "--format", "gnu", *pages],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr + done.stdout
