"""Share images: one 1200x630 PNG per recent edit, the picture of a link's card (og:image).

Each image shows the outlet, the headline, the changed words marked as the site marks them
(removed: red and struck; added: green and underlined), the kinds and the verdict (silent,
noted, …); :func:`alt_text` says the same in words (``og:image:alt``, the posts' alt text).

Drawn with Pillow from the DejaVu Sans subsets bundled in ``fonts/`` (Latin, Greek and
Cyrillic). Text the fonts cannot draw is never drawn as empty boxes: a headline or excerpt
mostly in such a script (Korean, Thai, Arabic, emoji) is replaced by a line that says so,
a few stray characters by ``□``; the alt text keeps every word. Text is laid out left to
right with Pillow's basic layout (no shaping): what raqm would do depends on the system's
libraries, and the bytes must not.

Deterministic: the same card gives the same bytes with the same Pillow (its wheel bundles
FreeType and zlib): no text chunks, no time, no gamma; a fixed palette of the site's
colours, mapped without dithering, at a fixed compression level.

Small: text is drawn without antialiasing (FreeType's hinted monochrome glyphs, sharp at
these sizes), so the image holds only the site's ten flat colours: a 4-bit palette PNG of
about 9.4 KB, where antialiased text (31 colours with the shades of its edges) took 16.5.
:func:`card_key` names a card's inputs, so that a build draws each image once.

Which edits get one (:func:`share_cutoff`): those observed within ``settings.site.share_days``
of the archive's newest observation, never of the clock, so that the same archive always
gives the same site.
"""

from __future__ import annotations

import functools
import hashlib
import io
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw, ImageFont
from PIL import __version__ as PILLOW_VERSION

from quietedit.model import format_timestamp, parse_timestamp
from quietedit.publish.diffview import Segment
from quietedit.publish.listing import EditRef
from quietedit.publish.pages import Edit

WIDTH: Final = 1200
HEIGHT: Final = 630
"""The size Facebook, Mastodon, Bluesky and X crop a large link card to (1.91:1)."""
COMPRESS_LEVEL: Final = 6
"""zlib's default: level 9 saves 0.6 KB an image (8.8 KB instead of 9.4) for six times the
time (24 ms of CPU instead of 4; ``bench/share_images.py``)."""
SHARE_VERSION: Final = "2"
"""Part of every card's key: bump it when the drawing changes, and every image is redrawn."""
IMAGE_NAME: Final = "share.png"
"""The image's file name in the edit's own folder (``articles/<id>/diff/<n>/``)."""
MAX_CHARS: Final = 600
"""Text beyond this is never laid out (a headline of a megabyte must not cost a second)."""
MAX_ALT: Final = 1400
"""Mastodon keeps 1,500 characters of alt text; Bluesky 2,000."""
UNDRAWABLE_SHARE: Final = 0.3
"""Above this share of characters the fonts lack, a text is replaced by a notice."""

FONTS: Final = Path(__file__).parent / "fonts"
_MARGIN: Final = 64
_TEXT_WIDTH: Final = WIDTH - 2 * _MARGIN

# the site's colours (templates/static/site.css, light theme)
_BG: Final = "#fdfcf8"
_FG: Final = "#1b1b1b"
_MUTED: Final = "#5a5a5a"
_RULE: Final = "#dedbd2"
_INS_BG: Final = "#d9f2dc"
_INS_FG: Final = "#0c4a17"
_DEL_BG: Final = "#fbdada"
_DEL_FG: Final = "#7a1111"
_SILENT: Final = "#8a1c00"
_ACK: Final = "#1d5e2a"
_OTHER: Final = "#5a5a5a"

_SPACE: Final = re.compile(r"\s+")
_NOT_SHOWN: Final = "□"


@dataclass(frozen=True, slots=True)
class ShareCard:
    """What a share image shows: all of it plain text, as the page shows it."""

    outlet: str
    headline: str
    old_headline: str  # the headline before the edit when it changed, else ""
    excerpt: tuple[Segment, ...]  # the changed words with a few around them
    kinds: tuple[str, ...]
    verdict: str  # "silent", "noted", "technical notice", "acknowledged" or "not judged"
    observed: str  # the day the edit was seen, YYYY-MM-DD
    site: str


