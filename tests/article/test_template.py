"""Per-host templates: a host's recurring blocks are learnt and dropped, its prose is not.

The fixture host ``lakeside-herald`` (four articles) carries an app promo and a support
appeal that read as prose and use class names no vocabulary knows.
"""

from __future__ import annotations

import json

import pytest

from quietedit.article.extract import extract_article
from quietedit.article.template import HostProfile, learn_host_profile
from quietedit.errors import HostProfileError, QuieteditError
from quietedit.model import Article, Block
from tests.article.conftest import PAGES

HOST = PAGES / "lakeside-herald"
PROMO = "Never miss a story from around the lake"
APPEAL = "The Lakeside Herald is an independent, reader-funded newsroom."
NAMES = ["ash", "beech", "cedar", "elm", "fir", "hazel", "larch", "oak", "pine", "yew"]


def host_pages() -> list[bytes]:
    return [path.read_bytes() for path in sorted(HOST.glob("*.html"))]


def body(article: Article) -> str:
    return "\n".join(block.text for block in article.blocks)


def test_without_a_profile_the_hosts_promo_lines_pass_for_prose() -> None:
    article = extract_article(host_pages()[0])
    assert PROMO in body(article) and APPEAL in body(article)


def test_a_profile_learnt_from_the_host_drops_its_furniture_and_keeps_each_story() -> None:
    pages = host_pages()
    profile = learn_host_profile(pages, host="lakesideherald.example")
    assert profile.pages == 4
    assert len(profile.furniture) == 2
    for page in pages:
        plain = extract_article(page)
        learnt = extract_article(page, profile=profile)
        assert PROMO not in body(learnt) and APPEAL not in body(learnt)
        assert len(learnt.blocks) == 3
        assert [b for b in plain.blocks if not profile.is_furniture(b.text)] == list(learnt.blocks)


def test_revisions_of_one_article_count_once_so_its_paragraphs_are_not_learnt() -> None:
    page = host_pages()[0]
    profile = learn_host_profile([page] * 5, host="lakesideherald.example")
    assert profile.pages == 1
    assert profile.furniture == ()


def test_a_line_must_recur_in_enough_articles_and_enough_of_them() -> None:
    def article(n: int, *extra: str) -> Article:
        blocks = (Block(f"Story {NAMES[n]} is about something else."), *map(Block, extra))
        return Article(f"Story {NAMES[n]}", blocks)

    stories = [article(n, "Follow the desk on the river app.") for n in range(2)]
    stories += [article(n) for n in range(2, 10)]
    assert learn_host_profile(stories, host="h").furniture == ()  # in 2 articles only
    assert learn_host_profile(stories, host="h", min_pages=2, min_share=0.2).furniture == (
        "follow the desk on the river app.",
    )
    assert learn_host_profile(stories, host="h", min_pages=2, min_share=0.25).furniture == ()


def test_lines_that_differ_only_in_case_space_and_digits_are_one_furniture_line() -> None:
    stories = [
        Article(f"Story {name}", (Block(f"Body of story {name}."), Block(f"©  20{20 + n} Herald")))
        for n, name in enumerate(NAMES[:4])
    ]
    profile = learn_host_profile(stories, host="h")
    assert profile.furniture == ("© 0 herald",)
    assert profile.is_furniture("© 2031   HERALD")


def test_the_profile_record_is_deterministic_json_and_reads_back() -> None:
    profile = learn_host_profile(host_pages(), host="lakesideherald.example")
    again = learn_host_profile(reversed(host_pages()), host="lakesideherald.example")
    record = profile.to_record()
    assert again.to_record() == record
    furniture = record["furniture"]
    assert isinstance(furniture, list) and furniture == sorted(map(str, furniture))
    assert HostProfile.from_record(json.loads(json.dumps(record))) == profile


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([], "JSON object"),
        ({"version": 99, "host": "h", "pages": 1, "furniture": []}, "version 99"),
        ({"version": 1, "host": 3, "pages": 1, "furniture": []}, "'host'"),
        ({"version": 1, "host": "h", "pages": -1, "furniture": []}, "'pages'"),
        ({"version": 1, "host": "h", "pages": True, "furniture": []}, "'pages'"),
        ({"version": 1, "host": "h", "pages": 1, "furniture": [1]}, "'furniture'"),
    ],
)
def test_a_bad_profile_record_is_an_error_naming_the_field(record: object, message: str) -> None:
    with pytest.raises(HostProfileError, match=message) as caught:
        HostProfile.from_record(record)
    assert isinstance(caught.value, QuieteditError)
