"""Page furniture: what the markup and the words say is not the article.

Two kinds of evidence, both cheap to test on every element of a page:

- **Hints** from ``class``, ``id`` and ``role``: ``cookie-banner`` and ``share-tools``
  are furniture wherever they are (*strong*); ``sidebar`` or ``footer`` usually are, but a
  theme may put one of those words on the wrapper of the whole page (*weak*: the
  extractor overrules a weak hint on an element that holds most of the page's prose);
  ``article-body`` or ``itemprop=articleBody`` mark the article (*content*).
- **Boilerplate lines**: short blocks whose words alone give them away ("Share this
  article", "Advertisement", "Sign up for our newsletter", "© 2026 …"), in English and
  German.

The vocabularies are curated from the markup of news and blog CMSs (WordPress, Arc,
Drupal, Hearst, Next.js sites); what they miss on one host, the per-host template
(:mod:`quietedit.article.template`) learns from many of its pages.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache
from typing import Final


class Hint(Enum):
    """What an element's class, id or role says about it, most damning first."""

    HIDDEN = -4  # not rendered at all ("sr-only", "d-none"): skipped like a <script>
    ALWAYS = -3  # furniture even when it holds much of the page's text (comments)
    STRONG = -2  # furniture unless it wraps the article (an odd class on the wrapper)
    WEAK = -1  # furniture unless it wraps a large share of the page
    NONE = 0
    CONTENT = 1  # the article itself


def _vocabulary(words: str) -> frozenset[str]:
    """A set of class words, each also without its hyphens ("share-tools", "sharetools")."""
    entries = words.split()
    return frozenset(entries + [entry.replace("-", "") for entry in entries])


def _starters(*vocabularies: frozenset[str]) -> frozenset[str]:
    """The first tokens of the vocabularies' multi-token entries ("share" of "share-tools")."""
    return frozenset(
        entry.split("-", 1)[0] for words in vocabularies for entry in words if "-" in entry
    )


