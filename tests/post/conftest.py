"""A built site with edits, its archive, and loopback Mastodon and Bluesky servers."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from quietedit.config.settings import PostSettings, Settings
from quietedit.post.bluesky import BlueskyAccount
from quietedit.post.mastodon import MastodonAccount
from quietedit.post.run import PostOptions
from quietedit.publish import BuildOptions, build_site
from tests.post.fakes import BLUESKY_PASSWORD, MASTODON_TOKEN, FakeBluesky, FakeMastodon
from tests.publish.conftest import BASE_URL, SOURCES, write_archive

NOW = datetime(2026, 11, 28, 18, 0, tzinfo=UTC)
"""A few hours after the fixture archive's edits (10:30 to 13:30 that day)."""


@dataclass
class Clock:
    """The time the run stamps on the ledger and the posts; moved by the tests."""

    now: datetime = NOW

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def site(tmp_path: Path) -> tuple[Path, Path]:
    """(data, site): the fixture archive and its build, made for each test."""
    data, out = tmp_path / "data", tmp_path / "site"
    write_archive(data)
    report = build_site(
        BuildOptions(
            data=data,
            out=out,
            base_url=BASE_URL,
            sources=SOURCES,
            search=False,
            workers=1,
            share_days=0,  # no share images: a test puts there the image it posts
        )
    )
    assert not report.failures
    return data, out


def options(site: tuple[Path, Path], **post: object) -> PostOptions:
    """Post options over ``site``, every edit kind posted unless ``post`` says otherwise."""
    settings = replace(
        Settings(),
        post=PostSettings(
            **{"verdicts": ("silent", "technical", "proper", "unknown"), "max_wait": 5.0, **post}  # type: ignore[arg-type]
        ),
    )
    return PostOptions(
        data=site[0],
        site=site[1],
        base_url=BASE_URL,
        settings=settings,
        sources={s.slug: s.name for s in SOURCES},
    )


@pytest.fixture
def mastodon(httpserver: HTTPServer) -> FakeMastodon:
    return FakeMastodon(httpserver)


@pytest.fixture
def bluesky(httpserver: HTTPServer) -> FakeBluesky:
    return FakeBluesky(httpserver)


def mastodon_account(fake: FakeMastodon, token: str = MASTODON_TOKEN) -> MastodonAccount:
    return MastodonAccount(fake.url, token, timeout=5.0, user_agent="quietedit-tests/1")


def bluesky_account(fake: FakeBluesky, password: str = BLUESKY_PASSWORD) -> BlueskyAccount:
    return BlueskyAccount(
        fake.url, "edits.example.org", password, timeout=5.0, user_agent="quietedit-tests/1"
    )
