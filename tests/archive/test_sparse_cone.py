"""``sparse.Cone.holds``: a folder is in a cone-mode sparse checkout when it or one of its
parents is listed, read as text and the same as read with ``Path.parents``."""

from __future__ import annotations

from pathlib import Path

import pytest

from quietedit.archive.sparse import Cone

LISTED = frozenset(
    {
        Path("/work/clone/data/documents/2026/04/01"),
        Path("/work/clone/data/documents/2026/03/30/98/127-0-0-2-98aa000000000001"),
        Path("/work/clone/data/index/96"),
    }
)


def by_parents(cone: Cone, folder: Path) -> bool:
    """The reading by ``Path``: the folder or any of its parents listed."""
    return folder in cone.folders or any(probe in cone.folders for probe in folder.parents)


@pytest.mark.parametrize(
    ("folder", "held"),
    [
        ("/work/clone/data/documents/2026/04/01", True),  # listed
        ("/work/clone/data/documents/2026/04/01/ab/127-0-0-2-ab00000000000002", True),
        ("/work/clone/data/documents/2026/03/30/98/127-0-0-2-98aa000000000001", True),
        ("/work/clone/data/documents/2026/03/30/98/127-0-0-2-98aa000000000003", False),
        ("/work/clone/data/documents/2026/03/30/98", False),  # only a document below it
        ("/work/clone/data/documents/2026/04/011", False),  # a name that only begins so
        ("/work/clone/data/documents/2026/04", False),
        ("/work/clone/data/index/96/96f", True),
        ("/work/other/data/index/96/96f", False),
        ("/", False),
    ],
)
def test_a_folder_is_held_when_it_or_a_parent_is_listed(folder: str, held: bool) -> None:
    cone = Cone(LISTED)
    assert cone.holds(Path(folder)) is held
    assert cone.holds(folder) is held
    assert by_parents(cone, Path(folder)) is held


def test_the_root_listed_holds_everything_and_patterns_hold_nothing() -> None:
    assert Cone(frozenset({Path("/")})).holds(Path("/work/clone/data")) is True
    assert Cone(frozenset({Path("/")})).holds("/") is True
    assert Cone(LISTED, patterns=True).holds(Path("/work/clone/data/index/96")) is False