# Class and id words are compared as whole tokens and runs of two or three tokens
# ("share-tools", "table-of-contents"), so that "ad" matches neither "header" nor a hex
# id's "5ad4", and "share" not "shareholder". Only these long, unmistakable words are
# searched for anywhere in the class ("cookienotice", "gdpr-wall").
_ALWAYS_ANYWHERE: Final = (
    "cookie", "consent", "gdpr", "onetrust", "didomi", "disqus", "breadcrumb", "outbrain",
    "taboola",
)  # fmt: skip
_ALWAYS: Final = _vocabulary(
    """
    comment comments comment-list comment-respond respond replies share sharing shares
    share-bar share-tools sharing-tools share-buttons social socials social-share
    social-links social-media social-icons follow-us
    kommentar kommentare leserkommentare teilen
    """
)
_STRONG: Final = _vocabulary(
    """
    paywall-prompt paywall-offer paywall-message paywall-banner paywall-cta regwall
    meter-prompt piano-offer subscribe-prompt subscription-prompt
    newsletter newsletter-signup newsletter-form newsletter-box subscribe subscription
    subscribe-form subscribe-box signup sign-up related related-posts related-articles
    related-content related-stories more-stories read-more read-next recommended
    recommendations promo promos sponsored
    advert advertisement adverts advertising ad ads adslot ad-slot ad-unit ad-container
    ad-wrapper dfp gpt banner-ad reply rating author-bio author-box about-the-author
    post-author popup modal overlay toast tooltip skip-link skip-to-content print-only
    caption captions credit credits image-credit photo-credit wp-caption-text copyright
    tags tag-list tagcloud tag-cloud post-tags entry-tags article-tags keywords toc
    table-of-contents jump-links pagination pager prev-next post-navigation nav-links
    byline bylines dateline timestamp published-date post-date entry-date entry-meta
    post-meta article-meta hero-caption lightbox slideshow carousel gallery-nav app-promo
    app-download push-notification donate donation login signin sign-in alert-banner
    breaking-bar ticker-bar trending most-read most-popular popular-posts
    you-may-also-like also-read see-also
    anzeige anzeigen werbung mehr-zum-thema lesen-sie-auch weitere-artikel
    verwandte-artikel bildunterschrift bildquelle autor autorin datum
    """
)
_WEAK: Final = _vocabulary(
    """
    sidebar side-bar aside rail right-rail left-rail footer site-footer header
    site-header masthead navbar nav navigation menu menus topbar top-bar toolbar subnav
    megamenu mega-menu offcanvas off-canvas search site-search
    kopf kopfzeile kopfbereich fuss fusszeile fussbereich menue hauptmenue seitenleiste
    """
)
_CONTENT: Final = _vocabulary(
    """
    article-body article-content article-text story-body story-content story-text
    entry-content entry-body post-content post-body post-text body-text content-body
    main-content page-content rich-text text-content single-content blog-content
    blog-post-body field-name-body node-content prose markdown article story content
    entry main body
    """
)
_STARTERS: Final = _starters(_ALWAYS, _STRONG, _WEAK, _CONTENT)
# Every vocabulary word with the hint it gives; a class takes its most telling word's hint,
# ranked always > strong > content > weak.
_RANK: Final = {
    word: rank
    for rank, words in ((1, _WEAK), (2, _CONTENT), (3, _STRONG), (4, _ALWAYS))
    for word in words
}
# The parts (between hyphens) a class word needs one of to rank at all.
_PARTS: Final = frozenset(_RANK) | _STARTERS
_FURNITURE_ROLES: Final = frozenset(
    {
        "navigation", "banner", "contentinfo", "complementary", "search", "dialog",
        "alertdialog", "menu", "menubar", "toolbar", "tablist", "tooltip", "status",
        "marquee", "timer", "form",
    }
)  # fmt: skip
# Classes that hide an element in the CSS frameworks most sites use (utility CSS,
# Bootstrap, Webflow, WordPress, Drupal) — unless a responsive class shows it again on
# wider screens ("hidden md:block", "d-none d-lg-block").
_HIDDEN_CLASSES: Final = frozenset(
    {
        "hidden", "invisible", "d-none", "w-condition-invisible", "is-hidden", "sr-only",
        "screen-reader-text", "visually-hidden", "visuallyhidden", "element-invisible",
        "hide", "u-hidden", "a11y-hidden", "offscreen", "screenreader-only",
    }
)  # fmt: skip
_RESPONSIVE: Final = re.compile(r"d-(?:sm|md|lg|xl|xxl)-|(?:sm|md|lg|xl)-")
_RESPONSIVE_STARTS: Final = ("d-", "sm-", "md-", "lg-", "xl-")  # what _RESPONSIVE needs
_SCRIPT_HOOKS: Final = ("js-", "js_")  # class words that name behaviour, not content
_HIDDEN_STYLE: Final = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


# A class word's verdict as bits, so that the words of a class combine with one "or":
# one bit per hint (the highest set bit wins) and two for hiding and showing again.
_WEAK_BIT: Final = 1
_CONTENT_BIT: Final = 2
_STRONG_BIT: Final = 4
_ALWAYS_BIT: Final = 8
_HIDES: Final = 16
_SHOWS: Final = 32
_BITS: Final = (_WEAK_BIT, _CONTENT_BIT, _STRONG_BIT, _ALWAYS_BIT)  # by rank 1…4
SLUG_MIN_HYPHENS: Final = 3
"""An id with this many hyphens is read as a heading's slug, not a description."""
LABEL_MAX: Final = 400
"""Characters of a class, id or itemprop that are read: real ones are shorter, and a
hostile page must not fill the hint caches with megabyte-long keys."""


