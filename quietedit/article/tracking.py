"""Query parameters that never change which document a URL names (pure).

The one place to maintain them. A parameter is dropped from a canonical URL when its
name (compared in lower case) is listed here, starts with a listed prefix, is a view
switch with one of the listed values, or is a tracker by courlan's maintained rule set
(:data:`COURLAN_TRACKERS`: click ids, ``*_source``, ``*_affiliate``, ``ref``,
``campaign``… as a pattern over names, matching whole words only: ``gallery`` is no
``ga``) and is not one of :data:`ARTICLE_PARAMETERS`.
Sources of the lists here: the parameters stripped by ClearURLs'
global rules (github.com/ClearURLs/Rules), Firefox's query-stripping list
(``privacy.query_stripping.strip_list``), Brave's default query filter and the AdGuard
URL tracking filter, plus those on news feeds' links (heise, BBC, Guardian, Washington
Post, New York Times, Spiegel); the groups below say which. New campaign parameters
appear all the time: when a feed's links carry one, add it here with where it came from.

Dropping a parameter that does select the article would merge different articles into
one document, which is worse than keeping a tracking parameter (the page's own
``rel=canonical`` removes those anyway). So names that select content on news sites
(:data:`ARTICLE_PARAMETERS`, courlan's own allowlist among them) are never dropped,
whatever a rule set says: ``?cid=4512`` is a content id on many CMSs although courlan's
pattern reads ``cid`` as a campaign id.
"""

from __future__ import annotations

import functools
import re
from typing import Final

TRACKING_PARAMETERS: Final = frozenset(
    {
        # Google Ads / Analytics / Search
        "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "gad_source", "gad_campaignid",
        "srsltid", "_ga", "_gl",
        # Meta (Facebook, Instagram)
        "fbclid", "fb_action_ids", "fb_action_types", "fb_ref", "fb_source", "mibextid",
        "igshid", "igsh",
        # Microsoft, X/Twitter, TikTok, LinkedIn, Yandex, Yahoo, MSN
        "msclkid", "twclid", "ref_src", "ref_url", "ttclid", "li_fat_id", "yclid", "ysclid",
        "_openstat", "guccounter", "guce_referrer", "guce_referrer_sig", "ncid", "ocid",
        "soc_src", "soc_trk",
        # Mailchimp, HubSpot, Marketo, Vero, Omeda
        "mc_cid", "mc_eid", "_hsenc", "_hsmi", "__hssc", "__hstc", "__hsfp", "hsctatracking",
        "mkt_tok", "vero_id", "vero_conv", "oly_anon_id", "oly_enc_id",
        # Adobe Analytics / Campaign
        "s_cid", "s_kwcid", "ef_id", "sc_campaign", "sc_channel", "sc_content", "sc_medium",
        "sc_outcome", "sc_geo", "sc_country",
        # Outbrain, Taboola, Branch
        "dicbo", "oborigurl", "tblci", "_branch_match_id", "_branch_referrer",
        # AT Internet / Piano (Le Monde, many German sites), comScore (BBC), Webtrekk (heise)
        "xtor", "xtref", "ns_source", "ns_mchannel", "ns_campaign", "ns_linkname", "ns_fee",
        "wtmc", "wt_mc", "wt_zmc",
        # BBC
        "at_medium", "at_campaign", "at_campaign_type", "at_custom1", "at_custom2",
        "at_custom3", "at_custom4", "at_link_id", "at_link_origin", "at_link_type",
        "at_ptr_name", "at_format", "at_bbc_team",
        # Guardian, Washington Post, New York Times, Spiegel, Yahoo/HuffPost internal campaigns
        "cmp", "itid", "wpisrc", "wpmk", "smid", "smtyp", "sara_ref", "sara_ecid", "icid",
        "cmpid",
    }
)  # fmt: skip

TRACKING_PREFIXES: Final = (
    "utm_",  # Google Analytics campaign parameters, used by everyone
    "pk_",  # Piwik
    "mtm_",  # Matomo
    "matomo_",
    "hsa_",  # HubSpot ads
    "sfmc_",  # Salesforce Marketing Cloud
)

SESSION_PARAMETERS: Final = frozenset(
    {"phpsessid", "jsessionid", "sessionid", "session_id", "cfid", "cftoken", "zenid"}
)
"""Server session ids in the query: a new one on every visit, never part of the document."""

