"""The archive: ``data/`` as create-only revision files, atomic state files and a verifier."""
