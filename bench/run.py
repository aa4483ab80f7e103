"""Benchmark of the tracker as served for many tables: one run, one table of figures.

    python bench/run.py            # about 10 minutes on 2 cores; needs `pip install -e '.[bench]'`

It starts everything it needs and stops it again: a throwaway PostgreSQL on loopback (as root,
like ``scripts/postgres.sh``; without it only SQLite is measured), a SQLite file in a temporary
folder, and gunicorn (the command of README "Running for many tables") on free ports of
127.0.0.1. All traffic goes to 127.0.0.1. Measured:

1. replay cost per event over 1,000 generated complete games (``autoplay.play``);
2. server time (``Server-Timing``, inside the app) of posting one entry to a game that already
   has 150 entries — the phone's htmx form post and the JSON API — next to a bare route that
   inserts one row into the same database and commits, and a bare "hello" route; and the CPU
   gunicorn spends per request of each kind a table sends (one request at a time);
3. bytes on the wire (gzip) of one entry's response and of the first load of a game page
   with every asset it references;
4. load: N simulated tables, each posting an entry every 2 s from the phone of the player to
   act while both phones poll for changes every 2 s (as the game screen does); the largest N
   whose p99 latency (all requests, measured by the client) stays under 100 ms. The load is
   made by wrk (Debian's package, installed if missing) running ``bench/load.lua``: one wrk
   thread and one keep-alive connection per phone; the CPU used by gunicorn, PostgreSQL and
   wrk while measured is printed with each level.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import multiprocessing
import os
import platform
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from bench.games import as_log, templates  # noqa: E402
from tracker.rules.events import event_to_dict  # noqa: E402

#: The serving command of README "Running for many tables" (the bench app adds two routes).
WORKERS = 6
THREADS = 1
WORKER_CLASS = "gthread"


def gunicorn_command(workers: int, threads: int, worker_class: str = WORKER_CLASS) -> list[str]:
    """The README command (``threads`` 0: sync workers; ``worker_class`` gevent to compare)."""
    if worker_class == "gthread" and threads >= 1:
        kind = ["--worker-class", "gthread", "--threads", str(threads)]
    else:
        kind = ["--worker-class", "sync" if worker_class == "gthread" else worker_class]
    return [sys.executable, "-m", "gunicorn", "--config", "python:tracker.gunicorn_config",
            "--workers", str(workers), *kind, "--keep-alive", "5",
            "--backlog", "2048", "--log-level", "warning"]
LENGTH = 150          # entries a benchmark game already has
EXTRA = 160           # entries each game may still receive during the run
INTERVAL = 2.0        # seconds between entries of a table, and between polls of a phone
TARGET_MS = 100.0     # the p99 a load level must stay under
SETTLE = 8.0          # seconds of the unmeasured run before a level with more tables than before
HX = {"HX-Request": "true"}
VERSION_HEADER = "Tracker-Version"


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


# ------------------------------------------------------------------------ servers


@contextlib.contextmanager
def postgres() -> Iterator[str | None]:
    """A throwaway PostgreSQL cluster on loopback (the logic of scripts/postgres.sh)."""
    if os.geteuid() != 0:
        log("not root: no throwaway PostgreSQL, SQLite only")
        yield None
        return
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not bins:
        log("installing Debian's postgresql (apt-get)")
        subprocess.run(["apt-get", "update", "-qq"], check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", "postgresql"], check=False,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}, stdout=subprocess.DEVNULL)
        bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not bins:
        log("no PostgreSQL available: SQLite only")
        yield None
        return
    bindir = bins[-1].parent
    folder = Path(f"/tmp/tracker-bench-pg-{os.getpid()}")
    subprocess.run(["install", "-d", "-m", "0755", "-o", "postgres", "-g", "postgres", str(folder)], check=True)
    port = free_port()
    run_pg = ["runuser", "-u", "postgres", "--"]
    try:
        subprocess.run(run_pg + [str(bindir / "initdb"), "-D", f"{folder}/data", "-U", "postgres", "-A", "trust",
                                 "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"], check=True, stdout=subprocess.DEVNULL)
        opts = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off -c max_connections=300"
        subprocess.run(run_pg + [str(bindir / "pg_ctl"), "-D", f"{folder}/data", "-l", f"{folder}/server.log", "-w",
                                 "-o", opts, "start"], check=True, stdout=subprocess.DEVNULL)
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(run_pg + [str(bindir / "pg_ctl"), "-D", f"{folder}/data", "-m", "fast", "stop"],
                       check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)


def screen_cache_dir(workdir: Path) -> Path:
    """A private folder where the workers share their drawn screens: in memory (``/dev/shm``)
    like the app's default, else beside the database; removed after the run."""
    shm = Path("/dev/shm")
    base = shm if shm.is_dir() and os.access(shm, os.W_OK) else workdir
    return Path(tempfile.mkdtemp(prefix="tracker-bench-screens-", dir=base))


