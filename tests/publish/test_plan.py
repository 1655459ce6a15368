"""What a build renders, keeps and deletes, decided from plain values (``publish.plan``).

The build's own tests (``test_incremental``, ``test_sparse_archive``, ``test_folding``, …)
check the same decisions end to end on real archives; these pin each rule alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from quietedit.publish import plan

FINGERPRINT = "f" * 64
OLD = "example-com-00000000000000a1"  # ids in the archive's format: <host>-<16 hex digits>
NEW = "example-com-00000000000000b2"
MOVED = "example-com-00000000000000c3"
BARE = "example-com-00000000000000d4"


@dataclass(frozen=True)
class Row:
    """A document's row as the build cache holds it (the fields ``plan.Recorded`` reads)."""

    stamp: str
    content: str
    key: str = ""
    source: str = "daily"
    partition: str = "2026/11/20"
    published: bool = True
    first_seen: str = "2026-11-20T08:00:00Z"

    @property
    def month(self) -> str:
        return self.partition[:7].replace("/", "-")


def current(
    stamp: str,
    content: str,
    *,
    partition: str = "2026/11/20",
    published: bool = True,
    first_seen: str = "2026-11-20T08:00:00Z",
) -> Row:
    """A row whose pages this build's code made from ``content``."""
    key = plan.document_key(FINGERPRINT, content)
    return Row(stamp, content, key, "daily", partition, published, first_seen)


@dataclass(frozen=True)
class Sketch:
    story: str


def test_unchanged_document_with_pages_on_disk_is_kept_unread() -> None:
    cached = {OLD: current("s1", "c1")}
    sorted_ = plan.sort_found(
        {OLD: "s1"}, cached, {}, {}, fingerprint=FINGERPRINT, on_disk={OLD}, folded=frozenset()
    )
    assert (sorted_.kept, sorted_.render, sorted_.failures) == ({OLD: "s1"}, {}, {})


def test_document_without_a_row_is_rendered() -> None:
    sorted_ = plan.sort_found(
        {NEW: "s9"}, {}, {}, {}, fingerprint=FINGERPRINT, on_disk=set(), folded=frozenset()
    )
    assert sorted_.render == {NEW: "s9"}
    assert plan.to_reread({NEW: "s9"}, {}) == []  # its worker takes its content key


def test_moved_stamp_with_the_same_content_keeps_the_row_under_the_new_stamp() -> None:
    cached = {MOVED: current("old-stamp", "c1")}
    found = {MOVED: "new-stamp"}
    assert plan.to_reread(found, cached) == [MOVED]
    sorted_ = plan.sort_found(
        found, cached, {MOVED: "c1"}, {}, fingerprint=FINGERPRINT, on_disk={MOVED},
        folded=frozenset(),
    )  # fmt: skip
    assert sorted_.kept == {MOVED: "new-stamp"}
    changed = plan.sort_found(
        found, cached, {MOVED: "c2"}, {}, fingerprint=FINGERPRINT, on_disk={MOVED},
        folded=frozenset(),
    )  # fmt: skip
    assert changed.render == {MOVED: "new-stamp"}


def test_pages_of_other_code_or_missing_from_disk_are_rendered_again() -> None:
    stale = Row("s1", "c1", plan.document_key("another fingerprint", "c1"))
    found = {OLD: "s1", BARE: "s2"}
    cached = {OLD: stale, BARE: current("s2", "c2")}
    sorted_ = plan.sort_found(
        found, cached, {}, {}, fingerprint=FINGERPRINT, on_disk={OLD}, folded=frozenset()
    )
    assert sorted_.render == {OLD: "s1", BARE: "s2"}  # BARE: no article folder on disk


def test_document_without_pages_is_kept_though_no_folder_is_on_disk() -> None:
    cached = {OLD: current("s1", "c1", published=False), BARE: current("s2", "c2")}
    found = {OLD: "s1", BARE: "s2"}
    sorted_ = plan.sort_found(
        found, cached, {}, {}, fingerprint=FINGERPRINT, on_disk=set(),
        folded=frozenset({"2026-11"}),
    )  # fmt: skip
    assert sorted_.kept == {OLD: "s1", BARE: "s2"}  # BARE's month is folded: no pages