def class_hint(classes: str | None, ident: str | None = None, itemprop: str | None = None) -> Hint:
    """The hint an element's ``class``, ``id`` and ``itemprop`` give.

    A hiding class makes it :attr:`Hint.HIDDEN` (unless a responsive class shows it
    again); ``itemprop=articleBody`` marks the article. Otherwise each class word is
    ranked and the most telling one decides: an always-furniture word wins over
    everything ("comment-content" is a comment), a strong one over a content word, and a
    content word over a weak one ("main-column sidebar-left" wraps the article).

    Script hooks ("js-social-anchor") describe behaviour, not content, and an id of four
    or more words is the slug of a heading ("sharing-with-a-single-developer"): neither
    counts.

    Each class word's verdict is kept once worked out (the walk also keeps each element's
    whole hint): a site's pages repeat a few hundred words thousands of times.
    """
    verdict = 0
    if classes:
        cache = _WORD_BITS
        for word in classes.lower().split():
            bits = cache.get(word)
            verdict |= _new_word_bits(word) if bits is None else bits
        if verdict & _HIDES and not verdict & _SHOWS:
            return Hint.HIDDEN
    if itemprop and "articlebody" in itemprop.lower():
        return Hint.CONTENT
    if ident and ident.replace("_", "-").count("-") < SLUG_MIN_HYPHENS:
        lowered = ident.lower()
        bits = _WORD_BITS.get(lowered)
        verdict |= _new_word_bits(lowered) if bits is None else bits
    if verdict & _ALWAYS_BIT:
        return Hint.ALWAYS
    if verdict & _STRONG_BIT:
        return Hint.STRONG
    if verdict & _CONTENT_BIT:
        return Hint.CONTENT
    if verdict & _WEAK_BIT:
        return Hint.WEAK
    return Hint.NONE


WORD_CACHE_MAX: Final = 65536
"""Class words whose verdict is kept; the cache starts again when it is full. A dict,
looked up by the caller: a call per word would cost as much as the look-up saves."""
_WORD_BITS: Final[dict[str, int]] = {}


def _new_word_bits(word: str) -> int:
    """One lower-case class word's verdict (its hint's bit, its hide/show bits), kept."""
    bits = _display_bits(word)
    if not word.startswith(_SCRIPT_HOOKS):
        for part in _ALWAYS_ANYWHERE:  # a loop, not any(): this runs for every new word
            if part in word:
                bits |= _ALWAYS_BIT
                break
        else:
            bits |= _vocabulary_bits(word)
    if len(_WORD_BITS) >= WORD_CACHE_MAX:
        _WORD_BITS.clear()
    _WORD_BITS[word] = bits
    return bits


def _display_bits(word: str) -> int:
    """A lower-case class word's hide/show bits."""
    if word in _HIDDEN_CLASSES:
        return _HIDES
    if ":" in word or (word.startswith(_RESPONSIVE_STARTS) and _RESPONSIVE.match(word)):
        return _SHOWS
    return 0


def _vocabulary_bits(word: str) -> int:
    """The hint bit of a lower-case word by the vocabulary: its most telling part, or run
    of two or three parts ("share-tools"), decides."""
    if "-" not in word and "_" not in word:
        rank = _RANK.get(word, 0)  # one part: its own rank, the most common case
        return _BITS[rank - 1] if rank else 0
    parts = word.replace("_", "-").split("-")
    for part in parts:
        if part in _PARTS:
            break
    else:
        return 0  # most words: no part of them is or starts a vocabulary entry
    best = 0
    for start, part in enumerate(parts):
        found = _RANK.get(part, 0)
        if part in _STARTERS:
            found = max(
                found,
                _RANK.get("-".join(parts[start : start + 2]), 0),
                _RANK.get("-".join(parts[start : start + 3]), 0),
            )
        if found > best:
            best = found
    return _BITS[best - 1] if best else 0


@lru_cache(maxsize=16384)
def hides(classes: str) -> bool:
    """Whether a ``class`` value hides its element: ``class_hint(classes) is Hint.HIDDEN``.

    The cheaper question for the inline elements of a page, which are many and whose
    other hints nobody reads.
    """
    words = classes.lower().split()
    if _HIDDEN_CLASSES.isdisjoint(words):
        return False
    return not any(":" in word or _RESPONSIVE.match(word) for word in words)


def hidden_by_attributes(attributes: dict[str, str | None]) -> bool:
    """Whether the ``hidden`` attribute or an inline style hides an element from readers.

    ``aria-hidden`` does not: it hides from screen readers what sighted readers see.
    """
    if "hidden" in attributes:
        return True
    style = attributes.get("style")
    if not style or ("none" not in style and "hidden" not in style):
        return False
    return _HIDDEN_STYLE.search(style) is not None


