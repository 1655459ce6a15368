"""The pure page models: text cleaning, safe links, Diff JSON → rows, excerpts, pagination."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from quietedit.archive.records import new_revision
from quietedit.model import Article, Block, Publisher
from quietedit.publish.api import lean_classification
from quietedit.publish.changes import compare_revisions
from quietedit.publish.classification import findings_of, marked_pieces, trimmed, verdict_of
from quietedit.publish.diffview import (
    CONTEXT_WORDS,
    PARAGRAPH_BREAK,
    BlockJSON,
    DiffRow,
    around_changes,
    block_segments,
    collapsed,
    diff_rows,
    excerpt_of,
)
from quietedit.publish.listing import PAGE_SIZE, EditRef, compute_stats, ordered, paginate
from quietedit.publish.pages import Edit, event_line, make_edit
from quietedit.publish.render import clock, minute
from quietedit.publish.text import clean_text, host_slug, safe_http_url
from quietedit.revisions import Event, Observation, Revision

T0 = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
DOC = "news-example-org-0123456789abcdef"


def revision(title: str, *paragraphs: str, previous: Revision | None = None) -> Revision:
    observation = Observation(
        url="https://news.example.org/a",
        observed_at=T0 + timedelta(hours=0 if previous is None else previous.number),
        article=Article(title, tuple(Block(p) for p in paragraphs)),
        extractor="tests/1",
    )
    return new_revision(DOC, observation, previous=previous)


@given(st.text())
def test_cleaned_text_has_no_xml_illegal_character(text: str) -> None:
    cleaned = clean_text(text)
    assert all(
        ch in "\t\n\r"
        or (0x20 <= ord(ch) < 0xD800 and ord(ch) != 0x7F)
        or 0xE000 <= ord(ch) <= 0xFFFD
        or ord(ch) > 0xFFFF
        for ch in cleaned
    )


@given(st.text())
def test_safe_url_is_http_or_nothing(text: str) -> None:
    url = safe_http_url(text)
    assert url is None or (url.lower().startswith(("http://", "https://")) and url == text)


def test_script_and_data_urls_are_refused_and_web_urls_kept() -> None:
    assert safe_http_url("javascript:alert(1)") is None
    assert safe_http_url(" JavaScript:alert(1)") is None
    assert safe_http_url("data:text/html,<script>") is None
    assert safe_http_url("https://news.example.org/a?b=1") == "https://news.example.org/a?b=1"
    assert safe_http_url("https://") is None


def test_host_slug_is_a_valid_source_slug() -> None:
    assert host_slug("https://www.News.Example.org/x") == "news-example-org"
    assert host_slug(None) == "unknown-source"


def test_split_and_merge_parts_are_joined_with_a_paragraph_break() -> None:
    split: BlockJSON = {
        "op": "split",
        "old": 0,
        "new": [0, 1],
        "kind": ["paragraph", "paragraph"],
        "similarity": 0.9,
        "words": [[["=", "One."], ["+", " Two"]], [["=", "Three."]]],
    }
    assert block_segments(split) == (
        ("=", "One."),
        ("+", " Two"),
        (PARAGRAPH_BREAK, ""),
        ("=", "Three."),
    )
    changed: BlockJSON = {
        "op": "changed",
        "old": 0,
        "new": 0,
        "kind": "paragraph",
        "similarity": 0.5,
        "words": [["=", "a "], ["-", "b\x0b"]],
    }
    assert block_segments(changed) == (("=", "a "), ("-", "b"))  # text cleaned


def test_a_split_paragraph_becomes_one_row_with_both_new_paragraphs() -> None:
    first = "The council met on Monday evening to debate the budget for the coming year."
    second = "After four hours it approved the plan by a wide margin of votes cast."
    old = revision("T", f"{first} {second}", "Closing words of the article stay.")
    new = revision("T", first, second, "Closing words of the article stay.", previous=old)
    rows = diff_rows(compare_revisions(old, new).diff, old, new)
    assert [r.op for r in rows] == ["split", "kept"]
    assert rows[0].new_text == f"{first} {second}" and rows[0].old_index == 0
    assert (PARAGRAPH_BREAK, "") in rows[0].segments


def test_moved_paragraph_gets_a_stub_at_its_old_place_linked_both_ways() -> None:
    old = revision("T", "Alpha paragraph here.", "Beta paragraph here.", "Gamma paragraph here.")
    new = revision(
        "T",
        "Gamma paragraph here.",
        "Alpha paragraph here.",
        "Beta paragraph here.",
        previous=old,
    )
    rows = diff_rows(compare_revisions(old, new).diff, old, new)
    moved = [r for r in rows if r.op == "moved"]
    stubs = [r for r in rows if r.op == "moved-from"]
    assert len(moved) == 1 and len(stubs) == 1
    assert moved[0].partner == stubs[0].anchor and stubs[0].partner == moved[0].anchor
    assert moved[0].new_text == "Gamma paragraph here."
    assert len({r.anchor for r in rows}) == len(rows)


def test_a_diff_page_shows_the_change_with_trimmed_context_and_counts_the_rest() -> None:
    paragraphs = [f"Paragraph {n} " + " ".join(f"w{n}x{k}" for k in range(60)) for n in range(9)]
    old = revision("T", *paragraphs)
    changed = [*paragraphs[:4], paragraphs[4].replace("w4x30", "CHANGED"), *paragraphs[5:]]
    new = revision("T", *changed, previous=old)
    shown = collapsed(diff_rows(compare_revisions(old, new).diff, old, new))
    assert [r if isinstance(r, int) else r.op for r in shown] == [3, "kept", "changed", "kept", 3]
    before, change, after = (r for r in shown if isinstance(r, DiffRow))
    # the context paragraphs: the end of the one before, the start of the one after
    assert before.new_text.startswith("… ") and before.new_text.endswith("w3x59")
    assert after.new_text.startswith("Paragraph 5 ") and after.new_text.endswith(" …")
    assert len(before.new_text.split()) == len(after.new_text.split()) == CONTEXT_WORDS + 1
    assert ("+", "CHANGED ") in change.segments  # the change itself, whole
    # the changed paragraph's own unchanged words: cut to CONTEXT_WORDS beside the change
    lead, *_, tail = change.segments
    assert lead[0] == tail[0] == "="
    assert lead[1].startswith("… ") and lead[1].endswith("w4x29 ")
    assert tail[1].startswith("w4x31") and tail[1].endswith(" …")
    assert len(lead[1].split()) == len(tail[1].split()) == CONTEXT_WORDS + 1


def test_a_run_between_two_changes_keeps_its_two_ends() -> None:
    words = " ".join(f"w{n}" for n in range(3 * CONTEXT_WORDS))
    segments = (("=", "Start "), ("-", "old"), ("+", "new"), ("=", f" {words} "), ("+", "end"))
    _, _, _, middle, _ = around_changes(segments)
    kept = middle[1].split()
    assert kept[CONTEXT_WORDS] == "…" and len(kept) == 2 * CONTEXT_WORDS + 1
    assert middle[1].startswith(" w0 ") and middle[1].endswith(f" w{3 * CONTEXT_WORDS - 1} ")
    short = (("=", "It rose to "), ("-", "48"), ("+", "84"), ("=", " million."))
    assert around_changes(short) == short  # nothing to cut
    unchanged = (("=", words),)
    assert around_changes(unchanged) == unchanged  # no change to stand beside


def test_excerpt_shows_the_changed_words_with_context() -> None:
    old = revision(
        "T", "The council approved a budget of 4.2 million euros on Monday after a debate."
    )
    new = revision(
        "T",
        "The council approved a budget of 4.8 million euros on Monday after a debate.",
        previous=old,
    )
    comparison = compare_revisions(old, new)
    excerpt = excerpt_of(diff_rows(comparison.diff, old, new))
    assert ("-", "4.2 ") in excerpt and ("+", "4.8 ") in excerpt
    assert excerpt[0][0] == "="
    # a long paragraph: a few words on each side of the change, not the rest of it
    tail = " ".join(f"w{n}" for n in range(30))
    old = revision("T", f"The council approved a budget of 4.2 million euros. {tail}")
    new = revision("T", f"The council approved a budget of 4.8 million euros. {tail}", previous=old)
    excerpt = excerpt_of(diff_rows(compare_revisions(old, new).diff, old, new))
    assert excerpt[-1] == ("=", "million euros. w0 w1 w2 w3 w4 w5 …")


def test_edit_survives_its_cache_row() -> None:
    old = revision("Old headline", "Same text.")
    new = revision("New headline", "Same text.", previous=old)
    comparison = compare_revisions(old, new)
    edit = make_edit(
        DOC,
        old,
        new,
        diff=comparison.diff,
        classification=comparison.classification,
        url="https://news.example.org/a",
        source="news",
    )
    assert "headline" in edit.kinds and edit.summary.startswith("headline changed")
    assert Edit.from_row(edit.to_row()) == edit


def edit_at(hour: int, rank: int = 0, doc: str = DOC) -> EditRef:
    moment = (T0 + timedelta(hours=hour)).isoformat().replace("+00:00", "Z")
    return EditRef.of(
        Edit(doc, 2, moment, moment, "t", "t", None, "s", (), "minor", rank, True, (), "x", None)
    )


@given(st.integers(min_value=0, max_value=4 * PAGE_SIZE + 3))
def test_every_edit_is_on_exactly_one_archive_page_and_the_front_shows_the_newest(n: int) -> None:
    edits = ordered([edit_at(h) for h in range(n)])
    pages = paginate(edits, base="", heading="Recent edits")
    front = [e for _, items in pages[0].groups for e in items]
    assert front == edits[:PAGE_SIZE]
    archived = [e for page in pages[1:] for _, items in page.groups for e in items]
    assert sorted(archived) == sorted(edits) if n > PAGE_SIZE else archived == []


def test_archive_pages_keep_their_edits_when_a_new_edit_arrives() -> None:
    before = paginate(ordered([edit_at(h) for h in range(3 * PAGE_SIZE)]), base="", heading="E")
    after = paginate(ordered([edit_at(h) for h in range(3 * PAGE_SIZE + 1)]), base="", heading="E")
    by_path = {p.path: p.groups for p in after}
    assert [p.path for p in before[1:]] == ["edits/1", "edits/2", "edits/3"]
    assert by_path["edits/1"] == before[1].groups and by_path["edits/2"] == before[2].groups


def test_the_most_significant_edit_of_a_day_leads_it() -> None:
    minor_late, major_early = edit_at(5, rank=0), edit_at(1, rank=3, doc="b-0000000000000000")
    assert ordered([minor_late, major_early]) == [major_early, minor_late]


def test_stats_bin_the_time_from_publication_and_end_on_the_newest_edit() -> None:
    published = "2026-11-28T08:30:00Z"
    edit = Edit(
        DOC,
        2,
        "2026-11-28T12:00:00Z",
        "",
        "t",
        "t",
        None,
        "s",
        ("facts",),
        "minor",
        1,
        True,
        (),
        "x",
        published,
    )
    stats = compute_stats([EditRef.of(edit)], [])
    assert stats.days[-1] == "2026-11-28" and stats.per_day == {"s": (0,) * 29 + (1,)}
    assert dict(stats.delays)["1 to 6 hours"] == 1 and stats.kinds == (("facts", 1),)


def test_events_are_described_in_words_with_their_evidence() -> None:
    feed_edit = Event(
        DOC,
        1,
        "feed-edit",
        T0,
        detail={
            "feed": "courier",
            "fields": ["title"],
            "before": {"title": "Mayor quits", "summary": "x"},
            "after": {"title": "Mayor resigns\x0b", "summary": "x"},
        },
    )
    assert (
        event_line(feed_edit) == "The feed changed its title from “Mayor quits” to “Mayor resigns”."
    )
    gone = Event(DOC, 2, "gone", T0, revision=1, detail={"status": 410})
    assert event_line(gone) == "The article was taken down (HTTP 410)."
    anomaly = Event(DOC, 3, "anomaly", T0, detail={"reason": "consent wall"})
    assert event_line(anomaly).endswith("revision: consent wall.")


def test_signals_with_nothing_to_tell_are_said_in_one_sentence() -> None:
    old = revision("Mayor quits", "The mayor quit on Monday.")
    new = revision("Mayor quits", "The mayor quit on Tuesday.", previous=old)
    verdict = verdict_of(compare_revisions(old, new).classification)
    assert verdict.silent is True and verdict.evidence == ()
    assert verdict.nothing == "No dateModified, “Updated” line or note in either revision"
    assert verdict.unchecked == ("sitemap <lastmod>", "feed entry date")

    # a signal with something to tell keeps its own line
    def dated(text: str, modified: str, previous: Revision | None = None) -> Revision:
        article = Article("Mayor quits", (Block(text),), Publisher(date_modified=modified))
        at = T0 + timedelta(hours=0 if previous is None else 1)
        observed = Observation("https://news.example.org/a", at, article, "tests/1")
        return new_revision(DOC, observed, previous=previous)

    first = dated("The mayor quit on Monday.", "2026-11-28T09:00:00Z")
    second = dated("The mayor quit on Tuesday.", "2026-11-28T10:00:00Z", first)
    verdict = verdict_of(compare_revisions(first, second).classification)
    assert verdict.silent is False
    assert verdict.evidence == (
        "date-modified: seen — dateModified changed: 2026-11-28T09:00:00Z → 2026-11-28T10:00:00Z",
    )
    assert verdict.nothing == "No “Updated” line or note in either revision"


def test_a_sentence_marked_whole_keeps_its_start() -> None:
    added = " ".join(f"w{n}" for n in range(30))
    assert trimmed(((added, True),)) == (("w0 w1 w2 w3 w4 w5 w6 w7 …", True),)
    short = " ".join(f"w{n}" for n in range(16))
    assert trimmed(((short, True),)) == ((short, True),)


def test_marks_cut_a_sentence_into_pieces_that_join_back_to_it() -> None:
    text = "Crews are expected on Saturday, officials said."
    assert marked_pieces(text, [[22, 30]]) == (
        ("Crews are expected on ", False),
        ("Saturday", True),
        (", officials said.", False),
    )
    # overlapping marks merge; a mark past the end or malformed is cut or ignored
    assert marked_pieces("ab cd", [[0, 2], [1, 4], [3, 99], [7]]) == (("ab cd", True),)
    # control characters are cleaned after the cut, so the offsets still hold
    assert marked_pieces("a\x00b c", [[2, 3]]) == (("a", False), ("b", True), (" c", False))


@given(st.text(max_size=40), st.lists(st.tuples(st.integers(-5, 45), st.integers(-5, 45))))
def test_marked_pieces_keep_every_legal_character_in_order(
    text: str, marks: list[tuple[int, int]]
) -> None:
    pieces = marked_pieces(text, [list(m) for m in marks])
    assert "".join(piece for piece, _ in pieces) == clean_text(text)


def test_findings_read_classifications_cached_before_sentences_existed() -> None:
    old_record = {"findings": {"typo": {"significance": "cosmetic", "evidence": ["block 1"]}}}
    (found,) = findings_of(old_record)  # type: ignore[arg-type]
    assert (found.kind, found.lines, found.sentences) == ("typo", ("block 1",), ())


def test_a_findings_sentence_is_cut_to_the_words_around_its_marks() -> None:
    before = " ".join(f"w{n}" for n in range(20))
    after = " ".join(f"z{n}" for n in range(20))
    text = f"{before} 48 million {after}."
    start = text.index("48")
    pieces = trimmed(marked_pieces(text, [[start, start + 2]]))
    assert pieces == (
        ("… w15 w16 w17 w18 w19 ", False),
        ("48", True),
        (" million z0 z1 z2 z3 …", False),
    )
    # between two marks a long run keeps its ends; a sentence without marks, its start
    middle = trimmed((("a", True), (f" {before} ", False), ("b", True)))
    assert middle[1] == (" w0 w1 w2 w3 w4 … w15 w16 w17 w18 w19 ", False)
    assert trimmed(((text, False),)) == ((" ".join(text.split()[:10]) + " …", False),)
    short = marked_pieces("It rose to 48.", [[11, 13]])
    assert trimmed(short) == short  # nothing to cut


def test_a_sentence_that_decided_two_kinds_is_shown_once() -> None:
    sentence = {
        "where": "block 1",
        "old": "It was 48.",
        "new": "It was 84.",
        "old_marks": [[7, 9]],
        "new_marks": [[7, 9]],
    }
    other = {**sentence, "old_marks": [[0, 2]], "new_marks": [[0, 2]]}
    record = {
        "findings": {
            "facts": {
                "significance": "substantive",
                "evidence": ["48 → 84"],
                "sentences": [sentence],
            },
            "lede": {
                "significance": "moderate",
                "evidence": ["block 1"],
                "sentences": [sentence, other],
            },
        }
    }
    facts, lede = findings_of(record)  # type: ignore[arg-type]
    assert len(facts.sentences) == 1
    # the same sentence with the same words marked is not repeated; other marks are shown
    assert len(lede.sentences) == 1 and lede.sentences[0].new[0] == ("It", True)
    assert lede.lines == ("block 1",)


def test_a_time_to_the_minute_and_a_time_of_day() -> None:
    assert minute("2026-11-30T08:15:42.731767Z") == "2026-11-30T08:15Z"
    assert minute("2026-11-30T09:15:00+01:00") == "2026-11-30T08:15Z"
    assert clock("2026-11-30T08:15:42Z") == "08:15 UTC"
    assert minute("yesterday") == clock("yesterday") == "yesterday"  # not a timestamp: as is


def test_an_evidence_line_that_a_marked_sentence_shows_is_left_out() -> None:
    sentence = {
        "where": "block 3",
        "old": "It was 4.2 million.",
        "new": "It was 4.5 million.",
        "old_marks": [[7, 10]],
        "new_marks": [[7, 10]],
    }
    quote = {
        "where": "quote added",
        "old": "",
        "new": '"We will," she said.',
        "old_marks": [],
        "new_marks": [[1, 9]],
    }
    record = {
        "findings": {
            "facts": {
                "significance": "substantive",
                "evidence": ["block 3: 4.2 → 4.5"],
                "sentences": [sentence],
            },
            "quote": {
                "significance": "moderate",
                "evidence": ["quote added: “We will,”", "quote removed: “No.”"],
                "sentences": [quote],
                "restating": [0],
            },
            "style": {
                "significance": "minor",
                "evidence": ["block 3: was [-4.2-]{+4.5+} million", "block 7: [-a-]{+the+} day"],
                "sentences": [{**sentence, "old_marks": [[0, 2]], "new_marks": [[0, 2]]}],
                "restating": [0, 1],
            },
        }
    }
    facts, said, style = findings_of(record)  # type: ignore[arg-type]
    # a line the finding does not name as restating stays; one it names goes
    assert facts.lines == ("block 3: 4.2 → 4.5",)
    assert said.lines == ("quote removed: “No.”",)
    # a place no sentence shows keeps its line
    assert style.lines == ("block 7: [-a-]{+the+} day",)
    # the page reads the finding's word, not the line's form: a quotation not named stays
    del record["findings"]["quote"]["restating"]  # type: ignore[attr-defined]
    unnamed = findings_of(record)[1]  # type: ignore[arg-type]
    assert unnamed.lines == ("quote added: “We will,”", "quote removed: “No.”")


def test_the_api_keeps_every_evidence_line_and_not_which_restate() -> None:
    text = "The school on Lindenweg was {} for two weeks in October, the council said."
    new = revision("Budget", text.format("closed"))
    newer = revision("Budget", text.format("shut"), previous=new)
    classification = compare_revisions(new, newer).classification
    findings = classification["findings"]
    assert isinstance(findings, dict) and any(
        isinstance(f, dict) and "restating" in f for f in findings.values()
    )
    lean = lean_classification(classification)
    assert isinstance(lean["findings"], dict)
    for kind, finding in lean["findings"].items():
        full = findings[kind]
        assert isinstance(finding, dict) and isinstance(full, dict)
        assert set(finding) == {"significance", "evidence"}
        assert finding["evidence"] == full["evidence"]
