"""feedparser's own date-parser test cases, ported as data.

Source: feedparser, ``tests/test_date_parsers.py`` (https://github.com/kurtmckee/feedparser),
Copyright 2010-2025 Kurt McKee, 2002-2008 Mark Pilgrim, BSD-2-Clause licence:

    Redistribution and use in source and binary forms, with or without modification, are
    permitted provided that the following conditions are met: redistributions of source code
    must retain the above copyright notice, this list of conditions and the following
    disclaimer; redistributions in binary form must reproduce the above copyright notice,
    this list of conditions and the following disclaimer in the documentation and/or other
    materials provided with the distribution. THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT
    HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES ... ARE DISCLAIMED.

Each case is (feedparser handler the case was written for, text, expected UTC moment as
(year, month, day, hour, minute, second) or None for text that is no date). feedparser's
suite has 73: these 72 and ``_parse_date(None)``, which ``normalize_date``'s type (``str``)
rules out. The year-10000 case of ``test_year_10000_date`` is the last row.

One expectation differs, on purpose: feedparser expects its W3C-DTF handler *alone* to
refuse ``22013``, while its ISO 8601 handler reads the same form (``03335``, a two-digit
year and a day of the year, ISO 8601:2000's truncated ordinal date) as a date, and
feedparser's whole chain (``feedparser.datetimes._parse_date``) reads ``22013`` as
2022-01-13. ``normalize_date`` answers for the whole chain, so it is held to that.
"""

from __future__ import annotations

from typing import Final

Moment = tuple[int, int, int, int, int, int]

