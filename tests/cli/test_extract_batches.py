"""``quietedit extract`` on batches: worker processes, a lean start-up, one-way imports.

The command is run as a real process here, as users and the corpus scorer run it, so the
worker processes are real forks (or spawns) and the output is the bytes a pipe receives.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.article.blocks import Box, _Collector
from quietedit.article.furniture import Hint
from quietedit.cli.extract import FILES_PER_JOB, worker_count
from tests.article.conftest import PAGES, ROOT

ARTICLE = ROOT / "quietedit" / "article"


def extract(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "quietedit", "extract", *args],
        capture_output=True,
        cwd=cwd,
        check=False,
        timeout=120,
    )


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Enough saved pages for several workers, with a missing file and a folder among them."""
    folder = tmp_path_factory.mktemp("batch")
    pages = sorted(PAGES.glob("*.html"))
    files: list[str] = []
    for copy in range(3 * FILES_PER_JOB // len(pages) + 1):
        for page in pages:
            target = folder / f"{copy:02d}-{page.name}"
            shutil.copyfile(page, target)
            files.append(str(target))
    files.insert(5, str(folder / "gone.html"))
    files.insert(len(files) - 3, str(folder))
    return files


@pytest.mark.parametrize("jobs", [[], ["--jobs", "2"], ["--jobs", "3"]])
def test_worker_processes_print_the_same_bytes_in_argument_order(
    batch: list[str], tmp_path: Path, jobs: list[str]
) -> None:
    alone = extract("--json", "--jobs", "1", *batch, cwd=tmp_path)
    shared = extract("--json", *jobs, *batch, cwd=tmp_path)
    assert (alone.returncode, shared.returncode) == (1, 1)
    assert shared.stdout == alone.stdout
    assert shared.stderr == alone.stderr
    rows = [json.loads(line) for line in shared.stdout.decode("utf-8").splitlines()]
    assert [row["input"] for row in rows] == batch
    failed = [row["input"] for row in rows if "error" in row]
    assert failed == [batch[5], batch[-4]]
    assert all(row["title"] for row in rows if "error" not in row)


def test_readable_output_is_the_same_from_worker_processes(
    batch: list[str], tmp_path: Path
) -> None:
    alone = extract("--jobs", "1", *batch, cwd=tmp_path)
    shared = extract("--jobs", "2", *batch, cwd=tmp_path)
    assert shared.stdout == alone.stdout
    assert shared.stderr == alone.stderr
    assert shared.stdout.decode("utf-8").count("==> ") == len(batch) - 2
    assert shared.stderr.decode("utf-8").count("Error: ") == 2


def test_a_negative_job_count_is_a_usage_error(tmp_path: Path) -> None:
    done = extract("--jobs", "-1", str(PAGES / "arc-news.html"), cwd=tmp_path)
    assert done.returncode == 2
    assert b"--jobs" in done.stderr


@pytest.mark.parametrize(
    ("files", "jobs", "cores", "expected"),
    [
        (1, 0, 4, 1),  # one file never pays for a pool
        (FILES_PER_JOB, 0, 4, 1),
        (FILES_PER_JOB + 1, 0, 4, 2),
        (200, 0, 2, 2),  # one process per core, no more
        (200, 0, 1, 1),
        (3, 8, 4, 3),  # never more processes than files
        (200, 3, 2, 3),  # an explicit count is taken as given
    ],
)
def test_worker_count_grows_with_the_batch_up_to_the_cores(
    files: int, jobs: int, cores: int, expected: int
) -> None:
    assert worker_count(files, jobs=jobs, cores=cores) == expected


@given(st.integers(0, 10_000), st.integers(0, 64), st.integers(1, 256))
def test_worker_count_is_between_one_and_the_files(files: int, jobs: int, cores: int) -> None:
    count = worker_count(files, jobs=jobs, cores=cores)
    assert 1 <= count <= max(files, 1)
    if jobs == 0:
        assert count <= cores
    elif files:
        assert count == min(jobs, files)


def test_extracting_saved_files_loads_neither_the_fetching_stack_nor_the_settings(
    tmp_path: Path,
) -> None:
    probe = (
        "import sys\n"
        "from quietedit.cli import cli\n"
        f"cli.main(['extract', '--json', {str(PAGES / 'drupal-news.html')!r}],"
        " prog_name='quietedit', standalone_mode=False)\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, cwd=tmp_path, check=True, timeout=60
    )
    loaded = set(done.stderr.decode().split())
    assert "quietedit.article.extract" in loaded
    unwanted = {
        "asyncio", "httpx", "jinja2", "yaml", "quietedit.fetch", "quietedit.config",
        "quietedit.analysis", "quietedit.publish", "quietedit.archive", "multiprocessing",
        "quietedit.article.template",
    }  # fmt: skip
    assert not loaded & unwanted


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_extraction_never_imports_the_template_learning() -> None:
    # template.py learns from extracted pages; extraction reads only the learnt profile.
    importers = sorted(
        path.name
        for path in ARTICLE.glob("*.py")
        if path.name != "template.py" and "quietedit.article.template" in imported_modules(path)
    )
    assert importers == []
    assert "quietedit.article.extract" in imported_modules(ARTICLE / "template.py")
    assert "quietedit.article.extract" not in imported_modules(ARTICLE / "profile.py")


@given(
    st.lists(st.text(alphabet="ab \x01\x02", max_size=12), max_size=6),
    st.booleans(),
)
def test_link_text_is_counted_across_segments_like_a_reader_would(
    pieces: list[str], open_link: bool
) -> None:
    collector = _Collector(Box(None, "body", Hint.NONE, 0))
    collector.in_link = open_link
    state = open_link
    for piece in pieces:
        text, links = collector._unmark(piece)
        expected_links = 0
        for character in piece:
            # A start mark opens a link and an end mark closes one; a mark of the
            # other kind inside (or outside) a link is stray, and counts as what it is in.
            if character == ("\x02" if state else "\x01"):
                state = not state
            elif state:
                expected_links += 1
        assert text == piece.replace("\x01", "").replace("\x02", "")
        assert links == expected_links
        assert collector.in_link == state


def test_a_worker_killed_mid_batch_fails_the_command_naming_where_to_look(
    batch: list[str], tmp_path: Path
) -> None:
    # A worker is killed on the first file it takes, as the out-of-memory killer would.
    probe = (
        "import os, signal, sys\n"
        "from quietedit.cli import cli, extract\n"
        "parent = os.getpid()\n"
        "def dying(task):\n"
        "    if os.getpid() != parent:\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "    return task\n"
        "extract._extract_file = dying\n"
        "cli.main(['extract', '--json', '--jobs', '2', *sys.argv[1:]], prog_name='quietedit')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *batch], capture_output=True, cwd=tmp_path, timeout=120
    )
    assert done.returncode == 1
    message = done.stderr.decode("utf-8")
    # every file is handed to a worker, which dies on it: none has a result
    assert f"a worker process died extracting {batch[0]} or a file after it" in message
    assert "--jobs 1" in message
    assert "Traceback" not in message
