"""Ordered maps over independent pieces of work, in this process or in forked ones."""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
from collections import deque
from collections.abc import Callable, Iterable, Iterator
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


class StreamedMap:
    """An ordered map over a stream of pieces of work (batches of documents), in this
    process or in a pool of forked ones kept a few pieces ahead of the reader at most, so
    that memory holds a few pieces' results, never the stream's."""

    def __init__(self, pool: multiprocessing.pool.Pool | None, jobs: int) -> None:
        self.pool = pool
        self.jobs = jobs

    def __call__(self, func: Callable[[_T], _R], items: Iterable[_T]) -> Iterator[_R]:
        if self.pool is None:
            yield from map(func, items)
            return
        pending: deque[multiprocessing.pool.AsyncResult[_R]] = deque()
        for item in items:
            pending.append(self.pool.apply_async(func, (item,)))
            if len(pending) >= 2 * self.jobs:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


@contextmanager
def streamed(jobs: int) -> Iterator[StreamedMap]:
    """A :class:`StreamedMap` in ``jobs`` forked processes (in this one for one job)."""
    if jobs <= 1:
        yield StreamedMap(None, 1)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield StreamedMap(pool, jobs)
