"""Pure article stages: encoding, extraction, identity and fingerprint (no I/O)."""
