"""feeds.yaml and QUIETEDIT_* variables: defaults, precedence, value syntax, and problem reports.

Files are real YAML in ``tmp_path`` read by ``load_config``; ``parse_config`` is exercised
with plain values where the YAML layer is not the point.
"""

from __future__ import annotations

import json
import logging
import textwrap
import unicodedata
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from quietedit import __version__
from quietedit.config import (
    DEFAULT_CONFIG_PATH,
    Config,
    SettingSpec,
    derive_slug,
    effective_settings,
    load_config,
    parse_config,
    settings_reference,
)
from quietedit.config.catalogue import SLUG_PATTERN
from quietedit.config.values import (
    MAX_DURATION_SECONDS,
    InvalidValueError,
    format_duration,
    parse_duration,
    parse_size,
)
from quietedit.errors import ConfigError

REPO_ROOT = Path(__file__).resolve().parents[2]

DEFAULTS: dict[str, object] = {
    "allow_private_addresses": False,
    "user_agent": f"quietedit/{__version__} (+https://github.com/quietedit/quietedit)",
    "watch": [],
    "recheck": {
        "age_factor": 0.25,
        "min_interval": 600.0,
        "max_interval": 43_200.0,
        "observation_window": 604_800.0,
        "max_window_factor": 4.0,
        "distrust_after_claims": 20,
        "probe_interval": 86_400.0,
        "failure_max_interval": 604_800.0,
    },
    "run": {"max_articles": 100, "max_duration": 1_500.0, "workers": 0},
    "politeness": {
        "max_requests_per_host_per_hour": 120,
        "min_host_interval": 1.0,
        "max_concurrency": 8,
    },
    "fetch": {
        "timeout": 15.0,
        "deadline": 60.0,
        "retries": 2,
        "backoff": 0.5,
        "max_wait": 30.0,
        "max_bytes": 10 * 1024 * 1024,
    },
    # relative to the base
    "paths": {"data": "data", "evidence": "evidence", "site": "site", "templates": "templates"},
    "site": {"max_bytes": 900_000_000, "reextracted": False, "share_days": 7},
    "post": {
        "kinds": ["headline", "lede", "facts", "quote", "removed", "correction"],
        "significance": ["moderate", "substantive"],
        "verdicts": ["silent"],
        "max_age": 172_800.0,
        "max_posts": 10,
        "max_wait": 120.0,
        "timeout": 30.0,
    },
    "archive_org": {
        "enabled": False,
        "base_url": "https://web.archive.org",
        "max_captures": 20,
        "timeout": 20.0,
        "backoff": 900.0,
    },
}

# A value for each setting's variable that differs from its default, and what it must become.
ENV_SAMPLES: dict[str, tuple[str, object]] = {
    "allow_private_addresses": ("Yes", True),
    "user_agent": ("newsdesk-bot/2.0 (+mailto:desk@example.org)", None),
    "watch": ("Merz, Klima*,", ["Merz", "Klima*"]),
    "recheck.age_factor": ("0.5", 0.5),
    "recheck.min_interval": ("5m", 300.0),
    "recheck.max_interval": ("1d", 86_400.0),
    "recheck.observation_window": ("14d", 1_209_600.0),
    "recheck.max_window_factor": ("2.5", 2.5),
    "recheck.distrust_after_claims": ("5", 5),
    "recheck.probe_interval": ("6h", 21_600.0),
    "recheck.failure_max_interval": ("2d", 172_800.0),
    "run.max_articles": ("0", 0),
    "run.max_duration": ("1h", 3_600.0),
    "run.workers": ("3", 3),
    "politeness.max_requests_per_host_per_hour": ("30", 30),
    "politeness.min_host_interval": ("2.5s", 2.5),
    "politeness.max_concurrency": ("64", 64),
    "fetch.timeout": ("0", 0.0),
    "fetch.deadline": ("90", 90.0),
    "fetch.retries": ("10", 10),
    "fetch.backoff": ("250ms", 0.25),
    "fetch.max_wait": ("2m", 120.0),
    "fetch.max_bytes": ("2MB", 2_000_000),
    "paths.data": ("archive", None),
    "paths.evidence": ("warc", None),
    "paths.site": ("/srv/www/quietedit", "/srv/www/quietedit"),
    "paths.templates": ("theme/templates", None),
    "site.max_bytes": ("500MB", 500_000_000),
    "post.kinds": ("facts, headline,", ["facts", "headline"]),
    "post.significance": ("substantive", ["substantive"]),
    "post.verdicts": ("silent,proper", ["silent", "proper"]),
    "post.max_age": ("12h", 43_200.0),
    "post.max_posts": ("3", 3),
    "post.max_wait": ("10s", 10.0),
    "post.timeout": ("5s", 5.0),
    "archive_org.enabled": ("yes", True),
    "archive_org.base_url": ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
    "archive_org.max_captures": ("5", 5),
    "archive_org.timeout": ("5s", 5.0),
    "archive_org.backoff": ("1h", 3600.0),
    "site.reextracted": ("true", True),
    "site.share_days": ("0", 0),
}


