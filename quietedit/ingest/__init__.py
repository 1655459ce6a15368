"""Ingest: feeds, dates and the re-check policy (pure) · the run (orchestration)."""
