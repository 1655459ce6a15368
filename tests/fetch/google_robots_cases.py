# ruff: noqa: E501
"""Google's robots.txt parser test cases (``robots_test.cc``), ported as data.

Source: https://github.com/google/robotstxt, ``robots_test.cc``, Copyright 2019 Google LLC,
licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0).
Changes: the gtest assertions of ``IsUserAgentAllowed(robotstxt, useragent, url)`` are
rewritten as rows ``(test name, robots.txt, user agent, url, allowed)``. Left out: the
``IsValidUserAgentToObey`` checks (they validate a crawler's own name, not a robots.txt) and
the parse-report tests (line counts, sitemaps), which have no allow/disallow answer.
"""

from __future__ import annotations

from typing import Final

Case = tuple[str, str, str, str, bool]

_GROUPS = (
    "allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\n"
    "disallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\n"
    "allow: /z/\ndisallow: /\n"
)
_UPPER = "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n"
_LOWER = "user-agent: FooBot\nallow: /x/\ndisallow: /\n"
_CAMEL = "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n"
_UA_UPPER = "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n"
_UA_LOWER = "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n"
_UA_CAMEL = "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n"
_GLOBAL = "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n"
_ONLY_SPECIFIC = (
    "user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\n"
    "disallow: /\n"
)
_FISH = "user-agent: FooBot\ndisallow: /\nallow: /fish\n"
_FISH_STAR = "user-agent: FooBot\ndisallow: /\nallow: /fish*\n"
_FISH_SLASH = "user-agent: FooBot\ndisallow: /\nallow: /fish/\n"
_PHP = "user-agent: FooBot\ndisallow: /\nallow: /*.php\n"
_PHP_END = "user-agent: FooBot\ndisallow: /\nallow: /*.php$\n"
_FISH_PHP = "user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n"
_INDEX = "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n"
_MAX_LINE = 2083 * 8


def _long_lines() -> list[Case]:
    """GoogleOnly_LineTooLong: lines are cut after 8 * 2083 bytes."""
    longline = "/x/"
    while len(longline) < _MAX_LINE - len("/x/") - len("disallow: ") + 1:
        longline += "a"
    first = "user-agent: FooBot\n" + "disallow: " + longline + "/qux\n"
    longline_a, longline_b = "/x/", "/x/"
    while len(longline_a) < _MAX_LINE - len("/x/") - len("allow: ") + 1:
        longline_a += "a"
        longline_b += "b"
    second = (
        "user-agent: FooBot\ndisallow: /\n"
        + "allow: " + longline_a + "/qux\n"
        + "allow: " + longline_b + "/qux\n"
    )  # fmt: skip
    return [
        ("GoogleOnly_LineTooLong", first, "FooBot", "http://foo.bar/fux", True),
        ("GoogleOnly_LineTooLong", first, "FooBot", f"http://foo.bar{longline}/fux", False),
        ("GoogleOnly_LineTooLong", second, "FooBot", "http://foo.bar/", False),
        ("GoogleOnly_LineTooLong", second, "FooBot", f"http://foo.bar{longline_a}/qux", True),
        ("GoogleOnly_LineTooLong", second, "FooBot", f"http://foo.bar{longline_b}/fux", True),
    ]