def write_config(folder: Path, text: str, name: str = "feeds.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def problems_of(path: Path, environ: dict[str, str] | None = None) -> tuple[str, ...]:
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ=environ or {})
    return caught.value.problems


def parse(document: object, environ: dict[str, str] | None = None) -> Config:
    return parse_config(
        document, environ=environ or {}, source="feeds.yaml", base_dir=Path("/base")
    )


def parse_problems(document: object, environ: dict[str, str] | None = None) -> tuple[str, ...]:
    with pytest.raises(ConfigError) as caught:
        parse(document, environ)
    return caught.value.problems


def lookup(settings: dict[str, Any], key: str) -> object:
    value: Any = settings
    for part in key.split("."):
        value = value[part]
    return value


def feed(**fields: object) -> dict[str, object]:
    return {"url": "https://news.example.org/rss.xml", "name": "Example News", **fields}


# ---- defaults and the example ---------------------------------------------------------------


def test_without_a_file_the_defaults_apply_with_no_feeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = load_config(environ={})
    assert config.source == "(defaults)"
    assert config.feeds == ()
    expected = json.loads(json.dumps(DEFAULTS))
    for key in ("data", "evidence", "site", "templates"):
        expected["paths"][key] = str(tmp_path / key)
    assert effective_settings(config) == expected


def test_the_default_file_is_read_when_it_exists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(tmp_path, "settings:\n  run:\n    max_articles: 7\n")
    monkeypatch.chdir(tmp_path)
    config = load_config(environ={})
    assert config.source == str(DEFAULT_CONFIG_PATH)
    assert config.settings.run.max_articles == 7


def test_the_example_feeds_yaml_loads_and_its_comments_tell_the_defaults() -> None:
    config = load_config(REPO_ROOT / "feeds.yaml", environ={})
    hosts = {feed.url.split("/")[2] for feed in config.feeds}
    assert hosts == {"news.example.org", "www.example.net"}
    assert all(SLUG_PATTERN.fullmatch(feed.slug) and feed.enabled for feed in config.feeds)
    defaults = parse_config(None, environ={}, source="-", base_dir=REPO_ROOT)
    assert effective_settings(config) == effective_settings(defaults)


def test_an_empty_file_means_the_defaults(tmp_path: Path) -> None:
    path = write_config(tmp_path, "# nothing yet\n")
    config = load_config(path, environ={})
    assert config.source == str(path)
    assert config.feeds == ()
    assert config.settings.fetch.timeout == 15.0


def test_empty_sections_mean_the_defaults(tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path, "feeds:\nsettings:\n  fetch:\n"), environ={})
    assert config.feeds == ()
    assert config.settings.fetch.retries == 2


def test_effective_settings_are_json_ready(tmp_path: Path) -> None:
    config = parse_config(None, environ={}, source="-", base_dir=tmp_path)
    shown = effective_settings(config)
    assert json.loads(json.dumps(shown)) == shown
    assert shown["paths"] == {
        key: str(tmp_path / key) for key in ("data", "evidence", "site", "templates")
    }


def test_a_private_address_allowance_is_logged_loudly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The CLI may have turned propagation off in this process; the test needs it on.
    monkeypatch.setattr(logging.getLogger("quietedit"), "propagate", True)
    path = write_config(tmp_path, "settings:\n  allow_private_addresses: true\n")
    with caplog.at_level(logging.WARNING, logger="quietedit.config"):
        config = load_config(path, environ={})
    assert config.settings.allow_private_addresses is True
    assert "allow_private_addresses is on" in caplog.text


# ---- the settings reference and environment overrides --------------------------------------


def test_every_setting_has_a_sample_for_the_override_test() -> None:
    assert {spec.key for spec in settings_reference()} == set(ENV_SAMPLES)


def test_variables_are_named_from_the_key_path() -> None:
    names = {spec.env for spec in settings_reference()}
    assert {
        "QUIETEDIT_FETCH_TIMEOUT",
        "QUIETEDIT_RUN_MAX_ARTICLES",
        "QUIETEDIT_ALLOW_PRIVATE_ADDRESSES",
        "QUIETEDIT_POLITENESS_MAX_REQUESTS_PER_HOST_PER_HOUR",
    } <= names
    for spec in settings_reference():
        assert spec.env == "QUIETEDIT_" + spec.key.upper().replace(".", "_")
        assert spec.description
        assert spec.constraint