def role_hint(role: str) -> Hint:
    """The hint an ARIA ``role`` gives: landmarks around the article are furniture."""
    role = role.strip().lower()
    if role in _FURNITURE_ROLES:
        return Hint.WEAK
    if role in {"main", "article"}:
        return Hint.CONTENT
    return Hint.NONE


# Lines that are furniture as a whole: a label, a button, a share target, alone on its
# line, maybe with bullets, a count or a colon ("• SPONSORED •", "Comments (12)").
_WHOLE_LINE: Final = re.compile(
    r"^[\W\d_]*(?:"
    r"advertisement|advertising|anzeige|werbung|sponsored|sponsored content|paid content|"
    r"partner content|share|share this|share (?:this|the) (?:article|story|post|page)|"
    r"share on \w+|teilen|artikel teilen|print|print this (?:article|page)|drucken|"
    r"e-?mail|mail|whatsapp|facebook|twitter|x|linkedin|pinterest|reddit|flipboard|"
    r"telegram|threads|bluesky|copy link|link kopieren|comments?|kommentare|"
    r"leave a (?:comment|reply)|loading|wird geladen|back to top|nach oben|"
    r"skip to (?:main )?content|zum inhalt springen|by|von|posted by|posted on|"
    r"written by|published|published on|tags|topics|themen|related|related articles|"
    r"related stories|recommended|read more|read next|see also|more|more stories|"
    r"weiterlesen|mehr|mehr zum thema|listen|listen to this article|audio|"
    r"save|saved|bookmark|follow|folgen|subscribe|abonnieren|sign in|log in|anmelden|"
    r"close|schließen|menu|menü|search|suche|newsletter|advertise with us"
    r")[\W\d_]*$",
    re.IGNORECASE,
)
# Lines that are furniture by how they begin: invitations, credits, legal lines, tag lists.
_LINE_START: Final = re.compile(
    r"^\W*(?:"
    r"sign up (?:for|to|now|here)|subscribe (?:to|now|for|here)|jetzt abonnieren|"
    r"(?:follow|like|join) us on|folgen sie uns|click here|tap here|klicken sie hier|"
    r"download (?:the|our) app|get the app|"
    r"copyright\b|©|\(c\) \d{4}|all rights reserved|alle rechte vorbehalten|"
    r"(?:image|photo|picture|photograph|foto|bild|illustration|video|graphic|grafik|"
    r"credit|credits|quelle|bildquelle)(?: credit)?s?\s*:|"
    r"(?:getty images|ap photo|reuters|afp|dpa|imago|shutterstock)\b.{0,40}$|"
    r"we use cookies|this (?:site|website) uses cookies|wir verwenden cookies|"
    r"accept(?: all)? cookies|cookie settings|"
    r"read more\s*:|read also\s*:|also read\s*:|see also\s*:|related\s*:|more\s*:|"
    r"lesen sie auch|mehr zum thema\s*:|auch interessant\s*:|"
    r"tags?\s*:|schlagw(?:ö|oe)rter\s*:|themen\s*:|topics\s*:|filed under|"
    r"categor(?:y|ies)\s*:|home\s*[>\u203a\u00bb/|]|"
    r"(?:advertisement\W+)?(?:story|article) continues below|continue reading below|"
    r"already a subscriber|(?:get|enjoy) unlimited (?:digital )?access"
    r")",
    re.IGNORECASE,
)
# The words a line _WHOLE_LINE or _LINE_START matches can open with (see opening_word):
# each alternative's first word, with every ending its pattern lets follow it without a
# character between ("tag", "tags").
_WHOLE_LINE_WORDS: Final = frozenset(
    {
        "advertisement", "advertising", "anzeige", "werbung", "sponsored", "paid",
        "partner", "share", "teilen", "artikel", "print", "drucken", "e", "email", "mail",
        "whatsapp", "facebook", "twitter", "x", "linkedin", "pinterest", "reddit",
        "flipboard", "telegram", "threads", "bluesky", "copy", "link", "comment",
        "comments", "kommentare", "leave", "loading", "wird", "back", "nach", "skip", "zum",
        "by", "von", "posted", "written", "published", "tags", "topics", "themen",
        "related", "recommended", "read", "see", "more", "weiterlesen", "mehr", "listen",
        "audio", "save", "saved", "bookmark", "follow", "folgen", "subscribe", "abonnieren",
        "sign", "log", "anmelden", "close", "menu", "search", "suche", "newsletter",
        "advertise",
    }
)  # fmt: skip
_CREDIT_WORDS: Final = (
    "image", "photo", "picture", "photograph", "foto", "bild", "illustration", "video",
    "graphic", "grafik", "credit", "credits", "quelle", "bildquelle",
)  # fmt: skip
_LINE_START_WORDS: Final = frozenset(
    [
        "sign", "subscribe", "jetzt", "follow", "like", "join", "folgen", "click", "tap",
        "klicken", "download", "get", "copyright", "all", "alle", "getty", "ap", "reuters",
        "afp", "dpa", "imago", "shutterstock", "we", "this", "wir", "accept", "cookie",
        "read", "also", "see", "related", "more", "lesen", "mehr", "auch", "tag", "tags",
        "schlagwoerter", "themen", "topics", "filed", "category", "categories", "home",
        "advertisement", "story", "article", "continue", "already", "enjoy",
    ]
    + [word + plural for word in _CREDIT_WORDS for plural in ("", "s")]
)  # fmt: skip
BOILERPLATE_LINE_MAX: Final = 160
"""Longest block the boilerplate-line patterns are tried on (characters)."""
WHOLE_LINE_MAX: Final = 48
"""Longest line that can be a label alone ("Listen to this article", with a count)."""