def verdict_words(edit: Edit) -> str:
    """The verdict as the page's badge says it."""
    if edit.silent is None:
        return "not judged"
    if edit.silent:
        return "silent"
    return {"technical": "technical notice", "proper": "noted"}.get(edit.notice, "acknowledged")


def card_of(edit: Edit, *, outlet: str, site: str) -> ShareCard:
    """The card of ``edit`` of the outlet named ``outlet``, on the site named ``site``."""
    old = edit.old_title if edit.old_title and edit.old_title != edit.title else ""
    return ShareCard(
        outlet=outlet,
        headline=edit.title,
        old_headline=old,
        excerpt=edit.excerpt,
        kinds=edit.kinds,
        verdict=verdict_words(edit),
        observed=edit.day,
        site=site,
    )


@functools.cache
def _fonts_digest() -> str:
    """A hash of the bundled fonts' bytes: other fonts draw other images."""
    digest = hashlib.sha256()
    for path in sorted(FONTS.glob("*.ttf")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def card_key(card: ShareCard) -> str:
    """A hash of everything the image of ``card`` depends on: the card, the drawing's
    version, the fonts and Pillow's version (its wheel brings the FreeType and zlib that
    make the bytes)."""
    parts = [SHARE_VERSION, PILLOW_VERSION, _fonts_digest(), card.outlet, card.headline]
    parts += [card.old_headline]
    parts += [card.verdict, card.observed, card.site, ",".join(card.kinds)]
    parts += [op + text for op, text in card.excerpt]
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def alt_text(card: ShareCard) -> str:
    """The image in words: the same content, for ``og:image:alt`` and the posts' alt text."""
    kinds = ", ".join(card.kinds) or "none"
    parts = [f"{_plain(card.outlet).strip()}: “{_plain(card.headline).strip()}”."]
    if card.old_headline:
        parts.append(f"Headline changed from “{_plain(card.old_headline).strip()}”.")
    marked = "".join(
        text if op == "=" else f"[{'removed' if op == '-' else 'added'}: {text.strip()}] "
        for op, text in card.excerpt
    )
    if marked.strip():
        parts.append(f"Changed text: “{_plain(marked).strip()}”.")
    parts.append(f"Kinds: {kinds}. Verdict: {card.verdict}. Seen {card.observed} by {card.site}.")
    text = " ".join(parts)
    return text if len(text) <= MAX_ALT else text[: MAX_ALT - 1].rstrip() + "…"


def share_cutoff(newest: str, days: int) -> str | None:
    """The earliest observation time an edit may have to get an image: the start (UTC) of
    the hour ``days`` days before the hour of ``newest`` (the archive's newest
    observation, RFC 3339); ``None`` for no images at all (``days`` is 0, or nothing was
    observed). Whole hours: the window moves once an hour, so each hourly build makes
    again the pages of the edits of one hour a week before, not once a day those of a
    whole day's edits."""
    if days <= 0 or not newest:
        return None
    hour = parse_timestamp(newest).replace(minute=0, second=0, microsecond=0)
    return format_timestamp(hour - timedelta(days=days))


def is_shared(observed_at: str, cutoff: str | None) -> bool:
    """Whether an edit observed at ``observed_at`` gets a share image under ``cutoff``
    (:func:`share_cutoff`; both RFC 3339 in UTC, as the archive writes them)."""
    # as times: "…:00.5Z" is after "…:00Z", though it sorts before it
    return cutoff is not None and parse_timestamp(observed_at) >= parse_timestamp(cutoff)


def moved_out_or_in(refs: Iterable[EditRef], before: str | None, after: str | None) -> set[str]:
    """The documents of ``refs`` with an edit that gets an image under one cutoff and not
    under the other: their pages must be made again."""
    return {
        ref.document
        for ref in refs
        if is_shared(ref.observed_at, before) != is_shared(ref.observed_at, after)
    }


# -- drawing ---------------------------------------------------------------------------


@functools.cache
def _font(bold: bool, size: int) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size, layout_engine=ImageFont.Layout.BASIC)


@functools.cache
def _notdef() -> bytes:
    return _glyph("\U0010fffd")  # a private-use character: no font of ours has it


@functools.cache
def _glyph(char: str) -> bytes:
    mask = _font(False, 24).getmask(char)
    return bytes(mask.size) + bytes(mask)


