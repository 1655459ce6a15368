"""The ingest's decisions (pure): the re-check policy, versioning, candidates, host profiles,
shards, what a run remembers, and what one fetched page says."""