@pytest.mark.parametrize("spec", settings_reference(), ids=lambda spec: spec.key)
def test_every_setting_is_overridden_by_its_variable(spec: SettingSpec, tmp_path: Path) -> None:
    text, expected = ENV_SAMPLES[spec.key]
    if expected is None:  # text and relative paths
        expected = str(tmp_path / text) if spec.kind == "path" else text
    defaults = parse_config(None, environ={}, source="-", base_dir=tmp_path)
    default = lookup(effective_settings(defaults), spec.key)
    config = parse_config(None, environ={spec.env: text}, source="-", base_dir=tmp_path)
    assert lookup(effective_settings(config), spec.key) == expected != default


def test_a_variable_beats_the_file_which_beats_the_default(tmp_path: Path) -> None:
    path = write_config(tmp_path, "settings:\n  fetch:\n    timeout: 20s\n    retries: 5\n")
    config = load_config(path, environ={"QUIETEDIT_FETCH_TIMEOUT": "30s"})
    assert config.settings.fetch.timeout == 30.0  # variable
    assert config.settings.fetch.retries == 5  # file
    assert config.settings.fetch.backoff == 0.5  # default


def test_a_bad_file_value_is_reported_even_when_a_variable_overrides_it(tmp_path: Path) -> None:
    path = write_config(tmp_path, "settings:\n  fetch:\n    timeout: soon\n")
    problems = problems_of(path, {"QUIETEDIT_FETCH_TIMEOUT": "30s"})
    assert len(problems) == 1
    assert problems[0].startswith(f"{path}: settings.fetch.timeout: 'soon' is not a duration;")


def test_parse_config_reads_only_the_environment_it_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QUIETEDIT_FETCH_TIMEOUT", "9s")
    monkeypatch.chdir(tmp_path)
    assert parse({}).settings.fetch.timeout == 15.0
    assert load_config(None, environ=None).settings.fetch.timeout == 9.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [("TRUE", True), ("yes", True), ("1", True), ("False", False), ("NO", False), ("0", False)],
)
def test_boolean_variables_accept_the_usual_words(text: str, expected: bool) -> None:
    config = parse({}, {"QUIETEDIT_ALLOW_PRIVATE_ADDRESSES": text})
    assert config.settings.allow_private_addresses is expected


@pytest.mark.parametrize("text", ["on", "2", "", "tru"])
def test_boolean_variables_refuse_other_words(text: str) -> None:
    (problem,) = parse_problems({}, {"QUIETEDIT_ALLOW_PRIVATE_ADDRESSES": text})
    assert problem.startswith(f"environment: QUIETEDIT_ALLOW_PRIVATE_ADDRESSES: {text!r} is not")


def test_an_unknown_quietedit_variable_is_reported_with_a_suggestion() -> None:
    problems = parse_problems({}, {"QUIETEDIT_FETCH_TIMOUT": "5s", "HOME": "/root"})
    assert problems == (
        "environment: QUIETEDIT_FETCH_TIMOUT: unknown variable; "
        "did you mean QUIETEDIT_FETCH_TIMEOUT?",
    )


def test_a_lower_case_quietedit_variable_is_not_silently_ignored() -> None:
    (problem,) = parse_problems({}, {"quietedit_run_max_articles": "5"})
    assert problem.endswith("did you mean QUIETEDIT_RUN_MAX_ARTICLES?")


def test_an_unknown_quietedit_variable_unlike_any_setting_is_reported() -> None:
    (problem,) = parse_problems({}, {"QUIETEDIT_ZZZ": "1"})
    assert problem.startswith("environment: QUIETEDIT_ZZZ: unknown variable; unset or rename it")


def test_a_quietedit_variable_used_by_a_header_is_accepted() -> None:
    document = {"feeds": [feed(headers={"Authorization": "Bearer ${QUIETEDIT_NEWS_TOKEN}"})]}
    config = parse(document, {"QUIETEDIT_NEWS_TOKEN": "s3cret"})
    assert config.feeds[0].headers == (("Authorization", "Bearer s3cret"),)


# ---- value syntax ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("10m", 600.0),
        ("1.5h", 5_400.0),
        ("500ms", 0.5),
        ("2d", 172_800.0),
        ("45s", 45.0),
        ("30", 30.0),
        (" 7 m ", 420.0),
        (".5s", 0.5),
        (90, 90.0),
        (0.25, 0.25),
        (0, 0.0),
    ],
)
def test_durations_are_seconds_or_a_number_with_a_unit(value: object, seconds: float) -> None:
    assert parse_duration(value) == seconds


@pytest.mark.parametrize(
    ("value", "complaint"),
    [
        (-1, "is negative"),
        ("-5s", "is negative"),
        (float("nan"), "is not a finite"),
        (float("inf"), "is not a finite"),
        (True, "is true/false, not a duration"),
        ("10x", "is not a duration"),
        ("10M", "is not a duration"),
        ("1.5.2s", "is not a duration"),
        ("", "is not a duration"),
        ("nan", "is not a duration"),
        ([10], "is a list"),
        (None, "is empty"),
        ("3651d", "longer than ten years"),
    ],
)
def test_durations_refuse_what_is_not_one(value: object, complaint: str) -> None:
    with pytest.raises(InvalidValueError, match=complaint):
        parse_duration(value)


