"""The archive's values live apart from the article values extraction needs."""

from __future__ import annotations

import subprocess
import sys


def test_extracting_an_article_does_not_load_the_archive_values() -> None:
    # Making their classes is a few per cent of the start-up of `quietedit extract`.
    probe = (
        "import sys\n"
        "from quietedit.article.extract import extract_article\n"
        "extract_article(b'<p>A paragraph.</p>')\n"
        "print('quietedit.revisions' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split() == ["False"]