@functools.cache
def drawable(char: str) -> bool:
    """Whether the bundled fonts have a glyph for ``char``."""
    return char == " " or _glyph(char) != _notdef()


def _plain(text: str) -> str:
    """``text`` in NFC without control and format characters, its white space one space."""
    text = unicodedata.normalize("NFC", text[: MAX_CHARS * 4])
    kept = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in text)
    return _SPACE.sub(" ", kept)


def _shown(text: str) -> tuple[str, bool]:
    """``text`` as the fonts can draw it, and whether it is still worth drawing: a text
    mostly in a script they lack is not (the caller shows a notice); runs of a few
    characters they lack become ``□``."""
    text = _plain(text)[:MAX_CHARS]
    letters = [c for c in text if not c.isspace()]
    missing = sum(not drawable(c) for c in letters)
    if letters and missing > UNDRAWABLE_SHARE * len(letters):
        return "", False
    out: list[str] = []
    for char in text:
        if drawable(char):
            out.append(char)
        elif not out or out[-1] != _NOT_SHOWN:
            out.append(_NOT_SHOWN)
    return "".join(out), True


Token = tuple[str, str]  # (op, word with its trailing space)


def _words(op: str, text: str) -> list[Token]:
    return [(op, word) for word in re.findall(r"\S+\s*|\s+", text)]


def _tokens(segments: tuple[Segment, ...]) -> tuple[list[Token], bool]:
    """The words of ``segments`` with their ops; False when the text is mostly undrawable."""
    whole = "".join(text for _, text in segments)
    if not _shown(whole)[1]:
        return [], False
    tokens: list[Token] = []
    budget = MAX_CHARS
    for op, text in segments:
        shown, _ = _shown(text)
        tokens += _words(op, shown[:budget])
        budget -= len(shown)
        if budget <= 0:
            break
    return tokens, True