@pytest.mark.parametrize(
    ("value", "size"),
    [
        ("10MiB", 10_485_760),
        ("1KB", 1_000),
        ("1.5KiB", 1_536),
        ("3GB", 3_000_000_000),
        ("512B", 512),
        ("2gib", 2 * 1024**3),
        ("64 kb", 64_000),
        (2_048, 2_048),
        ("4096", 4_096),
    ],
)
def test_sizes_are_bytes_or_a_number_with_a_unit(value: object, size: int) -> None:
    assert parse_size(value) == size


@pytest.mark.parametrize(
    ("value", "complaint"),
    [
        ("0.5B", "whole number of bytes"),
        (1.5, "whole number of bytes"),
        (-1, "is negative"),
        ("-1KB", "is negative"),
        (True, "is true/false"),
        ("10XB", "is not a size"),
        ("ten", "is not a size"),
    ],
)
def test_sizes_refuse_what_is_not_one(value: object, complaint: str) -> None:
    with pytest.raises(InvalidValueError, match=complaint):
        parse_size(value)


def test_file_values_use_the_same_syntax(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        """\
        settings:
          recheck: {min_interval: 90, max_interval: 1.5h, max_window_factor: 2}
          fetch: {backoff: 250ms, max_bytes: 512KiB, retries: "3"}
        """,
    )
    settings = load_config(path, environ={}).settings
    assert (settings.recheck.min_interval, settings.recheck.max_interval) == (90.0, 5_400.0)
    assert settings.recheck.max_window_factor == 2.0
    assert (settings.fetch.backoff, settings.fetch.max_bytes) == (0.25, 524_288)
    assert settings.fetch.retries == 3


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        (
            "fetch: {retries: true}",
            "settings.fetch.retries: True is true/false, not a whole number",
        ),
        ("fetch: {retries: 2.5}", "settings.fetch.retries: 2.5 is not a whole number"),
        ("recheck: {age_factor: .nan}", "settings.recheck.age_factor: nan is not a finite number"),
        ("recheck: {max_window_factor: .inf}", "settings.recheck.max_window_factor: inf is not a"),
        ("fetch: {timeout: yes}", "settings.fetch.timeout: True is true/false, not a duration"),
        ("run: {max_duration: -5m}", "settings.run.max_duration: '-5m' is negative"),
        ("fetch: {timeout: }", "settings.fetch.timeout: has no value;"),
        ("allow_private_addresses: 1", "settings.allow_private_addresses: 1 is a number, not true"),
        ("user_agent: ''", "settings.user_agent: '' is empty"),
        ("paths: {data: ''}", "settings.paths.data: '' is empty"),
    ],
)
def test_wrongly_typed_setting_values_are_reported(
    tmp_path: Path, line: str, complaint: str
) -> None:
    path = write_config(tmp_path, f"settings:\n  {line}\n")
    (problem,) = problems_of(path)
    assert problem.startswith(f"{path}: {complaint}")


@pytest.mark.parametrize(
    ("line", "valid"),
    [
        ("recheck: {age_factor: 0}", False),
        ("recheck: {age_factor: 1}", True),
        ("recheck: {age_factor: 1.01}", False),
        ("recheck: {min_interval: 0}", False),
        ("recheck: {max_window_factor: 0.5}", False),
        ("recheck: {distrust_after_claims: 0}", False),
        ("run: {max_articles: 0}", True),
        ("run: {max_articles: -1}", False),
        ("politeness: {max_concurrency: 64}", True),
        ("politeness: {max_concurrency: 65}", False),
        ("politeness: {max_concurrency: 0}", False),
        ("politeness: {min_host_interval: 0}", True),
        ("politeness: {max_requests_per_host_per_hour: 0}", False),
        ("fetch: {retries: 10}", True),
        ("fetch: {retries: 11}", False),
        ("fetch: {max_bytes: 1KiB}", True),
        ("fetch: {max_bytes: 1023}", False),
        ("fetch: {timeout: 0, deadline: 1s}", True),
        ("fetch: {deadline: 0}", False),
    ],
)
def test_settings_keep_to_their_ranges(tmp_path: Path, line: str, valid: bool) -> None:
    path = write_config(tmp_path, f"settings:\n  {line}\n")
    if valid:
        load_config(path, environ={})
    else:
        (problem,) = problems_of(path)
        assert "is out of range; use a value" in problem


def test_the_re_check_cap_may_not_be_below_its_floor() -> None:
    (problem,) = parse_problems({"settings": {"recheck": {"max_interval": "5m"}}})
    assert problem.startswith(
        "feeds.yaml: settings.recheck.max_interval: '5m' is shorter than recheck.min_interval (10m)"
    )


