"""Package names loaded on first use (pure: nothing is imported until a name is asked for).

A package's ``__init__`` lists the names it exports and the module defining each, and sets
``__getattr__ = lazy_exports(__name__, EXPORTS)``: importing the package, or one pure module
inside it, then loads none of the modules behind its names.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: each name of ``exports`` is imported from
    its module on first use and then kept in the package, so later lookups skip it."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(importlib.import_module(package), name, value)
        return value

    return __getattr__
