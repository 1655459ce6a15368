"""robots.txt rules (pure): RFC 9309 matching through Protego, and what each status means."""

from __future__ import annotations

import pytest

from quietedit.fetch import robots_allowed
from quietedit.fetch.robots import RobotsPolicy, policy_from_response, product_token

UA = "quietedit/0.1.0 (+https://github.com/quietedit/quietedit)"
ROBOTS = """\
User-agent: *
Disallow: /suche
Disallow: /*?utm_
Disallow: /*.pdf$
Crawl-delay: 2

User-agent: QuietEdit
Disallow: /news/private/
Allow: /news/
Disallow: /archiv
Allow: /archiv/2026$
Disallow: /caf%C3%A9
Disallow: /%7Ejoe/
Disallow: /a%2Fb
Crawl-delay: 4.5
"""


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("/news/2026/budget", True),
        ("/news/private/memo", False),  # longest match, not first match
        ("/suche?q=x", True),  # our group replaces the * group entirely
        ("/archiv/2025/x", False),
        ("/archiv/2026", True),  # Allow ...$ is longer than Disallow /archiv
        ("/archiv/2026/x", False),
        ("/café", False),  # rule spells it /caf%C3%A9
        ("/caf%c3%a9", False),  # lowercase hex is the same octet
        ("/~joe/home", False),  # %7E is "~", an unreserved character
        ("/a/b", True),  # %2F is not "/"
        ("/a%2Fb", False),
    ],
)
def test_rules_match_longest_first_after_percent_encoding_normalisation(
    path: str, allowed: bool
) -> None:
    assert robots_allowed(ROBOTS, user_agent=UA, url=f"https://news.example.org{path}") is allowed


@pytest.mark.parametrize(
    ("path", "allowed"), [("/a.pdf", False), ("/a.pdf?x=1", True), ("/x?utm_source=rss", False)]
)
def test_wildcards_and_end_anchors_apply_to_other_agents(path: str, allowed: bool) -> None:
    url = f"https://news.example.org{path}"
    assert robots_allowed(ROBOTS, user_agent="OtherBot/1.0", url=url) is allowed


def test_no_matching_rule_means_allowed() -> None:
    assert robots_allowed("", user_agent=UA, url="https://news.example.org/anything")
    assert robots_allowed("User-agent: otherbot\nDisallow: /\n", user_agent=UA, url="https://x/")


def test_groups_are_matched_by_our_product_token() -> None:
    assert product_token(UA) == "quietedit"
    assert product_token("  QuietEdit/2 ") == "quietedit"
    other = "User-agent: quietedit-images\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
    assert robots_allowed(other, user_agent=UA, url="https://news.example.org/")
    ours = "User-agent: QUIETEDIT\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
    assert not robots_allowed(ours, user_agent=UA, url="https://news.example.org/")


def test_a_2xx_gives_rules_and_the_crawl_delay() -> None:
    policy = policy_from_response(200, b"\xef\xbb\xbf" + ROBOTS.encode())
    assert policy.mode == "rules"
    assert not policy.allows("https://x/news/private/a", user_agent=UA)
    assert policy.crawl_delay(user_agent=UA) == 4.5
    assert policy.crawl_delay(user_agent="OtherBot") == 2.0


@pytest.mark.parametrize("status", [400, 401, 403, 404, 410, 451])
def test_a_4xx_allows_everything(status: int) -> None:
    policy = policy_from_response(status, b"User-agent: *\nDisallow: /\n")
    assert policy.mode == "allow" and policy.allows("https://x/private", user_agent=UA)
    assert policy.crawl_delay(user_agent=UA) is None


@pytest.mark.parametrize("status", [429, 500, 503, 302])
def test_5xx_and_429_disallow_everything(status: int) -> None:
    policy = policy_from_response(status, b"")
    assert policy.mode == "disallow" and not policy.allows("https://x/", user_agent=UA)
    assert "unreachable" in policy.reason


def test_an_undecodable_robots_txt_is_still_read() -> None:
    policy = policy_from_response(200, b"User-agent: *\nDisallow: /priv\xe9/\nDisallow: /x\n")
    assert not policy.allows("https://x/x", user_agent=UA)


def test_a_policy_without_rules_disallows() -> None:
    assert not RobotsPolicy("rules", "broken").allows("https://x/", user_agent=UA)
