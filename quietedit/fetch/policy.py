"""How one fetch behaves: its time limits, retries, waits and size cap (pure).

The policy is the ``settings.fetch`` section itself, defined (defaults, bounds, reasons) in
``quietedit.config.settings``: ``FetchPolicy()`` is the defaults, a ``Fetcher`` uses its
settings' ``fetch`` as is, and a value outside the bounds raises ``ValueError``. The user
agent is the ``Fetcher``'s (``settings.user_agent``), not the policy's.
"""

from __future__ import annotations

from quietedit.config.settings import FetchSettings

FetchPolicy = FetchSettings