def test_a_clash_with_a_default_is_reported_at_the_value_that_was_set() -> None:
    (problem,) = parse_problems({}, {"QUIETEDIT_RECHECK_MIN_INTERVAL": "1d"})
    assert problem == (
        "environment: QUIETEDIT_RECHECK_MIN_INTERVAL: '1d' is longer than recheck.max_interval "
        "(12h); lower it or raise recheck.max_interval"
    )


def test_the_deadline_may_not_be_below_the_timeout_unless_the_timeout_is_off() -> None:
    (problem,) = parse_problems({}, {"QUIETEDIT_FETCH_DEADLINE": "10s"})
    assert problem.startswith(
        "environment: QUIETEDIT_FETCH_DEADLINE: '10s' is shorter than fetch.timeout (15s)"
    )
    parse({}, {"QUIETEDIT_FETCH_DEADLINE": "10s", "QUIETEDIT_FETCH_TIMEOUT": "0"})


def test_a_user_agent_with_a_line_break_is_refused() -> None:
    (problem,) = parse_problems({}, {"QUIETEDIT_USER_AGENT": "bot/1\r\nX-Injected: 1"})
    assert problem.startswith("environment: QUIETEDIT_USER_AGENT: 'bot/1\\r\\nX-Injected: 1'")
    assert "contains a line break or control character" in problem


@given(st.floats(min_value=0, max_value=MAX_DURATION_SECONDS))
def test_a_formatted_duration_parses_back_to_the_same_seconds(seconds: float) -> None:
    assert parse_duration(format_duration(seconds)) == seconds


@given(
    st.decimals(min_value=0, max_value=3_650, places=3),
    st.sampled_from([("ms", Decimal("0.001")), ("s", 1), ("m", 60), ("h", 3_600), ("d", 86_400)]),
)
def test_a_number_with_a_unit_is_that_many_units_of_seconds(
    number: Decimal, unit: tuple[str, Decimal | int]
) -> None:
    name, factor = unit
    assert parse_duration(f"{number:f}{name}") == float(number * factor)
    assert parse_duration(f"{number:f}") == float(number)


# ---- feeds -------------------------------------------------------------------------------------


def test_a_feed_entry_keeps_its_fields(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        """\
        feeds:
          - url: https://news.example.org/rss.xml
            name: Example News
            slug: example
            headers: {Accept-Language: en-GB, X-Client: newsdesk}
            enabled: false
        """,
    )
    (entry,) = load_config(path, environ={}).feeds
    assert (entry.url, entry.name, entry.slug, entry.enabled) == (
        "https://news.example.org/rss.xml",
        "Example News",
        "example",
        False,
    )
    assert entry.headers == (("Accept-Language", "en-GB"), ("X-Client", "newsdesk"))


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Le Monde Diplomatique — Édition française", "le-monde-diplomatique-edition-francaise"),
        ("  The  Example   Courier!! ", "the-example-courier"),
        ("\uff26\uff55\uff4c\uff4c\uff57\uff49\uff44\uff54\uff48 News", "fullwidth-news"),
        ("BBC News: UK", "bbc-news-uk"),
        ("x" * 100, "x" * 63),
        ("a" * 62 + " b", "a" * 62),
        ("日本語ニュース", ""),
    ],
)
def test_slugs_are_derived_from_names(name: str, slug: str) -> None:
    assert derive_slug(name) == slug


def test_a_name_without_latin_letters_takes_its_slug_from_the_host() -> None:
    config = parse({"feeds": [feed(url="https://www.example.jp/rss", name="日本語ニュース")]})
    assert config.feeds[0].slug == "example-jp"


def test_feeds_whose_names_give_the_same_slug_are_reported_with_a_fix() -> None:
    document = {
        "feeds": [
            feed(url="https://a.example.org/rss", name="World News"),
            feed(url="https://b.example.org/rss", name="World news!"),
        ]
    }
    (problem,) = parse_problems(document)
    assert problem.startswith("feeds.yaml: feeds[1].slug: 'world-news' (derived from its name)")
    assert "is also the slug of feeds[0]" in problem
    assert problem.endswith("give feeds[1] an explicit slug, e.g. slug: world-news-2")


def test_an_explicit_slug_may_not_repeat_a_derived_one() -> None:
    document = {
        "feeds": [
            feed(url="https://a.example.org/rss", name="Metro"),
            feed(url="https://b.example.org/rss", name="City", slug="metro"),
        ]
    }
    (problem,) = parse_problems(document)
    assert "feeds[1].slug: 'metro' (set explicitly) is also the slug of feeds[0]" in problem


@pytest.mark.parametrize("slug", ["Bad_Slug", "-leading", "x" * 64, "", "with space", 5])
def test_an_explicit_bad_slug_is_reported(slug: object) -> None:
    (problem,) = parse_problems({"feeds": [feed(slug=slug)]})
    assert problem.startswith(f"feeds.yaml: feeds[0].slug: {slug!r} is not a valid slug; use 1-63")


