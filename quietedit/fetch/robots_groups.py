"""robots.txt lines and groups read as Google's reference parser reads them (pure).

RFC 9309 leaves some of the reading open, and Protego reads it differently from Google's
open-source parser (https://github.com/google/robotstxt), which the RFC's authors wrote:

- a ``user-agent`` value is its product token: the leading run of letters, ``-`` and ``_``
  (``FOO BAR`` is ``foo``, ``Googlebot/2.1`` is ``googlebot``), ``*`` the global group;
- a group is ended only by a ``user-agent`` line after an ``allow`` or ``disallow`` line:
  ``sitemap``, ``crawl-delay`` and unknown lines between two user-agent lines leave them
  one group (Protego starts a new group at them);
- a group applies to a crawler whose product token *equals* one of its agents, ignoring
  case (Protego also matches an agent found inside a longer name); groups for the same agent
  are merged; with none, the ``*`` groups apply; with neither, nothing is disallowed;
- the misspellings Google accepts are read (``useragent``, ``user agent``, ``disalow``,
  ``dissallow``…), a missing colon too (``disallow /``);
- a line is cut after 8 * 2083 bytes, and rules before the first user-agent line are ignored.

:class:`RobotsRules` does the grouping; the matching within a group (longest match, ``*``
and ``$``, Allow on a tie, percent-encoding normalised per RFC 9309 §2.2.2) stays Protego's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from protego import Protego

MAX_LINE_CHARS: Final = 8 * 2083 - 1
"""Google's parser keeps this much of a line (``kMaxLineLen`` less the end of line)."""

_LINE_BREAK: Final = re.compile(r"\r\n|\r|\n")
_KEYS: Final[dict[str, str]] = {
    "user-agent": "user-agent", "useragent": "user-agent", "user agent": "user-agent",
    "allow": "allow",
    "disallow": "disallow", "dissallow": "disallow", "dissalow": "disallow",
    "disalow": "disallow", "diasllow": "disallow", "disallaw": "disallow",
    "sitemap": "sitemap", "site-map": "sitemap",
    # not Google's, but Protego reads them and the crawler honours them
    "crawl-delay": "crawl-delay", "request-rate": "request-rate", "visit-time": "visit-time",
}  # fmt: skip
_KEY_VALUE: Final = re.compile(
    r"\s*(?P<key>user[ -]?agent|[a-z][a-z-]*)\s*(?::\s*|\s+)(?P<value>.*)", re.IGNORECASE
)
_PRODUCT_TOKEN: Final = re.compile(r"[A-Za-z_-]+")
_GLOBAL: Final = "*"


@dataclass(frozen=True, slots=True)
class _Group:
    agents: tuple[str, ...]
    members: tuple[tuple[str, str], ...]  # (key, value) lines other than user-agent


@dataclass(slots=True)
class RobotsRules:
    """A parsed robots.txt: its groups by agent, and Protego's matcher per group asked for.

    Build with :meth:`parse`. ``allows`` and ``crawl_delay`` take the crawler's *product
    token* (``quietedit``), compared with each group's agents ignoring case.
    """

    groups: dict[str, list[tuple[str, str]]]
    sitemaps: tuple[str, ...] = ()
    _matchers: dict[str, Protego] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> RobotsRules:
        """Read ``text`` (a robots.txt) into groups; never raises."""
        groups: dict[str, list[tuple[str, str]]] = {}
        sitemaps: list[str] = []
        for group in _groups(text.removeprefix("\ufeff"), sitemaps):
            for agent in group.agents:
                groups.setdefault(agent, []).extend(group.members)
        return cls(groups, tuple(sitemaps))

    def allows(self, url: str, *, agent: str) -> bool:
        """Whether the group for the product token ``agent`` lets it fetch ``url``."""
        matcher = self._matcher(agent)
        return matcher is None or matcher.can_fetch(url, "quietedit-robots-group")

    def crawl_delay(self, *, agent: str) -> float | None:
        """The ``Crawl-delay`` of the group for the product token ``agent``, in seconds, if any."""
        matcher = self._matcher(agent)
        return None if matcher is None else matcher.crawl_delay("quietedit-robots-group")

    def _matcher(self, agent: str) -> Protego | None:
        key = agent.strip().lower()
        agent = key if key and key in self.groups else _GLOBAL
        if agent not in self.groups:
            return None
        if agent not in self._matchers:
            lines = ["User-agent: *"] + [f"{k}: {v}" for k, v in self.groups[agent]]
            self._matchers[agent] = Protego.parse("\n".join(lines) + "\n")
        return self._matchers[agent]


def _groups(text: str, sitemaps: list[str]) -> list[_Group]:
    """The groups of ``text`` in order (agents lower-cased), sitemaps collected aside."""
    groups: list[_Group] = []
    agents: list[str] = []
    members: list[tuple[str, str]] = []
    in_rules = False  # an allow/disallow line was seen since the last user-agent line
    for raw in _LINE_BREAK.split(text):
        line = raw[:MAX_LINE_CHARS].split("#", 1)[0]
        match = _KEY_VALUE.fullmatch(line)
        if match is None:
            continue
        key = _KEYS.get(re.sub(r"\s+", " ", match["key"].lower()))
        value = match["value"].strip()
        if key == "user-agent":
            if in_rules:  # a rule was seen, so this run had agents: it is a whole group
                groups.append(_Group(tuple(agents), tuple(members)))
                agents, members, in_rules = [], [], False
            token = _agent_token(value)
            if token:
                agents.append(token)
            continue
        if key == "sitemap":
            sitemaps.append(value)
        elif key is not None and agents:  # unknown lines, and rules outside a group, are none
            members.append((key, value))
            in_rules = in_rules or key in ("allow", "disallow")
    if agents:
        groups.append(_Group(tuple(agents), tuple(members)))
    return groups


def _agent_token(value: str) -> str:
    """The product token of a ``user-agent`` value, lower-cased: ``*``, or its leading
    letters, ``-`` and ``_`` (``""`` when there are none)."""
    if value.startswith(_GLOBAL) and (len(value) == 1 or value[1].isspace()):
        return _GLOBAL
    match = _PRODUCT_TOKEN.match(value)
    return match.group(0).lower() if match else ""