def _split_long(word: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """A word wider than a line, cut into pieces that fit."""
    pieces, current = [], ""
    for char in word:
        if current and font.getlength(current + char) > width:
            pieces.append(current)
            current = ""
        current += char
    return [*pieces, current] if current else pieces


def _lines(
    tokens: list[Token], font: ImageFont.FreeTypeFont, *, width: int, max_lines: int
) -> list[list[Token]]:
    """``tokens`` wrapped into at most ``max_lines`` lines; the last ends in "…" when cut."""
    lines: list[list[Token]] = [[]]
    x = 0.0
    cut = False
    for op, word in tokens:
        pieces = (
            [word] if font.getlength(word.rstrip()) <= width else _split_long(word, font, width)
        )
        for piece in pieces:
            size = font.getlength(piece.rstrip())
            if lines[-1] and x + size > width:
                if len(lines) == max_lines:
                    cut = True
                    break
                lines.append([])
                x = 0.0
            lines[-1].append((op, piece))
            x += font.getlength(piece)
        if cut:
            break
    if cut:
        last = lines[-1]
        while last and sum(font.getlength(w) for _, w in last) + font.getlength(" …") > width:
            last.pop()
        op = last[-1][0] if last else "="
        last.append((op, "…"))
    return [line for line in lines if line]


def _draw_lines(
    draw: ImageDraw.ImageDraw,
    lines: list[list[Token]],
    font: ImageFont.FreeTypeFont,
    *,
    top: int,
    leading: int,
) -> int:
    """Draw ``lines`` from ``top``; removed words red and struck, added green and
    underlined; returns the y below the last line."""
    ascent, descent = font.getmetrics()
    y = top
    for line in lines:
        x = float(_MARGIN)
        for index, (op, word) in enumerate(line):
            text = word.rstrip()
            size = font.getlength(text)
            following = index + 1 < len(line) and line[index + 1][0] == op
            full = font.getlength(word) if following else size
            if op in "-+":
                background = _DEL_BG if op == "-" else _INS_BG
                draw.rectangle(
                    (round(x) - 2, y - 2, round(x + full) + 2, y + ascent + descent + 2),
                    fill=background,
                )
            colour = _DEL_FG if op == "-" else _INS_FG if op == "+" else _FG
            draw.text((x, y), text, font=font, fill=colour)
            if op == "-":
                middle = y + ascent * 0.62
                draw.line((x, middle, x + size, middle), fill=_DEL_FG, width=3)
            elif op == "+":
                under = y + ascent + 4
                draw.line((x, under, x + size, under), fill=_INS_FG, width=2)
            x += font.getlength(word)
        y += leading
    return y


def _badge(draw: ImageDraw.ImageDraw, verdict: str) -> None:
    colour = _SILENT if verdict == "silent" else _ACK if verdict == "noted" else _OTHER
    label = "SILENT EDIT" if verdict == "silent" else verdict.upper()
    font = _font(True, 26)
    width = font.getlength(label)
    right = WIDTH - _MARGIN
    draw.rounded_rectangle((right - width - 32, 40, right, 84), radius=8, fill=colour)
    draw.text((right - width - 16, 47), label, font=font, fill=_BG)


def render_card(card: ShareCard) -> bytes:
    """The PNG of ``card``: 1200x630, a fixed palette (:func:`_palette`), deterministic bytes."""
    return encode(draw_card(card))


def draw_card(card: ShareCard) -> Image.Image:
    """The picture of ``card``, before its colours are mapped to the palette."""
    image = Image.new("RGB", (WIDTH, HEIGHT), _BG)
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"  # no antialiasing: flat colours only (see the module's doc)
    accent = _SILENT if card.verdict == "silent" else _ACK if card.verdict == "noted" else _OTHER
    draw.rectangle((0, 0, WIDTH, 10), fill=accent)
    _badge(draw, card.verdict)
    outlet, ok = _shown(card.outlet)
    small = _font(True, 28)
    outlet_lines = _lines(
        [("=", outlet if ok else "")], small, width=_TEXT_WIDTH - 320, max_lines=1
    )
    _draw_lines(draw, outlet_lines, small, top=48, leading=40)
    big = _font(True, 44)
    tokens, ok = _tokens((("=", card.headline),))
    if not ok:
        tokens, big = (
            _words("=", "(a headline in a script this image cannot show: see the page)"),
            _font(True, 34),
        )
    lines = _lines(tokens, big, width=_TEXT_WIDTH, max_lines=2)
    y = _draw_lines(draw, lines, big, top=118, leading=round(big.size) + 14)
    body = _font(False, 30)
    if card.old_headline:  # what it replaced, struck, as the page's headline history shows it
        tokens, ok = _tokens((("=", "was: "), ("-", card.old_headline)))
        if ok:
            lines = _lines(tokens, body, width=_TEXT_WIDTH, max_lines=2)
            y = _draw_lines(draw, lines, body, top=y + 2, leading=42)
    room = (536 - (y + 22)) // 42
    changed = any(op != "=" for op, _ in card.excerpt)
    if changed and room > 0:
        draw.line((_MARGIN, y + 4, WIDTH - _MARGIN, y + 4), fill=_RULE, width=2)
        tokens, ok = _tokens(card.excerpt)
        if not ok:
            tokens = _words("=", "(changed words in a script this image cannot show: see the page)")
        lines = _lines(tokens, body, width=_TEXT_WIDTH, max_lines=room)
        _draw_lines(draw, lines, body, top=y + 24, leading=42)
    draw.line((_MARGIN, 552, WIDTH - _MARGIN, 552), fill=_RULE, width=2)
    foot = _font(False, 26)
    kinds = ", ".join(card.kinds) or "no kind"
    info = [("=", f"{kinds} · seen {card.observed}")]
    _draw_lines(
        draw, _lines(info, foot, width=_TEXT_WIDTH - 300, max_lines=1), foot, top=570, leading=32
    )
    site, ok = _shown(card.site)
    if ok and site:
        name = _font(True, 26)
        draw.text((WIDTH - _MARGIN - name.getlength(site), 570), site, font=name, fill=_MUTED)
    return image


def encode(image: Image.Image) -> bytes:
    """``image`` as a PNG of the palette's colours (no dithering), at a fixed compression."""
    palette = image.quantize(palette=_palette(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, "PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


@functools.cache
def _palette() -> Image.Image:
    """The site's colours, the only ones an image of flat backgrounds and text drawn
    without antialiasing has: ten, so the PNG packs 4 bits a pixel."""
    colours = (_BG, _FG, _MUTED, _RULE, _INS_BG, _INS_FG, _DEL_BG, _DEL_FG, _SILENT, _ACK)
    flat = [value for colour in dict.fromkeys(colours) for value in _rgb(colour)]
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image
