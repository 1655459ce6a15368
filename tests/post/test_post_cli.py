"""``quietedit post`` on the command line: accounts from the environment only, the dry
run, what is printed, and that no credential ever is."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from quietedit.cli import cli
from tests.post.fakes import BLUESKY_PASSWORD, MASTODON_TOKEN, FakeBluesky, FakeMastodon, png_image
from tests.publish.conftest import BASE_URL

FEEDS = """\
feeds:
  - url: https://news.example.org/world/rss.xml
    name: The Example Courier \N{EN DASH} World
    slug: courier-world
  - url: https://www.example.net/politics.atom
    name: Example Net Daily — Politics
    slug: daily-politics
settings:
  post:
    verdicts: [silent, technical, proper]
    max_wait: 1s
"""


def invoke(
    site: tuple[Path, Path], *args: str, env: dict[str, str] | None = None
) -> tuple[int, str, str]:
    data, out = site
    config = data.parent / "feeds.yaml"
    config.write_text(FEEDS, encoding="utf-8")
    result = CliRunner().invoke(
        cli,
        ["post", "--config", str(config), "--data", str(data), "--out", str(out),
         "--base-url", BASE_URL, "--now", "2026-11-28T18:00:00Z", *args],
        env=env or {},
    )  # fmt: skip
    return result.exit_code, result.stdout, result.stderr


def accounts(mastodon: FakeMastodon, bluesky: FakeBluesky, **change: str) -> dict[str, str]:
    return {
        "QUIETEDIT_MASTODON_URL": mastodon.url,
        "QUIETEDIT_MASTODON_TOKEN": MASTODON_TOKEN,
        "QUIETEDIT_BLUESKY_SERVICE": bluesky.url,
        "QUIETEDIT_BLUESKY_HANDLE": "edits.example.org",
        "QUIETEDIT_BLUESKY_PASSWORD": BLUESKY_PASSWORD,
        **change,
    }


def test_the_dry_run_prints_every_post_and_its_thread_and_sends_nothing(
    site: tuple[Path, Path], mastodon: FakeMastodon, bluesky: FakeBluesky
) -> None:
    (site[1] / "articles/www-example-net-39161cbcd44e2867/diff/2/share.png").write_bytes(
        png_image()
    )
    code, out, _ = invoke(site, "--dry-run", env=accounts(mastodon, bluesky))

    assert code == 0
    assert mastodon.requests == [] and bluesky.requests == []
    assert not (site[0] / "state/posted.json").exists()
    assert "mastodon: 4 post(s)" in out and "bluesky: 4 post(s)" in out
    assert out.count("new thread") == 6  # three articles on two networks
    assert out.count("reply to the post before it") == 2  # the bridge story's second edit
    assert "alt: Example Net Daily — Politics: “Minister" in out
    assert f"card: {BASE_URL}articles/news-example-org-d2fa1f9b03b58050/diff/3/" in out
    minister = f"{BASE_URL}articles/www-example-net-39161cbcd44e2867/diff/2/"
    assert f"link: {minister} (the image's post, no card)" in out
    assert f"card: {minister}" not in out
    assert "Headline was: “Council approves Elm river bridge”" in out


def test_the_dry_run_without_accounts_shows_both_networks(site: tuple[Path, Path]) -> None:
    code, out, err = invoke(site, "--dry-run")
    assert code == 0 and "no account variables set" in err
    assert "mastodon: 4 post(s)" in out and "bluesky: 4 post(s)" in out


def test_a_run_prints_each_post_and_exits_0(
    site: tuple[Path, Path], mastodon: FakeMastodon, bluesky: FakeBluesky
) -> None:
    code, out, err = invoke(site, env=accounts(mastodon, bluesky))
    assert code == 0, err
    assert out.count("mastodon: ") == 4 and out.count("bluesky: ") == 4
    assert "8 posted, 0 failed, 0 left for the next run" in err


@pytest.mark.parametrize("network", ["mastodon", "bluesky"])
def test_no_credential_is_printed_when_the_server_refuses_or_echoes_it(
    site: tuple[Path, Path], mastodon: FakeMastodon, bluesky: FakeBluesky, network: str
) -> None:
    # a server that repeats what it was sent in its error text
    mastodon.fail_next(400, error=f"bad request with Authorization: Bearer {MASTODON_TOKEN}")
    bluesky.fail_next(400, message=f"bad request for password {BLUESKY_PASSWORD}")
    code, out, err = invoke(site, env=accounts(mastodon, bluesky))
    assert code == 1
    assert "refused with 400" in err and "***" in err
    # and an account whose credentials are refused outright
    wrong = "wrong-secret-9c1e77d2"
    variable = "QUIETEDIT_MASTODON_TOKEN" if network == "mastodon" else "QUIETEDIT_BLUESKY_PASSWORD"
    code2, out2, err2 = invoke(site, env=accounts(mastodon, bluesky, **{variable: wrong}))
    assert code2 == 1 and ("refused (401)" in err2)
    for text in (out, err, out2, err2, (site[0] / "state/posted.json").read_text()):
        assert MASTODON_TOKEN not in text and BLUESKY_PASSWORD not in text and wrong not in text


def test_an_account_set_by_half_is_a_configuration_error(site: tuple[Path, Path]) -> None:
    code, _, err = invoke(site, env={"QUIETEDIT_BLUESKY_HANDLE": "edits.example.org"})
    assert code == 1
    assert "QUIETEDIT_BLUESKY_PASSWORD is not set; Bluesky needs both variables" in err


def test_post_without_a_build_says_to_build_first(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    code, _, err = invoke((tmp_path / "data", tmp_path / "site"), "--dry-run")
    assert code == 1 and "run `quietedit build --out" in err


def test_a_setting_outside_the_vocabulary_is_named(tmp_path: Path) -> None:
    config = tmp_path / "feeds.yaml"
    config.write_text("settings:\n  post:\n    kinds: [facts, headlines]\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["post", "--config", str(config), "--dry-run"])
    assert result.exit_code == 1
    assert "settings.post.kinds: ['facts', 'headlines'] holds 'headlines'" in result.stderr
    assert "which is not one of added, byline, correction" in result.stderr


def test_an_account_without_its_library_says_which_extra_to_install(
    site: tuple[Path, Path],
    mastodon: FakeMastodon,
    bluesky: FakeBluesky,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # as if Mastodon.py were not installed: the post extra is optional
    monkeypatch.setitem(sys.modules, "mastodon", None)
    monkeypatch.delitem(sys.modules, "quietedit.post.mastodon", raising=False)
    code, _, err = invoke(site, env=accounts(mastodon, bluesky))
    assert code == 1
    assert "a Mastodon account is set, but its library is not installed (mastodon)" in err
    assert "pip install 'quietedit[post]'" in err