def test_bad_ids_and_unreadable_documents_fail_with_a_message_naming_them() -> None:
    cached = {MOVED: current("old", "c1")}
    found = {"../etc": "s0", MOVED: "new"}
    sorted_ = plan.sort_found(
        found, cached, {}, {MOVED: "revision 2 is damaged"}, fingerprint=FINGERPRINT,
        on_disk=set(), folded=frozenset(),
    )  # fmt: skip
    assert sorted_.failures == {
        "../etc": "../etc: not a document id (expected <host>-<16 hex digits>)",
        MOVED: f"{MOVED}: revision 2 is damaged",
    }
    assert plan.to_reread(found, cached) == [MOVED]
    assert not sorted_.kept and not sorted_.render


def test_kept_article_whose_story_moved_is_rendered_again() -> None:
    sketches = {OLD: Sketch("story-1"), NEW: Sketch(""), BARE: Sketch("story-2")}
    links = {OLD: "story-9", NEW: "story-9", BARE: "story-2"}
    kept = {OLD: ("s1", 2), BARE: ("s3", 1)}
    assert plan.relinked(sketches, links, kept, {NEW: "s2"}) == {OLD: "s1"}
    # one already rendered needs nothing more; one left a story links to none now
    assert plan.relinked({OLD: Sketch("story-1")}, {}, kept, {}) == {OLD: "s1"}
    assert plan.relinked({OLD: Sketch("story-1")}, {}, kept, {OLD: "s1"}) == {}


def test_failed_documents_without_a_row_are_gone_as_is_what_a_whole_write_drops() -> None:
    rendered = {NEW: current("s", "c")}
    gone = plan.gone_after_rendering({BARE}, [OLD, NEW, "not-an-id"], rendered, None)
    assert gone == {BARE, OLD}
    whole = plan.gone_after_rendering(set(), [], rendered, [NEW, MOVED, "not-an-id"])
    assert whole == {MOVED}


def test_site_changes_name_the_partitions_and_the_earliest_place() -> None:
    state = {
        NEW: current("s", "c", partition="2026/11/21", first_seen="2026-11-21T09:00:00Z"),
        OLD: current("s", "c", partition="2026/11/20"),
    }
    after_all = ("\U0010ffff", "")
    changed, since = plan.site_changes(
        state, [NEW, MOVED], {"2026/10/01"}, [("2026-11-21T10:00:00Z", NEW)],
        after_all=after_all,
    )  # fmt: skip
    assert changed == {"2026/11/21", "2026/10/01"}  # OLD was kept, not rendered
    assert since == ("2026-11-21T09:00:00Z", NEW)
    assert plan.site_changes(state, [], set(), [], after_all=after_all) == (set(), after_all)


def test_share_window_spans_the_two_cutoffs() -> None:
    assert plan.share_window(None, None) is None
    assert plan.share_window(None, "2026-11-01T00:00:00Z") == ("2026-11-01T00:00:00Z", None)
    assert plan.share_window("2026-11-02T00:00:00Z", "2026-11-01T00:00:00Z") == (
        "2026-11-01T00:00:00Z",
        "2026-11-02T00:00:00Z",
    )


def test_with_pages_lists_the_search_shards_documents() -> None:
    entries = {
        OLD: current("s", "c", partition="2026/10/03"),
        NEW: current("s", "c", partition="2026/11/20"),
        BARE: current("s", "c", published=False),
    }
    assert plan.with_pages(entries, frozenset({"2026-10"})) == {NEW: ("daily", "2026/11/20")}


def test_document_of_a_site_path() -> None:
    assert plan.document_of(f"articles/{OLD}/index.html") == OLD
    assert plan.document_of(f"api/documents/{OLD}.json") == OLD
    assert plan.document_of(f"api/documents/{OLD}/2.json") == OLD
    assert plan.document_of("articles/index.html") == ""
    assert plan.document_of("feeds/daily.xml") == ""