CASES: Final[tuple[Case, ...]] = (
    ("GoogleOnly_SystemTest", "", "FooBot", "", True),
    ("GoogleOnly_SystemTest", "user-agent: FooBot\ndisallow: /\n", "", "", True),
    ("GoogleOnly_SystemTest", "user-agent: FooBot\ndisallow: /\n", "FooBot", "", False),
    ("GoogleOnly_SystemTest", "", "", "", True),
    ("ID_LineSyntax_Line", "user-agent: FooBot\ndisallow: /\n", "FooBot", "http://foo.bar/x/y", False),
    ("ID_LineSyntax_Line", "foo: FooBot\nbar: /\n", "FooBot", "http://foo.bar/x/y", True),
    ("ID_LineSyntax_Line", "user-agent FooBot\ndisallow /\n", "FooBot", "http://foo.bar/x/y", False),
    ("ID_LineSyntax_Groups", _GROUPS, "FooBot", "http://foo.bar/x/b", True),
    ("ID_LineSyntax_Groups", _GROUPS, "FooBot", "http://foo.bar/z/d", True),
    ("ID_LineSyntax_Groups", _GROUPS, "FooBot", "http://foo.bar/y/c", False),
    ("ID_LineSyntax_Groups", _GROUPS, "BarBot", "http://foo.bar/y/c", True),
    ("ID_LineSyntax_Groups", _GROUPS, "BarBot", "http://foo.bar/w/a", True),
    ("ID_LineSyntax_Groups", _GROUPS, "BarBot", "http://foo.bar/z/d", False),
    ("ID_LineSyntax_Groups", _GROUPS, "BazBot", "http://foo.bar/z/d", True),
    ("ID_LineSyntax_Groups", _GROUPS, "FooBot", "http://foo.bar/foo/bar/", False),
    ("ID_LineSyntax_Groups", _GROUPS, "BarBot", "http://foo.bar/foo/bar/", False),
    ("ID_LineSyntax_Groups", _GROUPS, "BazBot", "http://foo.bar/foo/bar/", False),
    ("ID_LineSyntax_GroupsOtherRules", "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n", "FooBot", "http://foo.bar/", False),
    ("ID_LineSyntax_GroupsOtherRules", "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n", "BarBot", "http://foo.bar/", False),
    ("ID_LineSyntax_GroupsOtherRules", "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n", "FooBot", "http://foo.bar/", False),
    ("ID_LineSyntax_GroupsOtherRules", "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n", "BarBot", "http://foo.bar/", False),
    ("ID_REPLineNamesCaseInsensitive", _UPPER, "FooBot", "http://foo.bar/x/y", True),
    ("ID_REPLineNamesCaseInsensitive", _LOWER, "FooBot", "http://foo.bar/x/y", True),
    ("ID_REPLineNamesCaseInsensitive", _CAMEL, "FooBot", "http://foo.bar/x/y", True),
    ("ID_REPLineNamesCaseInsensitive", _UPPER, "FooBot", "http://foo.bar/a/b", False),
    ("ID_REPLineNamesCaseInsensitive", _LOWER, "FooBot", "http://foo.bar/a/b", False),
    ("ID_REPLineNamesCaseInsensitive", _CAMEL, "FooBot", "http://foo.bar/a/b", False),
    ("ID_UserAgentValueCaseInsensitive", _UA_UPPER, "Foo", "http://foo.bar/x/y", True),
    ("ID_UserAgentValueCaseInsensitive", _UA_LOWER, "Foo", "http://foo.bar/x/y", True),
    ("ID_UserAgentValueCaseInsensitive", _UA_CAMEL, "Foo", "http://foo.bar/x/y", True),
    ("ID_UserAgentValueCaseInsensitive", _UA_UPPER, "Foo", "http://foo.bar/a/b", False),
    ("ID_UserAgentValueCaseInsensitive", _UA_LOWER, "Foo", "http://foo.bar/a/b", False),
    ("ID_UserAgentValueCaseInsensitive", _UA_CAMEL, "Foo", "http://foo.bar/a/b", False),
    ("ID_UserAgentValueCaseInsensitive", _UA_UPPER, "foo", "http://foo.bar/x/y", True),
    ("ID_UserAgentValueCaseInsensitive", _UA_LOWER, "foo", "http://foo.bar/x/y", True),
    ("ID_UserAgentValueCaseInsensitive", _UA_CAMEL, "foo", "http://foo.bar/x/y", True),
    ("ID_UserAgentValueCaseInsensitive", _UA_UPPER, "foo", "http://foo.bar/a/b", False),
    ("ID_UserAgentValueCaseInsensitive", _UA_LOWER, "foo", "http://foo.bar/a/b", False),
    ("ID_UserAgentValueCaseInsensitive", _UA_CAMEL, "foo", "http://foo.bar/a/b", False),
    ("GoogleOnly_AcceptUserAgentUpToFirstSpace", "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n", "Foo", "http://foo.bar/x/y", True),
    ("GoogleOnly_AcceptUserAgentUpToFirstSpace", "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n", "Foo Bar", "http://foo.bar/x/y", False),
    ("ID_GlobalGroups_Secondary", "", "FooBot", "http://foo.bar/x/y", True),
    ("ID_GlobalGroups_Secondary", _GLOBAL, "FooBot", "http://foo.bar/x/y", False),
    ("ID_GlobalGroups_Secondary", _GLOBAL, "BarBot", "http://foo.bar/x/y", True),
    ("ID_GlobalGroups_Secondary", _ONLY_SPECIFIC, "QuxBot", "http://foo.bar/x/y", True),
    ("ID_AllowDisallow_Value_CaseSensitive", "user-agent: FooBot\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/y", False),
    ("ID_AllowDisallow_Value_CaseSensitive", "user-agent: FooBot\ndisallow: /X/\n", "FooBot", "http://foo.bar/x/y", True),
    ("ID_LongestMatch", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", "FooBot", "http://foo.bar/x/page.html", False),
    ("ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/page.html", True),
    ("ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/", False),
    ("ID_LongestMatch", "user-agent: FooBot\ndisallow: \nallow: \n", "FooBot", "http://foo.bar/x/page.html", True),
    ("ID_LongestMatch", "user-agent: FooBot\ndisallow: /\nallow: /\n", "FooBot", "http://foo.bar/x/page.html", True),
    ("ID_LongestMatch", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x", False),
    ("ID_LongestMatch", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x/", True),
    ("ID_LongestMatch", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", "FooBot", "http://foo.bar/x/page.html", True),
    ("ID_LongestMatch", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page.html", False),
    ("ID_LongestMatch", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page", True),
    ("ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", "http://foo.bar/x/page.html", True),
    ("ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", "http://foo.bar/x/y.html", False),
    ("ID_LongestMatch", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/x/page", True),
    ("ID_LongestMatch", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/y/page", False),
    ("ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n", "FooBot", "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par", True),
    ("ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/\u30c4\n", "FooBot", "http://foo.bar/foo/bar/%E3%83%84", True),
    ("ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/\u30c4\n", "FooBot", "http://foo.bar/foo/bar/\u30c4", False),
    ("ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", "FooBot", "http://foo.bar/foo/bar/%E3%83%84", True),
    ("ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", "FooBot", "http://foo.bar/foo/bar/\u30c4", False),
    ("ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot", "http://foo.bar/foo/bar/baz", False),
    ("ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot", "http://foo.bar/foo/bar/%62%61%7A", True),
    ("ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo/bar/quz", False),
    ("ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo/quz", True),
    ("ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo//quz", True),
    ("ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo/bax/quz", True),
    ("ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar", False),
    ("ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar/qux", True),
    ("ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar/", True),
    ("ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar/baz", True),
    ("ID_SpecialCharacters", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot", "http://foo.bar/foo/bar", True),
    ("ID_SpecialCharacters", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot", "http://foo.bar/foo/quz", False),
    ("GoogleOnly_IndexHTMLisDirectory", _INDEX, "foobot", "http://foo.com/allowed-slash/", True),
    ("GoogleOnly_IndexHTMLisDirectory", _INDEX, "foobot", "http://foo.com/allowed-slash/index.htm", False),
    ("GoogleOnly_IndexHTMLisDirectory", _INDEX, "foobot", "http://foo.com/allowed-slash/index.html", True),
    ("GoogleOnly_IndexHTMLisDirectory", _INDEX, "foobot", "http://foo.com/anyother-url", False),
    *_long_lines(),
    ("GoogleOnly_DocumentationChecks", _FISH, "FooBot", "http://foo.bar/bar", False),
    ("GoogleOnly_DocumentationChecks", _FISH, "FooBot", "http://foo.bar/fish", True),
    ("GoogleOnly_DocumentationChecks", _FISH, "FooBot", "http://foo.bar/fish.html", True),
    ("GoogleOnly_DocumentationChecks", _FISH, "FooBot", "http://foo.bar/fish/salmon.html", True),
    ("GoogleOnly_DocumentationChecks", _FISH, "FooBot", "http://foo.bar/fishheads", True),
    ("GoogleOnly_DocumentationChecks", _FISH, "FooBot", "http://foo.bar/fishheads/yummy.html", True),
    ("GoogleOnly_DocumentationChecks", _FISH, "FooBot", "http://foo.bar/fish.html?id=anything", True),
    ("GoogleOnly_DocumentationChecks", _FISH, "FooBot", "http://foo.bar/Fish.asp", False),
    ("GoogleOnly_DocumentationChecks", _FISH, "FooBot", "http://foo.bar/catfish", False),
    ("GoogleOnly_DocumentationChecks", _FISH, "FooBot", "http://foo.bar/?id=fish", False),
    ("GoogleOnly_DocumentationChecks", _FISH_STAR, "FooBot", "http://foo.bar/bar", False),
    ("GoogleOnly_DocumentationChecks", _FISH_STAR, "FooBot", "http://foo.bar/fish", True),
    ("GoogleOnly_DocumentationChecks", _FISH_STAR, "FooBot", "http://foo.bar/fish.html", True),
    ("GoogleOnly_DocumentationChecks", _FISH_STAR, "FooBot", "http://foo.bar/fish/salmon.html", True),
    ("GoogleOnly_DocumentationChecks", _FISH_STAR, "FooBot", "http://foo.bar/fishheads", True),
    ("GoogleOnly_DocumentationChecks", _FISH_STAR, "FooBot", "http://foo.bar/fishheads/yummy.html", True),
    ("GoogleOnly_DocumentationChecks", _FISH_STAR, "FooBot", "http://foo.bar/fish.html?id=anything", True),
    ("GoogleOnly_DocumentationChecks", _FISH_STAR, "FooBot", "http://foo.bar/Fish.bar", False),
    ("GoogleOnly_DocumentationChecks", _FISH_STAR, "FooBot", "http://foo.bar/catfish", False),
    ("GoogleOnly_DocumentationChecks", _FISH_STAR, "FooBot", "http://foo.bar/?id=fish", False),
    ("GoogleOnly_DocumentationChecks", _FISH_SLASH, "FooBot", "http://foo.bar/bar", False),
    ("GoogleOnly_DocumentationChecks", _FISH_SLASH, "FooBot", "http://foo.bar/fish/", True),
    ("GoogleOnly_DocumentationChecks", _FISH_SLASH, "FooBot", "http://foo.bar/fish/salmon", True),
    ("GoogleOnly_DocumentationChecks", _FISH_SLASH, "FooBot", "http://foo.bar/fish/?salmon", True),
    ("GoogleOnly_DocumentationChecks", _FISH_SLASH, "FooBot", "http://foo.bar/fish/salmon.html", True),
    ("GoogleOnly_DocumentationChecks", _FISH_SLASH, "FooBot", "http://foo.bar/fish/?id=anything", True),
    ("GoogleOnly_DocumentationChecks", _FISH_SLASH, "FooBot", "http://foo.bar/fish", False),
    ("GoogleOnly_DocumentationChecks", _FISH_SLASH, "FooBot", "http://foo.bar/fish.html", False),
    ("GoogleOnly_DocumentationChecks", _FISH_SLASH, "FooBot", "http://foo.bar/Fish/Salmon.html", False),
    ("GoogleOnly_DocumentationChecks", _PHP, "FooBot", "http://foo.bar/bar", False),
    ("GoogleOnly_DocumentationChecks", _PHP, "FooBot", "http://foo.bar/filename.php", True),
    ("GoogleOnly_DocumentationChecks", _PHP, "FooBot", "http://foo.bar/folder/filename.php", True),
    ("GoogleOnly_DocumentationChecks", _PHP, "FooBot", "http://foo.bar/folder/filename.php?parameters", True),
    ("GoogleOnly_DocumentationChecks", _PHP, "FooBot", "http://foo.bar//folder/any.php.file.html", True),
    ("GoogleOnly_DocumentationChecks", _PHP, "FooBot", "http://foo.bar/filename.php/", True),
    ("GoogleOnly_DocumentationChecks", _PHP, "FooBot", "http://foo.bar/index?f=filename.php/", True),
    ("GoogleOnly_DocumentationChecks", _PHP, "FooBot", "http://foo.bar/php/", False),
    ("GoogleOnly_DocumentationChecks", _PHP, "FooBot", "http://foo.bar/index?php", False),
    ("GoogleOnly_DocumentationChecks", _PHP, "FooBot", "http://foo.bar/windows.PHP", False),
    ("GoogleOnly_DocumentationChecks", _PHP_END, "FooBot", "http://foo.bar/bar", False),
    ("GoogleOnly_DocumentationChecks", _PHP_END, "FooBot", "http://foo.bar/filename.php", True),
    ("GoogleOnly_DocumentationChecks", _PHP_END, "FooBot", "http://foo.bar/folder/filename.php", True),
    ("GoogleOnly_DocumentationChecks", _PHP_END, "FooBot", "http://foo.bar/filename.php?parameters", False),
    ("GoogleOnly_DocumentationChecks", _PHP_END, "FooBot", "http://foo.bar/filename.php/", False),
    ("GoogleOnly_DocumentationChecks", _PHP_END, "FooBot", "http://foo.bar/filename.php5", False),
    ("GoogleOnly_DocumentationChecks", _PHP_END, "FooBot", "http://foo.bar/php/", False),
    ("GoogleOnly_DocumentationChecks", _PHP_END, "FooBot", "http://foo.bar/filename?php", False),
    ("GoogleOnly_DocumentationChecks", _PHP_END, "FooBot", "http://foo.bar/aaaphpaaa", False),
    ("GoogleOnly_DocumentationChecks", _PHP_END, "FooBot", "http://foo.bar//windows.PHP", False),
    ("GoogleOnly_DocumentationChecks", _FISH_PHP, "FooBot", "http://foo.bar/bar", False),
    ("GoogleOnly_DocumentationChecks", _FISH_PHP, "FooBot", "http://foo.bar/fish.php", True),
    ("GoogleOnly_DocumentationChecks", _FISH_PHP, "FooBot", "http://foo.bar/fishheads/catfish.php?parameters", True),
    ("GoogleOnly_DocumentationChecks", _FISH_PHP, "FooBot", "http://foo.bar/Fish.PHP", False),
    ("GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /p\ndisallow: /\n", "FooBot", "http://example.com/page", True),
    ("GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", "FooBot", "http://example.com/folder/page", True),
    ("GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", "FooBot", "http://example.com/page.htm", False),
    ("GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/", True),
    ("GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/page.html", False),
)  # fmt: skip