VIEW_PARAMETERS: Final[dict[str, frozenset[str] | None]] = {
    "amp": None,  # ?amp, ?amp=1, ?amp=true: the AMP rendering of the same article
    "outputtype": frozenset({"amp"}),  # ?outputType=amp
    "amp_js_v": None,  # added by AMP caches
    "amp_gsa": None,
    "usqp": None,
    "m": frozenset({"0", "1"}),  # Blogger's ?m=1 mobile view
    "mobile": frozenset({"0", "1", "true", "false", "yes", "no"}),
}
"""View switches: name -> the values that only change the rendering (None: any value)."""


ARTICLE_PARAMETERS: Final = frozenset(
    {
        # courlan's allowlist (courlan.settings.ALLOWED_PARAMS and LANG_PARAMS)
        "aid", "article_id", "artnr", "id", "itemid", "objectid", "p", "page", "pagenum",
        "page_id", "pid", "post", "postid", "product_id", "lang", "language",
        # content, story and node ids of news CMSs (Drupal ?nid, Slashdot-style ?sid,
        # ?cid on many Asian news sites, WordPress ?p / ?page_id above)
        "cid", "sid", "nid", "story", "storyid", "story_id", "articleid", "article",
        "docid", "doc_id", "contentid", "content_id", "newsid", "news_id", "entryid",
        "entry_id", "vid", "video_id", "guid", "uuid", "slug", "q", "query", "s", "search",
    }
)  # fmt: skip
"""Names that select which document a URL names: never dropped by the rule set."""


def drops_parameter(name: str, value: str) -> bool:
    """Whether the query parameter ``name=value`` (both percent-decoded) is left out of
    a canonical URL."""
    key = name.lower()
    if key in TRACKING_PARAMETERS or key in SESSION_PARAMETERS:
        return True
    if key.startswith(TRACKING_PREFIXES):
        return True
    if key in VIEW_PARAMETERS:
        values = VIEW_PARAMETERS[key]
        return values is None or value.lower() in values
    if key in ARTICLE_PARAMETERS:
        return False
    return _rule_set_drops(key)


@functools.lru_cache(maxsize=4096)
def _rule_set_drops(key: str) -> bool:
    """Whether courlan's tracker rules drop the parameter ``key`` (its value plays no part).

    courlan's pattern (``courlan.clean.TRACKERS_RE``, what ``clean_query`` applies) is
    searched anywhere in a name, so its words ``ga``, ``gl``, ``ref``, ``source``,
    ``medium``… also match as the start of a longer word: ``gameid``, ``gallery``,
    ``glossary``, ``reference`` would go, and with them what the URL names. Here a match
    counts only where it ends the name or one of its parts (before ``_``, ``-`` or ``.``),
    or ends with the ``_`` of one of its prefixes (``utm_``, ``mc_``…): ``_ga``,
    ``ref_src``, ``utm_content`` still go.
    """
    return _rule_set().search(key) is not None


COURLAN_TRACKERS: Final = (
    r"^(?:dc|fbc|gc|twc|yc|ysc)lid|"
    r"^(?:click|gbra|msclk|igsh|partner|wbra)id|"
    r"^(?:ads?|mc|ga|gs|itm|mc|mkt|ml|mtm|oly|pk|utm|vero)_|"
    r"(?:\b|_)(?:aff|affi|affiliate|campaign|cl?id|eid|ga|gl|"
    r"kwd|keyword|medium|ref|referr?er|session|source|uid|xtor)"
)
"""courlan's tracker rules, ``TRACKERS_RE`` of ``courlan/clean.py`` in courlan 1.4.0
(https://github.com/adbar/courlan, Apache License 2.0, (c) Adrien Barbaresi), itself
drawn from the AdGuard URL tracking filter, ClearURLs' rules and Firefox's query-stripping
list. Kept here rather than imported: a document's id follows from its canonical URL, so
the rules must not change with an installed library's version. Update it by hand, with a
note in the changelog (ids of URLs with newly matched parameters change)."""


@functools.cache
def _rule_set() -> re.Pattern[str]:
    """courlan's tracker pattern, matching whole words of a name only (see above)."""
    return re.compile(rf"(?:{COURLAN_TRACKERS})(?:$|(?<=_)|(?=[^a-z0-9]))")
