"""gunicorn settings for serving many tables: ``gunicorn -c python:tracker.gunicorn_config …``.

The command-line flags of README "Running for many tables" still choose workers, threads and
the address; this module adds how each worker treats Python's cyclic garbage collector, and
keeps the workers' heartbeat files in memory (``worker_tmp_dir``).

Why: a worker keeps hundreds of folded games (``tracker/snapshots.py``) next to everything the
app loaded (modules, templates, the catalogue), about 100,000–200,000 objects the collector
tracks. A full collection walks all of them: 40–300 ms on this machine, during which the
worker answers nobody. Those pauses, not the CPU, set the p99 of a busy night. So each worker

- freezes what it holds once it has started and once it has served its first requests
  (``gc.freeze()``: the app's long-lived objects leave the collector's walk for good; they are
  still freed as usual when nothing refers to them), after a full collection so no garbage is
  frozen with them;
- collects its youngest generation less often (``GC_THRESHOLD``), so objects of the request
  in progress are rarely promoted to the old generation, whose growth is what triggers the
  long full collections.

Memory stays bounded: freezing happens only ``len(FREEZE_AFTER)`` times per worker, after a
full collection each time, and young garbage is collected as before.
"""

from __future__ import annotations

import gc
import os
from typing import Any

#: Requests after which a worker collects and freezes again (templates compiled, caches filled).
FREEZE_AFTER = (200, 2000)
#: ``gc.set_threshold`` of each worker: (young, middle, old) — Python's default is (700, 10, 10).
GC_THRESHOLD = tuple(int(x) for x in os.environ.get("TRACKER_GC_THRESHOLD", "20000,20,100").split(","))
_ENABLED = os.environ.get("TRACKER_GC_FREEZE", "1") != "0"

_served = 0

#: Where each worker's heartbeat file lives: gunicorn touches it (``os.utime``) around every
#: request; in memory it never waits on a disk (gunicorn's documentation advises /dev/shm).
if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
    worker_tmp_dir = "/dev/shm"

#: The workers README "Running for many tables" names, also when its flags are left out: one
#: thread each, a phone's connection kept open between its requests. gunicorn's default ``sync``
#: worker waits on a connection a browser opened ahead of need (a preconnect) and sent nothing on
#: until its 30 s timeout, answering nobody meanwhile (a tester's two phones met "Internal Server
#: Error" from an instance started without ``--worker-class``). Flags given still win.
worker_class = "gthread"
threads = 1
keepalive = 5

#: gunicorn 27's control socket (``gunicornc``) sits at one path per user (``~/.gunicorn``): two
#: instances of the same user (a club's and a benchmark's) would share it, and the first to stop
#: removes the other's. Nothing here uses it.
control_socket_disable = True

#: gunicorn by default believes ``X-Forwarded-Proto`` (and two other scheme headers) from
#: 127.0.0.1, whatever ``TRACKER_PROXIES`` says: a proxy passing a client's header on would let
#: it make the app's links ``https://…``. The app's ProxyFix alone reads forwarded headers, and
#: only from as many proxies as ``TRACKER_PROXIES`` names (README "Behind a reverse proxy").
secure_scheme_headers: dict[str, str] = {}


def _freeze() -> None:
    gc.collect()
    gc.freeze()


def post_worker_init(worker: Any) -> None:
    """gunicorn hook, once per worker after the app is loaded: freeze it, set the thresholds."""
    if _ENABLED:
        _freeze()
        gc.set_threshold(*GC_THRESHOLD)


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    """gunicorn hook after every request: freeze again after ``FREEZE_AFTER`` requests."""
    global _served
    _served += 1
    if _ENABLED and _served in FREEZE_AFTER:
        _freeze()
