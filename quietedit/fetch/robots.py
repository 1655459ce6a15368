"""robots.txt rules (RFC 9309) for article fetches; no I/O here (pure).

Lines and groups are read as Google's reference parser reads them
(:mod:`quietedit.fetch.robots_groups`); within a group Protego matches the way RFC 9309
and Google do: longest match wins, ``*`` and ``$`` work,
Allow beats Disallow on a tie, and both the rule and the URL are percent-encoding-normalised
before they are compared (``/caf%C3%A9`` and ``/café``, ``%7E`` and ``~`` are the same
path; ``%2F`` stays distinct from ``/``). ``urllib.robotparser`` gets several of these
wrong (research/ecosystem.md §9).

What a robots.txt response means for the run (RFC 9309 §2.3.1):

- 2xx: its rules;
- 4xx other than 429 ("unavailable"): no rules, everything is allowed;
- 429, 5xx, or no response at all ("unreachable"): everything is disallowed for this run.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import Final

from quietedit.fetch.robots_groups import RobotsRules

ROBOTS_MAX_BYTES: Final = 512 * 1024
"""How much of a robots.txt is read: RFC 9309 §2.5 asks crawlers to parse at least 500 KiB
and allows ignoring the rest."""


def product_token(user_agent: str) -> str:
    """The product token robots.txt groups are matched against: ``quietedit`` of
    ``quietedit/0.1.0 (+https://...)`` (RFC 9309 §2.2.1)."""
    token = user_agent.strip().split("/", 1)[0].split(None, 1)
    return token[0].lower() if token else user_agent.strip().lower()


def robots_allowed(robots_txt: str, *, user_agent: str, url: str) -> bool:
    """Whether ``robots_txt`` lets ``user_agent`` fetch ``url``.

    The most specific group naming the user agent's product token applies, else the ``*``
    group; within it the longest matching rule decides, Allow winning ties. No rule: allowed.
    """
    return RobotsRules.parse(robots_txt).allows(url, agent=product_token(user_agent))


@dataclass(frozen=True, slots=True)
class RobotsPolicy:
    """What one origin's robots.txt says for this run.

    ``mode`` is ``"rules"`` (a robots.txt was read), ``"allow"`` (none exists) or
    ``"disallow"`` (it could not be fetched); ``reason`` says why, for logs and errors.
    """

    mode: str
    reason: str
    rules: RobotsRules | None = None

    def allows(self, url: str, *, user_agent: str) -> bool:
        """Whether ``url`` (of this policy's origin) may be fetched by ``user_agent``."""
        if self.mode == "allow":
            return True
        if self.mode == "disallow" or self.rules is None:
            return False
        return self.rules.allows(url, agent=product_token(user_agent))

    def crawl_delay(self, *, user_agent: str) -> float | None:
        """The Crawl-delay in seconds for ``user_agent``'s group, if it has a usable one."""
        if self.rules is None:
            return None
        delay = self.rules.crawl_delay(agent=product_token(user_agent))
        return delay if delay is not None and delay >= 0 else None


def policy_from_response(status: int, body: bytes) -> RobotsPolicy:
    """The policy a robots.txt response gives (RFC 9309 §2.3.1: 2xx rules, 4xx allow, else not)."""
    if 200 <= status < 300:
        text = body.removeprefix(codecs.BOM_UTF8).decode("utf-8", errors="replace")
        return RobotsPolicy("rules", f"robots.txt (HTTP {status})", RobotsRules.parse(text))
    if 400 <= status < 500 and status != 429:
        return RobotsPolicy("allow", f"no robots.txt (HTTP {status}): everything is allowed")
    return policy_unreachable(f"HTTP {status}")


def policy_unreachable(cause: str) -> RobotsPolicy:
    """The policy for a robots.txt that could not be fetched: disallow everything for this run."""
    return RobotsPolicy("disallow", f"robots.txt unreachable ({cause}): disallowed for this run")
