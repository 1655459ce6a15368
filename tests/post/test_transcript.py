"""The requests one ``quietedit post`` run sends, as the loopback servers saw them: every
edit of the fixture posted to Mastodon and Bluesky, one with its share image, one a reply
in its article's thread. The test writes it to ``post-transcript.txt`` in its temporary
folder (``pytest tests/post/test_transcript.py --basetemp=<folder>`` keeps it in a known
place) and checks what it shows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.post.conftest import bluesky_account, mastodon_account
from tests.post.fakes import (
    BLUESKY_PASSWORD,
    MASTODON_TOKEN,
    Exchange,
    FakeBluesky,
    FakeMastodon,
    _invalid_post,
    png_image,
)
from tests.post.test_post_run import BRIDGE, MINISTER, run

HIDDEN = ("authorization", "idempotency-key", "content-type", "user-agent")


def transcript(exchanges: list[Exchange]) -> str:
    """One block per request: the request line, the headers that matter, the body."""
    blocks = []
    for exchange in exchanges:
        headers = {
            k: ("<token>" if k.lower() == "authorization" else v)
            for k, v in sorted(exchange.headers.items())
            if k.lower() in HIDDEN
        }
        body = _short(exchange.body)
        blocks.append(
            f"{exchange.line()}\n"
            + "".join(f"  {k}: {v}\n" for k, v in headers.items())
            + "  "
            + json.dumps(body, ensure_ascii=False, indent=2, sort_keys=True).replace("\n", "\n  ")
        )
    return "\n".join(blocks) + "\n"


def _short(value: Any) -> Any:
    """The body with long texts cut, so a transcript stays readable."""
    if isinstance(value, dict):
        return {k: ("<password>" if k == "password" else _short(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_short(v) for v in value]
    if isinstance(value, str) and len(value) > 400:
        return value[:399] + "…"
    return value


def test_the_transcript_of_a_run_shows_each_network_speaking_its_api(
    site: tuple[Path, Path], mastodon: FakeMastodon, bluesky: FakeBluesky, tmp_path: Path
) -> None:
    _, out = site
    (out / f"articles/{MINISTER}/diff/2/share.png").write_bytes(png_image(40, 21))

    report = run(site, mastodon_account(mastodon), bluesky_account(bluesky))

    assert len(report.posted) == 8 and not report.failures
    said = transcript(mastodon.requests) + transcript(bluesky.requests)
    (tmp_path / "post-transcript.txt").write_text(
        "== Mastodon\n"
        + transcript(mastodon.requests)
        + "\n== Bluesky\n"
        + transcript(bluesky.requests),
        encoding="utf-8",
    )
    lines = [line for line in said.splitlines() if line and not line.startswith(" ")]
    assert lines == [
        "POST /api/v1/statuses",
        "POST /api/v2/media",
        "POST /api/v1/statuses",
        "POST /api/v1/statuses",
        "POST /api/v1/statuses",
        "POST /xrpc/com.atproto.server.createSession",
        "POST /xrpc/com.atproto.repo.createRecord",
        "POST /xrpc/com.atproto.repo.uploadBlob",
        "POST /xrpc/com.atproto.repo.createRecord",
        "POST /xrpc/com.atproto.repo.createRecord",
        "POST /xrpc/com.atproto.repo.createRecord",
    ]
    assert MASTODON_TOKEN not in said and BLUESKY_PASSWORD not in said
    assert '"description": "Example Net Daily — Politics: “Minister' in said
    assert '"$type": "app.bsky.embed.images"' in said and '"alt": "Example Net' in said
    assert '"$type": "app.bsky.richtext.facet#link"' in said
    assert said.count('"$type": "app.bsky.embed.external"') == 3
    # the bridge's second edit replies in its thread: root and parent, each uri and cid
    reply = [r.body["record"]["reply"] for r in bluesky.requests if "reply" in (
        r.body.get("record") or {})]  # fmt: skip
    assert len(reply) == 1 and {"root", "parent"} <= set(reply[0])
    assert reply[0]["root"]["uri"].endswith(bluesky_rkey(bluesky, 0))
    toots = [r.body for r in mastodon.requests if r.path == "/api/v1/statuses"]
    assert [t.get("in_reply_to_id") for t in toots] == [None, None, None, "1100"]
    assert f"articles/{BRIDGE}/diff/3/" in toots[3]["status"]
    assert all(len(r.headers.get("Idempotency-Key", "")) == 32 for r in mastodon.requests
               if r.path == "/api/v1/statuses")  # fmt: skip


def bluesky_rkey(fake: FakeBluesky, index: int) -> str:
    made = [r.body["rkey"] for r in fake.requests if r.path.endswith("createRecord")]
    return str(made[index])


def test_the_stand_in_pds_refuses_what_the_lexicon_does_not_allow() -> None:
    """The loopback PDS checks records as a validating server does, so the posts the
    tests accept are ones Bluesky would."""
    link = "bafkreie4odqcatnspqjl5gt2ghny5fdyemiulqz5pdmjkespe3q53cwny4"
    image = {"$type": "blob", "ref": {"$link": link}, "mimeType": "image/png", "size": 3}
    post: dict[str, Any] = {
        "$type": "app.bsky.feed.post",
        "text": "Silent edit\nexample.org/d/",
        "createdAt": "2026-11-28T18:00:00Z",
        "embed": {"$type": "app.bsky.embed.images", "images": [{"image": image, "alt": "a"}]},
        "facets": [
            {
                "index": {"byteStart": 12, "byteEnd": 26},
                "features": [
                    {"$type": "app.bsky.richtext.facet#link", "uri": "https://example.org/d/"}
                ],
            }
        ],
    }
    assert _invalid_post(post) is None
    del post["embed"]["images"][0]["alt"]
    assert "alt" in str(_invalid_post(post))
    post["embed"]["images"][0]["alt"] = "a"
    post["facets"][0]["index"]["byteEnd"] = 27
    assert "byteSlice" in str(_invalid_post(post))
    post["facets"][0]["index"]["byteEnd"] = 26
    post["text"] = "x" * 301
    assert "300" in str(_invalid_post(post))
