"""Feeds (pure): every dialect parsed into one entry shape, dates, sitemaps, discovery and
the edits a feed shows by itself (headline and teaser changes between two polls)."""