@pytest.mark.parametrize(
    ("url", "complaint"),
    [
        (
            "ftp://example.org/feed.xml",
            "'ftp://example.org/feed.xml' is not http(s); use an http://",
        ),
        ("example.org/feed.xml", "'example.org/feed.xml' is not http(s)"),
        ("https:///feed.xml", "'https:///feed.xml' has no host; write the full URL"),
        ("https://example.org/a feed.xml", "'https://example.org/a feed.xml' contains whitespace"),
        (
            "https://example.org:99999/rss",
            "'https://example.org:99999/rss' is not a valid URL (Port",
        ),
        (42, "42 is a number, not a URL"),
        (
            "https://desk:hunter2@example.org/rss",
            "'https://***@example.org/rss' contains credentials; "
            "remove 'user:password@' and send them in headers",
        ),
    ],
)
def test_feed_url_problems_are_reported(url: object, complaint: str) -> None:
    (problem,) = parse_problems({"feeds": [feed(url=url)]})
    assert problem.startswith(f"feeds.yaml: feeds[0].url: {complaint}")
    assert "hunter2" not in problem


def test_missing_required_feed_keys_are_reported() -> None:
    problems = parse_problems({"feeds": [{"name": "No URL"}, {"url": "https://example.org/a"}]})
    assert [p.split(": ")[1] for p in problems] == ["feeds[0].url", "feeds[1].name"]


def test_the_same_url_twice_is_reported() -> None:
    document = {
        "feeds": [
            feed(url="https://example.org/rss", name="One"),
            feed(url="HTTPS://Example.org:443/rss#top", name="Two"),
        ]
    }
    (problem,) = parse_problems(document)
    assert problem.startswith("feeds.yaml: feeds[1].url: 'HTTPS://Example.org:443/rss#top' is")
    assert "already the URL of feeds[0]" in problem


@pytest.mark.parametrize(
    ("name", "complaint"),
    [
        ("", "'' is empty"),
        ("x" * 201, "is 201 characters long; shorten it to at most 200"),
        (2024, "2024 is a number, not text"),
        ("Tab\x07Bell", "contains a line break or control"),
    ],
)
def test_feed_name_problems_are_reported(name: object, complaint: str) -> None:
    (problem,) = parse_problems({"feeds": [feed(name=name, slug="s")]})
    assert problem.startswith("feeds.yaml: feeds[0].name: ")
    assert complaint in problem


def test_a_feed_is_enabled_unless_it_says_otherwise() -> None:
    config = parse({"feeds": [feed(), feed(url="https://x.example.org/", slug="x", enabled=False)]})
    assert [entry.enabled for entry in config.feeds] == [True, False]
    (problem,) = parse_problems({"feeds": [feed(enabled="maybe")]})
    assert problem.startswith("feeds.yaml: feeds[0].enabled: 'maybe' is not true/false")


# ---- headers and ${VAR} ------------------------------------------------------------------------


def test_header_values_take_variables_from_the_environment(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        """\
        feeds:
          - url: https://news.example.org/rss.xml
            name: Example News
            headers:
              Authorization: "Bearer ${NEWS_TOKEN}"
              X-Pair: "${NEWS_USER}:${NEWS_TOKEN}"
              X-Template: "$${NOT_A_VARIABLE} costs $5 or $$"
        """,
    )
    config = load_config(path, environ={"NEWS_TOKEN": "abc123", "NEWS_USER": "desk"})
    assert config.feeds[0].headers == (
        ("Authorization", "Bearer abc123"),
        ("X-Pair", "desk:abc123"),
        ("X-Template", "${NOT_A_VARIABLE} costs $5 or $$"),
    )


@pytest.mark.parametrize(("environ", "state"), [({}, "not set"), ({"NEWS_TOKEN": ""}, "empty")])
def test_a_missing_variable_names_the_header_and_the_variable(
    environ: dict[str, str], state: str
) -> None:
    (problem,) = parse_problems(
        {"feeds": [feed(headers={"Authorization": "Bearer ${NEWS_TOKEN}"})]}, environ
    )
    assert problem == (
        "feeds.yaml: feeds[0].headers.Authorization: 'Bearer ${NEWS_TOKEN}' uses ${NEWS_TOKEN}, "
        f"which is {state}; set the environment variable NEWS_TOKEN or remove the header"
    )


@pytest.mark.parametrize("value", ["Bearer ${1TOKEN}", "Bearer ${TOKEN", "${}"])
def test_a_malformed_variable_reference_is_reported(value: str) -> None:
    (problem,) = parse_problems({"feeds": [feed(headers={"Authorization": value})]})
    assert "has a '${' that starts no ${NAME}" in problem


