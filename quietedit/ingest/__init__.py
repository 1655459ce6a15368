"""Ingest: the run's orchestration (the shell). Polls, checks and their workers gather what
the feeds and pages say; the pure packages ``quietedit.feeds`` and ``quietedit.decide``
decide what it means; the archive applies it."""
