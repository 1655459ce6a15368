"""The package version, in one place (pure).

Modules inside ``quietedit`` import it from here rather than from the package root, so imports
flow one way (down from the root, never back up); ``quietedit.__version__`` re-exports it and
the build reads it from this file.
"""

from __future__ import annotations

__version__ = "0.1.0"