def test_a_header_value_with_a_line_break_is_refused(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        """\
        feeds:
          - url: https://news.example.org/rss.xml
            name: Example News
            headers:
              X-Client: "newsdesk\\r\\nX-Injected: yes"
        """,
    )
    (problem,) = problems_of(path)
    assert problem.startswith(f"{path}: feeds[0].headers.X-Client: 'newsdesk\\r\\nX-Injected")
    assert "could inject headers" in problem


def test_a_variable_with_a_line_break_is_refused_without_showing_its_value() -> None:
    document = {"feeds": [feed(headers={"Authorization": "Bearer ${NEWS_TOKEN}"})]}
    (problem,) = parse_problems(document, {"NEWS_TOKEN": "s3cret\nX-Injected: yes"})
    assert "expands to a line break or control character" in problem
    assert "s3cret" not in problem


@pytest.mark.parametrize(
    ("headers", "complaint"),
    [
        ({"Bad Header": "x"}, "feeds[0].headers['Bad Header']: 'Bad Header' is not a valid header"),
        ({"X-Version": 2}, "feeds[0].headers.X-Version: 2 is a number, not text; quote the value"),
        ({"X-Name": "Café"}, "feeds[0].headers.X-Name: 'Café' has non-ASCII characters"),
        ({"Accept": "a", "accept": "b"}, "feeds[0].headers.accept: repeats the header 'Accept'"),
        (["Accept: a"], "feeds[0].headers: ['Accept: a'] is a list, not a mapping"),
    ],
)
def test_header_problems_are_reported(headers: object, complaint: str) -> None:
    (problem,) = parse_problems({"feeds": [feed(headers=headers)]})
    assert problem.startswith(f"feeds.yaml: {complaint}")


# ---- structure: unknown keys, wrong types, YAML --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("setings: {}", "setings: unknown key; did you mean 'settings'?"),
        (
            "feeds:\n  - url: https://example.org/f\n    name: A\n    enabeld: false",
            "feeds[0].enabeld: unknown key; did you mean 'enabled'?",
        ),
        (
            "settings:\n  user_agnt: x",
            "settings.user_agnt: unknown key; did you mean 'user_agent'?",
        ),
        ("settings:\n  fetsh: {}", "settings.fetsh: unknown key; did you mean 'fetch'?"),
        (
            "settings:\n  fetch:\n    timout: 5s",
            "settings.fetch.timout: unknown key; did you mean 'timeout'?",
        ),
        (
            "settings:\n  timeout: 5s",
            "settings.timeout: unknown key; did you mean 'timeout' under 'fetch:'?",
        ),
        (
            "settings:\n  fetch.retries: 3",
            "settings['fetch.retries']: unknown key; did you mean 'retries' under 'fetch:'?",
        ),
        (
            "settings:\n  paths:\n    archive: x",
            "settings.paths.archive: unknown key; remove it "
            "(known keys: data, evidence, site, templates)",
        ),
    ],
)
def test_unknown_keys_are_reported_with_a_suggestion(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = write_config(tmp_path, text + "\n")
    assert problems_of(path) == (f"{path}: {expected}",)


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("- feeds\n- settings", "(top level): ['feeds', 'settings'] is a list, not a mapping"),
        ("just words", "(top level): 'just words' is text, not a mapping"),
        ("settings: [1, 2]", "settings: [1, 2] is a list, not a mapping"),
        ("settings:\n  fetch: 5", "settings.fetch: 5 is a number, not a mapping"),
        (
            "feeds:\n  url: https://example.org/f",
            "feeds: {'url': 'https://example.org/f'} is a mapping, not a list",
        ),
        (
            "feeds:\n  - https://example.org/f",
            "feeds[0]: 'https://example.org/f' is text, not a mapping",
        ),
    ],
)
def test_wrong_types_are_problems_not_tracebacks(tmp_path: Path, text: str, complaint: str) -> None:
    path = write_config(tmp_path, text + "\n")
    (problem,) = problems_of(path)
    assert problem.startswith(f"{path}: {complaint}")