@contextlib.contextmanager
def gunicorn(database_url: str, workdir: Path, workers: int = WORKERS, threads: int = THREADS,
             worker_class: str = WORKER_CLASS) -> Iterator[str]:
    """The app under gunicorn on a free loopback port; yields its base URL."""
    port = free_port()
    screens = screen_cache_dir(workdir)
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "bench-secret", "PYTHONPATH": str(ROOT),
           "CACHE_DIR": str(screens)}
    env.pop("TRACKER_ACCESS_CODE", None)
    logfile = open(workdir / f"gunicorn-{port}.log", "w")
    proc = subprocess.Popen(gunicorn_command(workers, threads, worker_class) + ["--bind", f"127.0.0.1:{port}", "bench.app:create()"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=logfile, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        answer = "no answer"
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited: see {logfile.name}")
            with contextlib.suppress(httpx.HTTPError):
                hello = httpx.get(base + "/_bench/hello", timeout=2)
                if hello.status_code == 200:
                    break
                answer = f"{hello.status_code} {hello.headers.get('location', '')}".strip()
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not start: /_bench/hello answered {answer} (see {logfile.name})")
            time.sleep(0.2)
        yield base
    finally:
        errors = [line for line in (workdir / logfile.name).read_text(errors="replace").splitlines()
                  if "Error" in line or "Traceback" in line]
        if errors:
            log(f"gunicorn reported {len(errors)} error lines, e.g.: " + " | ".join(errors[-3:]))
        shutil.rmtree(screens, ignore_errors=True)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        logfile.close()


def prepare_database(url: str, games: list[tuple[dict[str, Any], list[Any]]], count: int) -> list["Table"]:
    """Migrate ``url``, create the baseline table and import ``count`` games of ``LENGTH`` entries."""
    from flask_migrate import upgrade

    from bench.app import metadata
    from tracker import create_app
    from tracker import service
    from tracker.db import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench-secret", "TESTING": False})
    tables = []
    with app.app_context():
        upgrade()
        metadata.create_all(db.engine)
        for i in range(count):
            template = i % len(games)
            setup, events = games[template]
            log_ = {**as_log(setup, events[:LENGTH]), "id": service.new_id(),
                    "players": [f"Ana {i}", f"Ben {i}"]}
            view, _created = service.import_log(log_)
            tables.append(Table(view.row.id, template, view.version))
        db.session.remove()
        db.engine.dispose()
    return tables


# ------------------------------------------------------------------------ 1. replay


def _play(seed: int) -> Any:
    from tracker.rules import autoplay

    return autoplay.play(seed)


def replay_cost(count: int) -> dict[str, float]:
    """µs per event of ``duel.replay`` over ``count`` complete generated games (CPU time of this
    process, best of 5 runs)."""
    from tracker.rules import duel

    with multiprocessing.get_context("fork").Pool(os.cpu_count() or 2) as pool:
        played = pool.map(_play, range(count * 11 // 10), chunksize=20)
    complete = [(setup, events) for setup, events, state in played if state.winner is not None][:count]
    total = sum(len(events) for _setup, events in complete)
    runs = []
    for _ in range(5):
        start = time.process_time()  # CPU time of this process: other processes' load aside
        for setup, events in complete:
            duel.replay(setup, events)
        runs.append(time.process_time() - start)
    return {"games": len(complete), "events": total, "us_per_event": min(runs) / total * 1e6,
            "us_per_event_median_run": statistics.median(runs) / total * 1e6}


# ------------------------------------------------------------------------ tables and phones


@dataclass
class Table:
    """One game at a table: its id, which template it follows and its version."""

    game_id: str
    template: int
    version: int
    posted: int = 0  # entries posted so far by the benchmark


CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
VERSION = re.compile(r'data-version="(\d+)"')


def csrf_token(client: httpx.Client, base: str, game_id: str) -> str:
    page = client.get(f"{base}/games/{game_id}")
    page.raise_for_status()
    match = CSRF.search(page.text)
    assert match, "no CSRF token in the game page"
    return match.group(1)


def entry_form(table: Table, games: list[tuple[dict[str, Any], list[Any]]], token: str) -> tuple[dict[str, str], int]:
    """The form the phone posts for the table's next entry, and the seat that enters it."""
    event = games[table.template][1][LENGTH + table.posted]
    form = {"event": json.dumps(event_to_dict(event)), "expected_version": str(table.version),
            "entry_id": f"bench-{table.game_id[:12]}-{table.posted}", "csrf_token": token}
    return form, event.player


# ------------------------------------------------------------------------ warming


async def _warm(base: str, tables: list[Table], times: int) -> None:
    """Steady state: tables have been playing a while, so every worker has folded their games
    and written their logs. Each game's page is asked ``times`` times, each time on a new
    connection (so any worker may take it: with 3 workers and 15 asks a worker misses a game
    with odds of 0.2%), never twice at once; not measured."""
    limit = asyncio.Semaphore(8)
    no_keepalive = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(timeout=60, limits=no_keepalive) as client:

        async def get(t: Table) -> None:
            async with limit:
                (await client.get(f"{base}/games/{t.game_id}")).raise_for_status()

        for _ in range(times):
            await asyncio.gather(*(get(t) for t in tables))


def warm(base: str, tables: list[Table], workers: int) -> None:
    asyncio.run(_warm(base, tables, 5 * workers))


# ------------------------------------------------------------------------ 2. server time


def server_time(value: str | None) -> float:
    match = re.search(r"dur=([0-9.]+)", value or "")
    return float(match.group(1)) if match else float("nan")


def server_times(base: str, tables: list[Table], games: list[Any], rounds: int) -> dict[str, list[float]]:
    """Sequential requests, interleaved: htmx entry, API entry, insert+commit, hello."""
    out: dict[str, list[float]] = {"htmx": [], "api": [], "insert": [], "hello": []}
    with httpx.Client(timeout=30, headers={"Accept-Encoding": "gzip"}) as client:
        token = csrf_token(client, base, tables[0].game_id)
        page_tables, api_tables = tables[: len(tables) // 2], tables[len(tables) // 2:]
        for i in range(rounds):
            t = page_tables[i % len(page_tables)]
            form, _seat = entry_form(t, games, token)
            resp = client.post(f"{base}/games/{t.game_id}/events", data=form, headers={**HX, "X-CSRFToken": token})
            assert resp.status_code == 200, (resp.status_code, resp.text[:300])
            t.posted += 1
            t.version = int(VERSION.search(resp.text).group(1))  # type: ignore[union-attr]
            out["htmx"].append(server_time(resp.headers.get("Server-Timing")))

            t = api_tables[i % len(api_tables)]
            event = event_to_dict(games[t.template][1][LENGTH + t.posted])
            resp = client.post(f"{base}/api/games/{t.game_id}/events",
                               json={**event, "expected_version": t.version, "entry_id": f"api-{i}"})
            assert resp.status_code == 200, (resp.status_code, resp.text[:300])
            t.posted += 1
            t.version = resp.json()["version"]
            out["api"].append(server_time(resp.headers.get("Server-Timing")))

            resp = client.post(f"{base}/_bench/insert")
            assert resp.status_code == 204
            out["insert"].append(server_time(resp.headers.get("Server-Timing")))
            resp = client.get(f"{base}/_bench/hello")
            out["hello"].append(server_time(resp.headers.get("Server-Timing")))
    return out


def cpu_per_request(base: str, tables: list[Table], games: list[Any], count: int = 150) -> dict[str, float]:
    """CPU milliseconds gunicorn (all its processes, from /proc) spends per request of each kind
    a table sends, one request at a time: a bare hello, the phone's entry, the other phone's
    poll of the changed game (its screen kept) and a poll while nothing changed."""
    out: dict[str, float] = {}
    with httpx.Client(timeout=30, headers={"Accept-Encoding": "gzip"}) as client:
        token = csrf_token(client, base, tables[0].game_id)
        hx = {**HX, "X-CSRFToken": token}
        seen: list[tuple[Table, int]] = []

        def entry(i: int) -> None:
            t = tables[i % len(tables)]
            form, _seat = entry_form(t, games, token)
            resp = client.post(f"{base}/games/{t.game_id}/events", data=form, headers=hx)
            assert resp.status_code == 200, (resp.status_code, resp.text[:300])
            seen.append((t, t.version))
            t.posted += 1
            t.version = int(resp.headers[VERSION_HEADER])

        def changed(i: int) -> None:
            # the other phone, one write behind (as in the load run: it polls every 2 s, a table
            # writes every 2 s): the kept screen. (A phone further behind draws its own, telling
            # each entry it missed; polling here from the version before each of several entries
            # of one table measured that rarer drawing.)
            t, _version = seen[i]
            assert client.get(f"{base}/games/{t.game_id}/poll?v={t.version - 1}", headers=hx).status_code == 200

        def unchanged(i: int) -> None:
            t = tables[i % len(tables)]
            assert client.get(f"{base}/games/{t.game_id}/poll?v={t.version}", headers=hx).status_code == 204

        def hello(_i: int) -> None:
            client.get(f"{base}/_bench/hello")

        for name, run in (("hello", hello), ("entry", entry), ("poll changed", changed), ("poll 204", unchanged)):
            before = cpu_seconds()["server"]
            for i in range(count):
                run(i)
            out[name] = (cpu_seconds()["server"] - before) / count * 1000
    return out


# ------------------------------------------------------------------------ 3. bytes


def wire_bytes(resp: httpx.Response) -> int:
    """Status line, headers and the body as sent (compressed)."""
    head = len(f"HTTP/1.1 {resp.status_code} {resp.reason_phrase}\r\n") + 2
    head += sum(len(k) + len(v) + 4 for k, v in resp.headers.raw)
    return head + resp.num_bytes_downloaded


ASSET = re.compile(r'<(?:link|script|img)\b[^>]*?\b(?:href|src)="([^"]+)"')


def page_bytes(base: str, table: Table, games: list[Any], encoding: str) -> dict[str, Any]:
    """Bytes of one entry's htmx response, and of a first visit: the page and its assets."""
    out: dict[str, Any] = {}
    with httpx.Client(timeout=30, headers={"Accept-Encoding": encoding}) as client:
        page = client.get(f"{base}/games/{table.game_id}")
        assets = [a for a in ASSET.findall(page.text) if a.startswith("/")]
        if "serviceWorker" in page.text or any("app" in a and a.endswith(".js") for a in assets):
            assets.append("/sw.js")  # app.js registers the service worker on the first visit
        total = wire_bytes(page)
        parts = {"page": wire_bytes(page)}
        for url in dict.fromkeys(assets):
            resp = client.get(base + url)
            parts[url] = wire_bytes(resp)
            total += parts[url]
        out["first_load"] = total
        out["parts"] = parts
        token = CSRF.search(page.text).group(1)  # type: ignore[union-attr]
        form, _seat = entry_form(table, games, token)
        resp = client.post(f"{base}/games/{table.game_id}/events", data=form, headers={**HX, "X-CSRFToken": token})
        assert resp.status_code == 200, resp.status_code
        table.posted += 1
        table.version = int(VERSION.search(resp.text).group(1))  # type: ignore[union-attr]
        out["entry"] = wire_bytes(resp)
        out["entry_raw"] = len(resp.content)
    return out


# ------------------------------------------------------------------------ 4. load


def cpu_seconds() -> dict[str, float]:
    """CPU seconds used so far by gunicorn (master and workers) and PostgreSQL (from /proc;
    Linux only; wrk's own is ``process_cpu``)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {"server": 0.0, "postgres": 0.0}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            raw = stat.read_text()
            cmd = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        fields = raw[raw.rindex(")") + 2:].split()
        used = (int(fields[11]) + int(fields[12])) / tick
        if b"gunicorn" in cmd:
            out["server"] += used
        elif raw[raw.index("(") + 1:raw.rindex(")")] == "postgres":
            out["postgres"] += used
    return out


def phones_per_worker(base: str) -> list[int]:
    """Established connections each gunicorn process holds on ``base``'s port, fewest first (from
    /proc; Linux only): each phone's keep-alive connection stays with the worker that accepted it,
    so the spread says how evenly the load run's phones fell on the workers."""
    port = int(base.rsplit(":", 1)[1].split("/")[0])
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if cols[3] == "01" and int(cols[1].rsplit(":", 1)[1], 16) == port:  # ESTABLISHED, ours
                inodes.add(cols[9])
    counts = []
    for fd_dir in Path("/proc").glob("[0-9]*/fd"):
        try:
            if b"gunicorn" not in (fd_dir.parent / "cmdline").read_bytes():
                continue
            links = [os.readlink(fd) for fd in fd_dir.iterdir()]
            held = sum(1 for link in links if link.startswith("socket:[") and link[8:-1] in inodes)
        except OSError:
            continue
        if held:
            counts.append(held)
    return sorted(counts)


@dataclass
class Level:
    tables: int
    p99: float
    p50: float
    post_p99: float
    requests: int
    errors: int
    rate: float
    kinds: dict[str, int] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)  # cores used while measured, by process kind
    spread: list[int] = field(default_factory=list)  # phones' connections held by each worker

    @property
    def ok(self) -> bool:
        return self.errors == 0 and self.p99 < TARGET_MS


def lua_string(text: str) -> str:
    """``text`` as a Lua string literal."""
    return '"' + "".join(c if c.isalnum() or c in "-_.~%=&+" else f"\\{ord(c)}" for c in text) + '"'


def write_tables(folder: Path, tables: list[Table], games: list[Any], phases: list[float]) -> None:
    """The tables for bench/load.lua, ``<n>.lua`` returning table n (from 1): id, version, entries
    posted so far, phase and the form field ``event=…`` of every entry still to come (with the
    seat that makes it)."""
    from urllib.parse import quote

    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    for n, (t, phase) in enumerate(zip(tables, phases), start=1):
        events = games[t.template][1][LENGTH + t.posted:]
        rows = ",".join(f"{{player={e.player},body={lua_string('event=' + quote(json.dumps(event_to_dict(e)), safe=''))}}}"
                        for e in events)
        (folder / f"{n}.lua").write_text(
            f"return {{id={lua_string(t.game_id)},version={t.version},posted={t.posted},phase={phase:.3f},events={{{rows}}}}}\n")


def ensure_wrk() -> None:
    """wrk (Debian's package) drives the load run; installed with apt-get when missing (root)."""
    if shutil.which("wrk"):
        return
    if os.geteuid() == 0:
        log("installing Debian's wrk (apt-get)")
        subprocess.run(["apt-get", "update", "-qq"], check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=False, stdout=subprocess.DEVNULL,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    if not shutil.which("wrk"):
        raise SystemExit("the load run needs wrk: apt-get install wrk")


class WrkCrashed(RuntimeError):
    """wrk itself died of a signal (it crashed twice with SIGSEGV at 550-600 threads on this
    machine): no figure of the server."""


def wrk_level(base: str, tables: list[Table], games: list[Any], token: str, cookie: str,
              warmup: float, measure: float, workdir: Path) -> Level:
    """One load level with wrk (bench/load.lua), run once more if wrk itself crashed (a load
    generator's crash says nothing of the server); ``RuntimeError`` if it crashes again."""
    try:
        return _wrk_level(base, tables, games, token, cookie, warmup, measure, workdir)
    except WrkCrashed as exc:
        log(f"  wrk crashed ({exc}): the level is run once more")
        return _wrk_level(base, tables, games, token, cookie, warmup, measure, workdir)


def _wrk_level(base: str, tables: list[Table], games: list[Any], token: str, cookie: str,
               warmup: float, measure: float, workdir: Path) -> Level:
    """One load level with wrk (bench/load.lua): two phones per table, each one wrk thread with
    its own keep-alive connection; CPU use sampled from /proc while measured."""
    rng = random.Random(len(tables))
    phases = [rng.uniform(0, INTERVAL) for _ in tables]
    data, out = workdir / "tables", workdir / "wrk-out.json"
    write_tables(data, tables, games, phases)
    out.unlink(missing_ok=True)
    begin = time.monotonic() + 2.0 + len(tables) * 0.01  # wrk starts its threads and connects first
    env = {**os.environ, "BENCH_DATA": str(data), "BENCH_OUT": str(out), "BENCH_START": f"{begin:.6f}",
           "BENCH_WARMUP": str(warmup), "BENCH_MEASURE": str(measure), "BENCH_COOKIE": cookie, "BENCH_CSRF": token}
    phones = 2 * len(tables)
    duration = int(begin - time.monotonic() + warmup + measure + 2)
    proc = subprocess.Popen(["wrk", "-t", str(phones), "-c", str(phones), "-d", f"{duration}s", "--timeout", "10s",
                             "-s", str(ROOT / "bench" / "load.lua"), base], env=env,
                            stdout=subprocess.PIPE, stderr=None, text=True)
    time.sleep(max(0.0, begin + warmup - time.monotonic()))
    before, wrk_before = cpu_seconds(), process_cpu(proc.pid)
    spread = phones_per_worker(base)
    time.sleep(max(0.0, begin + warmup + measure - time.monotonic()))
    after, wrk_after = cpu_seconds(), process_cpu(proc.pid)
    output, _ = proc.communicate(timeout=duration + 60)
    if proc.returncode is not None and proc.returncode < 0:
        raise WrkCrashed(f"signal {-proc.returncode}")
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError(f"wrk failed ({proc.returncode}): {output[-2000:]}")
    result = json.loads(out.read_text())
    used = {k: (after[k] - before[k]) / measure for k in ("server", "postgres")}
    used["load generator"] = (wrk_after - wrk_before) / measure
    records: dict[str, list[float]] = {}
    server: dict[str, list[float]] = {}
    kinds: dict[str, int] = {}
    for phone in result["phones"]:
        for kind, values in (phone["lat"] or {}).items():
            records.setdefault(kind, []).extend(values)
        for kind, values in (phone["server"] or {}).items():
            server.setdefault(kind, []).extend(values)
        for key, count in (phone["errors"] or {}).items():
            kinds[key] = kinds.get(key, 0) + int(count)
    skipped = sum(int(phone.get("skipped") or 0) for phone in result["phones"])
    if skipped:
        kinds["entry given up (the one before it not shown within 2 s)"] = skipped
    resync(tables)
    for key, count in result["socket_errors"].items():
        if count and key != "status":  # wrk's "status" counts the refusals listed above
            kinds[f"socket {key}"] = int(count)
    for name in sorted(records):
        log(f"    {name}: {len(records[name])} requests, client p50 {percentile(records[name], 50):.1f} ms, "
            f"p99 {percentile(records[name], 99):.1f} ms, server p50 {percentile(server.get(name, []), 50):.2f} ms")
    log("    cores used: " + ", ".join(f"{k} {v:.2f}" for k, v in used.items()))
    if spread:
        log(f"    phones per worker: {spread[0]}–{spread[-1]} ({', '.join(map(str, spread))})")
    latencies = [v for values in records.values() for v in values]
    return Level(len(tables), percentile(latencies, 99), percentile(latencies, 50), percentile(records.get("post", []), 99),
                 len(latencies), sum(n for key, n in kinds.items() if "warm-up" not in key), len(latencies) / measure,
                 kinds, used, spread)


DATABASE_URL: str = ""  # the database of the gunicorn under load (set by main)


def resync(tables: list[Table]) -> None:
    """Each table's version and entries posted so far, as stored (answers still in flight when
    wrk stopped, or refused entries, would otherwise leave the next level out of step)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(DATABASE_URL)
    try:
        with engine.connect() as conn:
            versions = dict(conn.execute(text("SELECT id, version FROM games")).all())
            counts = dict(conn.execute(text("SELECT game_id, count(*) FROM events WHERE NOT undone GROUP BY game_id")).all())
    finally:
        engine.dispose()
    for t in tables:
        t.version = int(versions[t.game_id])
        t.posted = int(counts.get(t.game_id, 0)) - LENGTH


def process_cpu(pid: int) -> float:
    """CPU seconds used so far by process ``pid`` (all its threads)."""
    raw = Path(f"/proc/{pid}/stat").read_text()
    fields = raw[raw.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_search(base: str, tables: list[Table], games: list[Any], deadline: float, start_n: int,
                warmup: float, measure: float, workers: int, workdir: Path, fixed: list[int] | None = None) -> list[Level]:
    """Levels of N tables until the largest N under the target is found (within 10 tables);
    ``fixed``: exactly these levels instead."""
    with httpx.Client(timeout=30) as client:
        token = csrf_token(client, base, tables[0].game_id)
        cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
    levels: list[Level] = []
    passed, failed = 0, None
    todo = list(fixed or [])
    n = min(todo.pop(0) if todo else start_n, len(tables))
    warmed = 0
    while time.monotonic() + warmup + measure + 5 < deadline:
        if n > warmed:
            warm(base, tables[warmed:n], workers)
            warmed = n
        # The first minutes of a night are not its steady state, and a level over the target
        # leaves a queue behind: one unmeasured run of this size lets every worker settle (first
        # writes, first renders of each sheet, nothing left from the level before).
        try:
            settle = wrk_level(base, tables[:n], games, token, cookie, 2.0, SETTLE, workdir)
            log(f"  {n} tables: settled (p99 {settle.p99:.0f} ms, not counted)")
            level = wrk_level(base, tables[:n], games, token, cookie, warmup, measure, workdir)
        except WrkCrashed as exc:  # twice: no figure for this level, which is not counted as held
            log(f"  {n} tables: wrk crashed again ({exc}): not measured, counted as over")
            failed = n if failed is None else min(failed, n)
        else:
            levels.append(level)
            log(f"  {n} tables: p99 {level.p99:.1f} ms, p50 {level.p50:.1f} ms, entries p99 {level.post_p99:.1f} ms, "
                f"{level.rate:.0f} req/s, {level.errors} errors {level.kinds or ''}-> {'ok' if level.ok else 'over'}")
            if level.ok:
                passed = max(passed, n)
            else:
                failed = n if failed is None else min(failed, n)
        if fixed is not None:
            if not todo:
                break
            n = min(todo.pop(0), len(tables))
            continue
        if failed is None:
            if n >= len(tables):
                break
            nxt = min(len(tables), n + 50)
        else:
            if failed - passed <= 10:
                break
            nxt = (passed + failed) // 2 // 5 * 5 or 5
            if nxt <= passed:
                nxt = passed + 5
        n = nxt
    return levels


def best(levels: list[Level]) -> Level | None:
    ok = [lv for lv in levels if lv.ok]
    return max(ok, key=lambda lv: lv.tables) if ok else None


# ------------------------------------------------------------------------ report


def fmt_ms(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} / {percentile(values, 99):.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="generated games for the replay cost")
    parser.add_argument("--rounds", type=int, default=300, help="requests of each kind for the server times")
    parser.add_argument("--max-tables", type=int, default=400, help="most tables a load level may have")
    parser.add_argument("--start-tables", type=int, default=100, help="tables of the first load level")
    parser.add_argument("--warmup", type=float, default=6.0, help="seconds of each level not measured")
    parser.add_argument("--measure", type=float, default=16.0, help="seconds of each level measured")
    parser.add_argument("--minutes", type=float, default=9.5, help="stop starting load levels after this")
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--postgres-only", action="store_true")
    parser.add_argument("--levels", help="comma-separated table counts to run instead of the search")
    parser.add_argument("--workers", type=int, default=WORKERS, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=THREADS, help="threads per gunicorn worker (0: sync workers)")
    parser.add_argument("--worker-class", default=WORKER_CLASS, choices=("gthread", "sync", "gevent"),
                        help="gunicorn worker class (gevent needs the gevent package)")
    args = parser.parse_args()
    began = time.monotonic()
    deadline = began + args.minutes * 60
    load_before = os.getloadavg()[1]
    results: dict[str, Any] = {}

    ensure_wrk()
    log(f"replay: generating {args.games} complete games")
    results["replay"] = replay_cost(args.games)
    log(f"replay: {results['replay']['us_per_event']:.1f} µs/event over {results['replay']['events']} events")

    games = templates(8, LENGTH, EXTRA)
    with contextlib.ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tracker-bench-")))
        pg = None if args.sqlite_only else stack.enter_context(postgres())
        backends = ([("PostgreSQL", pg)] if pg else [])
        if not (args.postgres_only and pg):
            backends.append(("SQLite", f"sqlite:///{workdir}/bench.sqlite3"))
        for i, (name, url) in enumerate(backends):
            count = args.max_tables + 40
            log(f"{name}: importing {count} games of {LENGTH} entries")
            tables = prepare_database(url, games, count)
            micro, load_tables = tables[:40], tables[40:]
            global DATABASE_URL
            DATABASE_URL = url
            with gunicorn(url, workdir, args.workers, args.threads, args.worker_class) as base:
                log(f"{name}: server times ({args.rounds} of each request)")
                warm(base, micro, args.workers)
                results[name] = {"times": server_times(base, micro[:20] + micro[20:38], games, args.rounds)}
                results[name]["cpu"] = cpu_per_request(base, micro[:20], games)
                results[name]["bytes"] = page_bytes(base, micro[38], games, "gzip")
                results[name]["bytes_br"] = page_bytes(base, micro[39], games, "br")
                left = len(backends) - i
                share = (deadline - time.monotonic()) / left
                log(f"{name}: load levels ({share:.0f} s)")
                results[name]["levels"] = load_search(base, load_tables, games, time.monotonic() + share,
                                                      args.start_tables, args.warmup, args.measure, args.workers, workdir,
                                                      [int(x) for x in args.levels.split(",")] if args.levels else None)
    results["seconds"] = time.monotonic() - began
    results["workers"], results["threads"], results["worker_class"] = args.workers, args.threads, args.worker_class
    results["loadavg"] = (load_before, os.getloadavg()[1])
    print_report(results, backends=[name for name, _url in backends])
    return 0


def print_report(results: dict[str, Any], backends: list[str]) -> None:
    r = results["replay"]
    rows: list[tuple[str, str, str]] = []
    rows.append((f"replay, {r['games']} complete games ({r['events']} events), best of 5", f"{r['us_per_event']:.1f} µs/event",
                 "≤ 20 µs"))
    for name in backends:
        t = results[name]["times"]
        insert = statistics.median(t["insert"])
        rows.append((f"{name}: post an entry (htmx, game of {LENGTH}+), median / p99", f"{fmt_ms(t['htmx'])} ms",
                     f"{statistics.median(t['htmx']) / insert:.1f}× insert (≤ 2×)"))
        rows.append((f"{name}: post an entry (JSON API), median / p99", f"{fmt_ms(t['api'])} ms",
                     f"{statistics.median(t['api']) / insert:.1f}× insert (≤ 2×)"))
        rows.append((f"{name}: bare insert one row + commit, median / p99", f"{fmt_ms(t['insert'])} ms", "baseline"))
        rows.append((f"{name}: bare hello, median / p99", f"{fmt_ms(t['hello'])} ms", "reference"))
        cpu = results[name]["cpu"]
        table = cpu["entry"] + cpu["poll changed"] + cpu["poll 204"]
        rows.append((f"{name}: server CPU per request: hello / entry / poll changed / poll 204",
                     " / ".join(f"{cpu[k]:.2f}" for k in ("hello", "entry", "poll changed", "poll 204")) + " ms",
                     f"a table: {table:.1f} ms per {INTERVAL:.0f} s, {1000 * INTERVAL / table:.0f} tables per core"))
    first = backends[0]
    b, br = results[first]["bytes"], results[first]["bytes_br"]
    rows.append(("one entry's response (htmx), gzip (brotli)", f"{b['entry'] / 1024:.1f} KB ({br['entry'] / 1024:.1f} KB)",
                 f"≤ 4 KB; {b['entry_raw'] / 1024:.1f} KB uncompressed"))
    rows.append((f"first load of a game page + {len(b['parts']) - 1} assets, gzip (brotli)",
                 f"{b['first_load'] / 1024:.1f} KB ({br['first_load'] / 1024:.1f} KB)", "≤ 60 KB"))
    for name in backends:
        levels = results[name]["levels"]
        top = best(levels)
        tried = ", ".join(f"{lv.tables}{'✓' if lv.ok else '✗'}" for lv in levels)
        if top is None:
            rows.append((f"{name}: most tables with p99 < {TARGET_MS:.0f} ms", "none", f"tried {tried}"))
        else:
            rows.append((f"{name}: most tables with p99 < {TARGET_MS:.0f} ms", f"{top.tables} tables",
                         f"p99 {top.p99:.0f} ms, p50 {top.p50:.0f} ms, {top.rate:.0f} req/s; tried {tried}; ≥ 300"))
    widths = [max(len(row[i]) for row in rows + [("measure", "result", "target / note")]) for i in range(3)]
    line = "+-" + "-+-".join("-" * w for w in widths) + "-+"
    print(f"tracker benchmark, {dt.date.today().isoformat()}, {platform.python_implementation()} "
          f"{platform.python_version()}, {os.cpu_count()} cores, gunicorn {results['workers']} workers × {results['threads']} threads "
          f"({results['worker_class']}), run took {results['seconds'] / 60:.1f} min; machine load average (5 min) "
          f"{results['loadavg'][0]:.1f} before, {results['loadavg'][1]:.1f} after")
    print(line)
    print("| " + " | ".join(h.ljust(w) for h, w in zip(("measure", "result", "target / note"), widths)) + " |")
    print(line)
    for row in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |")
    print(line)


if __name__ == "__main__":
    sys.exit(main())
