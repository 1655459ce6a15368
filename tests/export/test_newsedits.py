"""``quietedit export newsedits``: one JSON line per pair of revisions, sentence by sentence."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from quietedit.cli import cli
from quietedit.export.newsedits import read_lines
from tests.export.conftest import STORIES

FERRY, STADIUM, TAXES, FLOODS, BAKERY = (s.url for s in STORIES)


def export(root: Path, out: Path, feeds_yaml: Path) -> str:
    args = ["export", "newsedits", str(out), "--data", str(root), "--config", str(feeds_yaml)]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_every_pair_of_revisions_is_a_line_with_labelled_sentences(
    archive_ids: tuple[Path, dict[str, str]], feeds_yaml: Path, tmp_path: Path
) -> None:
    root, ids = archive_ids
    out = tmp_path / "edits.jsonl"
    assert "5 revision pairs of 4 documents" in export(root, out, feeds_yaml)
    lines = list(read_lines(out))
    assert [(line["document"], line["old"]["number"], line["new"]["number"]) for line in lines] == [
        (ids[FERRY], 1, 2),
        (ids[STADIUM], 1, 2),
        (ids[STADIUM], 2, 3),
        (ids[TAXES], 1, 2),
        (ids[FLOODS], 1, 2),
    ]
    taxes = lines[3]
    assert taxes["source"] == "daily-politics" and taxes["url"] == TAXES
    assert taxes["old"]["title"] == "Minister: 'We will not raise taxes'"
    assert taxes["counts"] == {
        "added": 0, "deleted": 1, "edited": 1, "refactored": 0, "unchanged": 1,
    }  # fmt: skip
    assert [(s["block"], s["op"]) for s in taxes["old_sentences"]] == [
        (0, "unchanged"),
        (1, "edited"),
        (2, "deleted"),
    ]
    assert taxes["matches"][1] == {"new": 1, "old": 1, "op": "edited", "similarity": 0.875}
    stadium = lines[2]
    assert stadium["new_sentences"][-1] == {
        "block": 3,
        "op": "added",
        "text": "A public meeting on parking will be held in January.",
    }
    assert set(taxes) == {
        "counts", "cutoff", "document", "matches", "new", "new_sentences", "old",
        "old_sentences", "schema", "source", "url",
    }  # fmt: skip


def test_the_same_archive_gives_the_same_bytes(
    archive_ids: tuple[Path, dict[str, str]], feeds_yaml: Path, tmp_path: Path
) -> None:
    root, _ = archive_ids
    export(root, tmp_path / "a.jsonl", feeds_yaml)
    export(root, tmp_path / "b.jsonl", feeds_yaml)
    data = (tmp_path / "a.jsonl").read_bytes()
    assert data == (tmp_path / "b.jsonl").read_bytes()
    first = data.split(b"\n")[0]
    assert json.dumps(json.loads(first), ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")).encode() == first  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "b.jsonl"]
