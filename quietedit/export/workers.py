"""Ordered maps over independent pieces of work, in this process or in forked ones."""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

_T = TypeVar("_T")
_R = TypeVar("_R")


class OrderedMap:
    """An ordered map over independent pieces of work (a month of stories, a feed's
    entries), in this process or in a pool of forked ones, one piece at a time."""

    def __init__(self, pool: multiprocessing.pool.Pool | None) -> None:
        self.pool = pool

    def __call__(self, func: Callable[[_T], _R], items: list[_T]) -> list[_R]:
        if self.pool is None:
            return [func(item) for item in items]
        return self.pool.map(func, items, chunksize=1)


@contextmanager
def forked(jobs: int) -> Iterator[OrderedMap]:
    """An ordered map in ``jobs`` forked processes (in this one for one job)."""
    if jobs <= 1:
        yield OrderedMap(None)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield OrderedMap(pool)