def test_a_yaml_syntax_error_gives_its_line_and_column(tmp_path: Path) -> None:
    path = write_config(tmp_path, "feeds:\n  - url: [https://example.org/f\n    name: A\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})
    (problem,) = caught.value.problems
    assert problem.startswith(f"{path}: line 3, column 9: expected ',' or ']'")
    assert "(while parsing a flow sequence at line 2, column 10)" in problem
    assert isinstance(caught.value.__cause__, yaml.YAMLError)


def test_python_tags_are_refused_by_safe_loading(tmp_path: Path) -> None:
    path = write_config(tmp_path, "feeds: !!python/object/apply:os.system ['true']\n")
    (problem,) = problems_of(path)
    assert problem.startswith(f"{path}: line 1, column 8: could not determine a constructor")


def test_duplicate_yaml_keys_are_reported_with_their_lines(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        """\
        feeds:
          - url: https://news.example.org/rss.xml
            name: Example News
            name: Example Daily
        settings:
          fetch:
            timeout: 5s
            timeout: 10s
        """,
    )
    assert problems_of(path) == (
        f"{path}: feeds[0].name: duplicate key at line 4 (first at line 3); keep only one",
        f"{path}: settings.fetch.timeout: duplicate key at line 8 (first at line 7); keep only one",
    )


def test_duplicate_keys_are_reported_along_with_other_problems(tmp_path: Path) -> None:
    path = write_config(tmp_path, "settings:\n  run: {}\n  run: {}\n  rn: {}\n")
    problems = problems_of(path)
    assert [p.split(": ")[1] for p in problems] == ["settings.run", "settings.rn"]


def test_a_file_that_is_not_utf8_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "feeds.yaml"
    path.write_bytes("feeds:\n  - name: Caf\u00e9\n".encode("latin-1"))
    (problem,) = problems_of(path)
    assert problem == f"{path}: byte 20 is not UTF-8; save the file as UTF-8"


def test_an_explicitly_given_file_must_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "feeds.yaml"
    (problem,) = problems_of(missing)
    assert problem.startswith(f"{missing}: file not found; check the path")


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = write_config(
        tmp_path,
        """\
        feeds:
          - url: ftp://example.org/feed.xml
            name: ""
          - name: No URL
            slug: Not A Slug
        settings:
          user_agnt: quietedit-test
          fetch:
            retries: 11
            max_bytes: 1KB
          run:
            max_duration: -5m
        """,
    )
    problems = problems_of(path, {"QUIETEDIT_FETCH_BACKOF": "1s"})
    expected = [
        (str(path), "feeds[0].url"),
        (str(path), "feeds[0].name"),
        (str(path), "feeds[1].url"),
        (str(path), "feeds[1].slug"),
        (str(path), "settings.user_agnt"),
        (str(path), "settings.fetch.retries"),
        (str(path), "settings.fetch.max_bytes"),
        (str(path), "settings.run.max_duration"),
        ("environment", "QUIETEDIT_FETCH_BACKOF"),
    ]
    assert len(problems) == len(expected)
    for source, key_path in expected:
        assert sum(p.startswith(f"{source}: {key_path}: ") for p in problems) == 1, key_path
    assert all(";" in problem for problem in problems)  # each says how to fix it


# ---- paths -------------------------------------------------------------------------------------


def test_relative_paths_resolve_against_the_config_files_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(
        tmp_path / "newsroom",
        f"settings:\n  paths:\n    data: archive\n    templates: {tmp_path / 'theme'}\n",
    )
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    paths = load_config(Path("../newsroom/feeds.yaml"), environ={}).settings.paths
    assert paths.data.resolve() == tmp_path / "newsroom" / "archive"
    assert paths.site.resolve() == tmp_path / "newsroom" / "site"
    assert paths.evidence.resolve() == tmp_path / "newsroom" / "evidence"
    assert paths.templates == tmp_path / "theme"


# ---- properties ----------------------------------------------------------------------------------


@given(st.text())
def test_a_derived_slug_is_valid_or_empty(text: str) -> None:
    slug = derive_slug(text)
    assert slug == "" or SLUG_PATTERN.fullmatch(slug)
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    assert (slug == "") == (not any(char.isalnum() for char in ascii_text))


@given(
    st.text(min_size=1, max_size=200).filter(
        lambda name: name.strip() and all(unicodedata.category(c) != "Cc" for c in name)
    )
)
def test_every_feed_name_gets_a_valid_slug_or_the_host_fallback(name: str) -> None:
    config = parse({"feeds": [feed(url="https://www.example.org/rss", name=name)]})
    slug = config.feeds[0].slug
    assert SLUG_PATTERN.fullmatch(slug)
    assert slug == (derive_slug(name) or "example-org")


def test_render_names_a_browser_or_is_left_out() -> None:
    config = parse(
        {
            "feeds": [
                feed(),
                feed(url="https://x.example.org/", slug="x", render="chromium"),
                feed(url="https://y.example.org/", slug="y", render="Chromium"),
                feed(url="https://z.example.org/", slug="z", render=False),
            ]
        }
    )
    assert [entry.render for entry in config.feeds] == [None, "chromium", "chromium", None]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("firefox", "feeds.yaml: feeds[0].render: 'firefox' is not a renderer; write 'render: "
         "chromium' for a site whose article pages write their text with JavaScript"),
        (True, "feeds.yaml: feeds[0].render: True is not a renderer; true says which browser? "),
        (["chromium"], "feeds.yaml: feeds[0].render: ['chromium'] is not a renderer"),
    ],
)  # fmt: skip
def test_a_render_value_that_names_no_browser_is_a_clear_error(value: object, message: str) -> None:
    (problem,) = parse_problems({"feeds": [feed(render=value)]})
    assert problem.startswith(message)