CASES: Final[tuple[tuple[str, str, Moment | None], ...]] = (
    ("greek", "", None),
    ("hungarian", "", None),
    ("iso8601", "", None),
    ("nate", "", None),
    ("onblog", "", None),
    ("perforce", "", None),
    ("rfc822", "", None),
    ("w3dtf", "", None),
    ("greek", "\u039a\u03c5\u03c1, 11 \u0399\u03bf\u03cd\u03bb 2004 12:00:00 EST",
     (2004, 7, 11, 17, 0, 0)),
    ("hungarian", "2004-j\u00falius-13T9:15-05:00", (2004, 7, 13, 14, 15, 0)),
    ("iso8601", "-0312", (2003, 12, 1, 0, 0, 0)),
    ("iso8601", "031231", (2003, 12, 31, 0, 0, 0)),
    ("iso8601", "03-12-31", (2003, 12, 31, 0, 0, 0)),
    ("iso8601", "-03-12", (2003, 12, 1, 0, 0, 0)),
    ("iso8601", "03335", (2003, 12, 1, 0, 0, 0)),
    ("iso8601", "2003-12-31T10:14:55.1234Z", (2003, 12, 31, 10, 14, 55)),
    ("iso8601", "2003-012-31T10:14:55+00:00", (2003, 12, 31, 10, 14, 55)),
    ("nate", "2004-05-25 \uc624\ud6c4 11:23:17", (2004, 5, 25, 14, 23, 17)),
    ("onblog", "2004\ub144 05\uc6d4 28\uc77c  01:31:15", (2004, 5, 27, 16, 31, 15)),
    ("perforce", "Fri, 2006/09/15 08:19:53 EDT", (2006, 9, 15, 12, 19, 53)),
    ("rfc822", "Thu, 30 Apr 2015 08:57:00 MET", (2015, 4, 30, 7, 57, 0)),
    ("rfc822", "Thu, 30 Apr 2015 08:57:00 MEST", (2015, 4, 30, 6, 57, 0)),
    ("rfc822", "Thu, 01 Jan 0100 00:00:01 +0100", (99, 12, 31, 23, 0, 1)),
    ("rfc822", "Thu, 01 Jan 04 19:48:21 GMT", (2004, 1, 1, 19, 48, 21)),
    ("rfc822", "Thu, 01 Jan 2004 19:48:21 GMT", (2004, 1, 1, 19, 48, 21)),
    ("rfc822", "Thu,  5 Apr 2012 10:00:00 GMT", (2012, 4, 5, 10, 0, 0)),
    ("rfc822", "Wed, 19 Aug 2009 18:28:00 Etc/GMT", (2009, 8, 19, 18, 28, 0)),
    ("rfc822", "Wed, 19 Feb 2012 22:40:00 GMT-01:01", (2012, 2, 19, 23, 41, 0)),
    ("rfc822", "Wed, 19 Feb 2012 22:40:00 -01:01", (2012, 2, 19, 23, 41, 0)),
    ("rfc822", "Mon, 13 Feb, 2012 06:28:00 UTC", (2012, 2, 13, 6, 28, 0)),
    ("rfc822", "Thu, 01 Jan 2004 00:00 GMT", (2004, 1, 1, 0, 0, 0)),
    ("rfc822", "Thu, 01 Jan 2004", (2004, 1, 1, 0, 0, 0)),
    ("rfc822", "Mon, 26 January 2004 16:31:00 AT", (2004, 1, 26, 20, 31, 0)),
    ("rfc822", "Mon, 26 January 2004 16:31:00 ET", (2004, 1, 26, 21, 31, 0)),
    ("rfc822", "Mon, 26 January 2004 16:31:00 CT", (2004, 1, 26, 22, 31, 0)),
    ("rfc822", "Mon, 26 January 2004 16:31:00 MT", (2004, 1, 26, 23, 31, 0)),
    ("rfc822", "Mon, 26 January 2004 16:31:00 PT", (2004, 1, 27, 0, 31, 0)),
    ("rfc822", "Thu Aug 30 2012 17:26:16 +0200", (2012, 8, 30, 15, 26, 16)),
    ("rfc822", "Sun, 16 Dec 2012 1:2:3:4 GMT", None),
    ("rfc822", "Sun, 16 zzz 2012 11:47:32 GMT", None),
    ("rfc822", "Sun, Dec x 2012 11:47:32 GMT", None),
    ("rfc822", "Sun, 16 Dec zz 11:47:32 GMT", None),
    ("rfc822", "Sun, 16 Dec 2012 11:47:32 +zz:00", None),
    ("rfc822", "Sun, 16 Dec 2012 11:47:32 +00:zz", None),
    ("rfc822", "Sun, 99 Jun 2009 12:00:00 GMT", None),
    ("asctime", "Sun Jan  4 16:29:06 2004", (2004, 1, 4, 16, 29, 6)),
    ("asctime", "Sun Jul 15 01:16:00 +0000 2012", (2012, 7, 15, 1, 16, 0)),
    ("w3dtf", "2003-12-31T10:14:55Z", (2003, 12, 31, 10, 14, 55)),
    ("w3dtf", "2003-12-31T10:14:55-08:00", (2003, 12, 31, 18, 14, 55)),
    ("w3dtf", "2003-12-31T18:14:55+08:00", (2003, 12, 31, 10, 14, 55)),
    ("w3dtf", "2007-04-23T23:25:47.538+10:00", (2007, 4, 23, 13, 25, 47)),
    ("w3dtf", "2003-12-31", (2003, 12, 31, 0, 0, 0)),
    ("w3dtf", "2003-12", (2003, 12, 1, 0, 0, 0)),
    ("w3dtf", "2003", (2003, 1, 1, 0, 0, 0)),
    ("w3dtf", "2004-02-28T18:14:55-08:00", (2004, 2, 29, 2, 14, 55)),
    ("w3dtf", "2003-02-28T18:14:55-08:00", (2003, 3, 1, 2, 14, 55)),
    ("w3dtf", "2000-02-28T18:14:55-08:00", (2000, 2, 29, 2, 14, 55)),
    ("w3dtf", "9999-12-31T23:59:59-99:99", None),
    ("w3dtf", "2003-12-31T25:14:55Z", None),
    ("w3dtf", "2003-12-31T10:61:55Z", None),
    ("w3dtf", "2003-12-31T10:14:61Z", None),
    ("w3dtf", "22013", (2022, 1, 13, 0, 0, 0)),  # feedparser's chain; see the docstring
    ("w3dtf", "013", None),
    ("w3dtf", "2013-01-27-01", None),
    ("w3dtf", "2013-01-28T11:30:00-06:00Textra", None),
    ("w3dtf", "2013-xx-27", None),
    ("w3dtf", "2013-01-28T09:xx:00Z", None),
    ("w3dtf", "2013-01-28T09:00:00+00:xx", None),
    ("w3dtf", "2004-07-08 23:56:58 -00:20", (2004, 7, 9, 0, 16, 58)),
    ("w3dtf", "2004-07-08 23:56:58", (2004, 7, 8, 23, 56, 58)),
    ("w3dtf", "2004-07-08 23:56:58.0", (2004, 7, 8, 23, 56, 58)),
    ("rfc822", "Sun, 31 Dec 9999 23:59:59 -9999", None),
)  # fmt: skip
