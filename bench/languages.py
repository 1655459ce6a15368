"""What is recognised on the article pages of each language, and what it costs.

Usage: .venv/bin/python bench/languages.py

1. Per language fixture page (``tests/fixtures/pages/languages``): the correction note,
   the "Updated" line and the dateline recognised by extraction, and the moment the
   dateline names, as one table.
2. The word-diff tokens of a Chinese, a Japanese and a Thai sentence, and the Thai
   segmenter in use.
3. The cost of the libraries behind it, each in a fresh interpreter: the import time of
   dateparser and icu4py, the first date read in a language (its data loaded) and the
   next ones, and the size each adds to the installation (with its dependencies).
"""

from __future__ import annotations

import importlib.metadata
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quietedit.analysis.notes import note_kind  # noqa: E402
from quietedit.analysis.segment import thai_segmenter  # noqa: E402
from quietedit.analysis.words import tokenize  # noqa: E402
from quietedit.article.extract import extract_article  # noqa: E402
from quietedit.article.languages import dateparser_languages  # noqa: E402
from quietedit.article.notices import is_date_line  # noqa: E402
from quietedit.article.pagedates import parse_page_date  # noqa: E402

PAGES = ROOT / "tests" / "fixtures" / "pages" / "languages"
SAMPLES = {
    "Chinese": "台北市政府今天宣布\uff0c將在明年增加五千個停車位\u3002",
    "Japanese": "東京都は4日\u3001新たに120人の感染を確認した\u3002",
    "Thai": "นายกรัฐมนตรีกล่าวว่ารัฐบาลจะเพิ่มงบประมาณ 5,000 ล้านบาทสำหรับโรงพยาบาล",
}
# Each library with the packages it brings that quietedit did not have before.
LIBRARIES = {
    "dateparser": ("dateparser", "regex", "python-dateutil", "pytz", "tzlocal", "tzdata"),
    "icu4py": ("icu4py",),
}


def recognised() -> None:
    print("language  correction note found          update line found                   "
          "dateline read")  # fmt: skip
    for page in sorted(PAGES.glob("*.html")):
        expected = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
        if not expected["dateline"]:
            continue
        article = extract_article(page.read_bytes(), url=expected["url"])
        body = {block.text for block in article.blocks}
        corrections = [n for n in article.publisher.notes if note_kind(n) == "correction"]
        languages = dateparser_languages(expected["language"])
        line = expected["dateline_line"]
        dropped = line not in body and is_date_line(line, languages=languages)
        moment = parse_page_date(
            expected["dateline"], languages=languages or (page.stem,), complete=True
        )
        print(
            f"{expected['language']:<9} {_cut(corrections[0] if corrections else '-', 30):<31}"
            f"{_cut(article.publisher.updated_line or '-', 35):<36}"
            f"{'dropped' if dropped else 'KEPT'}, {moment.isoformat() if moment else 'unread'}"
        )


def tokens() -> None:
    print(f"\nword-diff tokens (Thai segmenter: {thai_segmenter()})")
    for name, text in SAMPLES.items():
        print(f"  {name:<9} {' | '.join(token.rstrip() for token in tokenize(text))}")


def costs() -> None:
    print("\nlibrary costs (fresh interpreter each; medians of 5)")
    probes = {
        "import dateparser": "import dateparser",
        "import icu4py.breakers": "import icu4py.breakers",
        "quietedit.article.extract (no dateparser)": "import quietedit.article.extract",
    }
    for label, statement in probes.items():
        print(f"  {label:<46} {_median_ms(statement):7.1f} ms")
    first = _run(
        "import time; from quietedit.article.pagedates import parse_page_date as p; "
        "t = time.perf_counter(); p('4 czerwca 2026, 10:12', languages=('pl',)); "
        "a = time.perf_counter(); [p('4 czerwca 2026, 10:12', languages=('pl',)) "
        "for _ in range(200)]; b = time.perf_counter(); "
        "[p('Sejm przyjął ustawę o zdrowiu 402 głosami', languages=('pl',)) "
        "for _ in range(200)]; c = time.perf_counter(); "
        "print((a - t) * 1000, (b - a) * 5, (c - b) * 5)"
    ).split()
    print(f"  first Polish date (import and data)           {float(first[0]):7.1f} ms")
    print(f"  next Polish date                              {float(first[1]):7.2f} ms")
    print(f"  a Polish line that is no date                 {float(first[2]):7.2f} ms")
    for library, packages in LIBRARIES.items():
        size = sum(_installed_bytes(package) for package in packages)
        print(f"  installed size of {library:<11} {size / 1e6:6.1f} MB  ({', '.join(packages)})")


def _installed_bytes(package: str) -> int:
    try:
        files = importlib.metadata.files(package) or []
    except importlib.metadata.PackageNotFoundError:
        return 0
    located = [Path(str(path.locate())) for path in files]
    return sum(path.stat().st_size for path in located if path.is_file())


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return done.stdout


def _median_ms(statement: str) -> float:
    times = []
    for _ in range(5):
        code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
        times.append(float(_run(code)) * 1000)
    return statistics.median(times)


def _cut(text: str, size: int) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def main() -> None:
    started = time.perf_counter()
    recognised()
    tokens()
    costs()
    print(f"\n({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
