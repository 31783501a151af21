"""Responses kept while what they show is unchanged: a run's archive, the heaviest read a dashboard polls.

A 2,000-candidate run's archive (330 elites, 100 KB of JSON) costs about 9 ms of a core to read
and encode, its version (:func:`kernelevo.storage.queries.archive_version`) a fraction of one. A
hundred dashboards polling a run between two changes of its archive share one encoding; each gets
an ``ETag`` too, and a client that sends it back (a browser revalidating) gets a 304 and no body.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable


class ResponseCache:
    """At most ``size`` encoded bodies by key, the least recently used dropped first; thread-safe."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._bodies: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], bytes]) -> bytes:
        with self._lock:
            body = self._bodies.get(key)
            if body is not None:
                self._bodies.move_to_end(key)
                return body
        body = make()  # outside the lock: two threads may both make it once, and neither waits on the other
        with self._lock:
            self._bodies[key] = body
            self._bodies.move_to_end(key)
            while len(self._bodies) > self.size:
                self._bodies.popitem(last=False)
        return body


def etag(key: Hashable) -> str:
    return '"' + hashlib.sha256(repr(key).encode()).hexdigest()[:20] + '"'
