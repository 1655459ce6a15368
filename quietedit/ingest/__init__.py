"""Ingest: the run's orchestration (the shell). Polls, checks and their workers gather what
the feeds and pages say; ``quietedit.feeds`` and ``quietedit.decide`` (pure) decide what it
means; the archive applies it."""
