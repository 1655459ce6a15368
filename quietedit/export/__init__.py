"""Exports for researchers: the archive as a SQLite database, and NewsEdits sentence pairs.

``quietedit export sqlite`` (:mod:`quietedit.export.sqlite`) writes every source, document,
revision (block by block), edit (with its operations, kinds, significance, verdict and
signals), event, feed entry and each newest block's provenance into one database with
full-text search, plus a Datasette ``metadata.json`` (:mod:`quietedit.export.datasette`).
``quietedit export newsedits`` (:mod:`quietedit.export.newsedits`) writes one JSON line per
pair of consecutive revisions with their sentences labelled as NewsEdits labels them.
"""