def is_boilerplate_line(text: str) -> bool:
    """Whether a short block reads as furniture ("Share this article", "Advertisement").

    Only short blocks are tried, and single words only when they stand alone, so an
    article sentence that begins "Share prices fell" or quotes "Sign up" keeps its place.
    """
    length = len(text)
    if length > BOILERPLATE_LINE_MAX:
        return False
    # Most lines open with a word no label opens with: they are settled without the
    # patterns, which try each of their alternatives in turn, ignoring case.
    if length <= WHOLE_LINE_MAX:
        word = opening_word(text, past_digits=True)
        if (word is None or word in _WHOLE_LINE_WORDS) and _WHOLE_LINE.match(text) is not None:
            return True
    word = opening_word(text, past_digits=False)
    if word is not None and word not in _LINE_START_WORDS:
        return False
    return _LINE_START.match(text) is not None


def opening_word(text: str, *, past_digits: bool) -> str | None:
    """The ASCII letters ``text`` opens with once past the ASCII characters that are not
    letters (``past_digits``, as ``[\\W\\d_]*`` passes them) or not letters, digits or
    "_" (as ``\\W*`` does), lower-cased; "" when no letter comes first. None when what
    comes first or ends the letters is beyond ASCII, or (without ``past_digits``) is
    "(", where the patterns themselves must decide.

    A case-ignoring pattern that passes over the same characters and then needs a word
    of letters can match only if this is one of the words it can open with: an ASCII
    letter matches no letter but its own two cases (no long s or Kelvin sign can be among
    them), and no letter of the pattern can match the ASCII character after the word.
    """
    length = len(text)
    start = 0
    while start < length:
        code = ord(text[start])
        if code >= 128:
            return None
        if 97 <= (code | 32) <= 122:  # a letter: "A"-"Z" | 32 is "a"-"z"
            break
        if not past_digits:
            if code == 40:  # "(" opens _LINE_START's "(c) 2026"
                return None
            if 48 <= code <= 57 or code == 95:  # a digit or "_" ends a run of \W
                return ""
        start += 1
    end = start
    while end < length:
        code = ord(text[end])
        if code >= 128:
            return None
        if not 97 <= (code | 32) <= 122:
            break
        end += 1
    return text[start:end].lower()
