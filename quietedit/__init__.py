"""quietedit: catch silent edits to news articles.

The stable public API is re-exported here as each part lands; see README.md.
"""

from __future__ import annotations

__version__ = "0.1.0"

from quietedit.article.fingerprint import content_hash
from quietedit.model import Article, Block

__all__ = ["Article", "Block", "__version__", "content_hash"]
