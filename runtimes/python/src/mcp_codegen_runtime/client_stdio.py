"""The client's stdio transport (asyncio): the server runs as a child process, one JSON-RPC message per line
on its stdin and stdout. The mirror of TypeScript's client-stdio.ts; the generator copies it as
``client_stdio.py`` of the Python tree.

- The child gets ``env`` exactly as given; without it only ``inherited_environment()``: the variables of
  ``INHERITED_ENV_VARS`` from this process (an exported shell function left out), so no API key or token of
  the caller's reaches a third-party server.
- Lines are read with ``dispatcher.parse_json`` (no interpreter limit decides); a line that is not JSON, or
  one over ``max_line_bytes``, is dropped and told to the client (``problem``); reading goes on.
- ``close()`` ends the child's stdin, waits ``end_grace`` seconds, then terminates it, then kills it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from collections.abc import Mapping
from typing import Any, Final, Literal

from .client import OutgoingInfo, Receiver, RequestId
from .dispatcher import parse_json

DEFAULT_MAX_LINE_BYTES: Final = 4 * 1024 * 1024
DEFAULT_END_GRACE: Final = 2.0

INHERITED_ENV_VARS: Final[tuple[str, ...]] = (
    ("APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PROCESSOR_ARCHITECTURE", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES")
    if sys.platform == "win32"
    else ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
)
"""The variables a server process inherits when no ``env`` is given."""


def inherited_environment() -> dict[str, str]:
    """The safe default environment of a server process: ``INHERITED_ENV_VARS`` from this one (no shell function)."""
    out: dict[str, str] = {}
    for name in INHERITED_ENV_VARS:
        value = os.environ.get(name)
        if value is not None and not value.startswith("()"):
            out[name] = value
    return out


class StdioClientTransport:
    """Spawn ``command`` with ``args`` and talk to it over its stdin and stdout.

    ``stderr``: "inherit" (this process's), "ignore" (discarded) or "pipe" (kept in ``stderr_text``)."""

    def __init__(
        self,
        command: str,
        args: list[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        stderr: Literal["inherit", "ignore", "pipe"] = "inherit",
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        end_grace: float = DEFAULT_END_GRACE,
    ) -> None:
        self.command = command
        self.args = list(args or [])
        self.env = dict(env) if env is not None else inherited_environment()
        self.cwd = cwd
        self.stderr = stderr
        self.max_line_bytes = max_line_bytes
        self.end_grace = end_grace
        self.stderr_text = ""
        self._process: asyncio.subprocess.Process | None = None
        self._receiver: Receiver | None = None
        self._reader: asyncio.Task[None] | None = None
        self._stderr_reader: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    async def start(self, receiver: Receiver) -> None:
        self._receiver = receiver
        stderr = None if self.stderr == "inherit" else asyncio.subprocess.DEVNULL if self.stderr == "ignore" else asyncio.subprocess.PIPE
        self._process = await asyncio.create_subprocess_exec(
            self.command,
            *self.args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            env=self.env,
            cwd=self.cwd,
            limit=self.max_line_bytes + 1,
        )
        self._reader = asyncio.create_task(self._read())
        if self.stderr == "pipe":
            self._stderr_reader = asyncio.create_task(self._read_stderr())

    async def _read_stderr(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        while chunk := await self._process.stderr.read(65536):
            self.stderr_text += chunk.decode("utf-8", "replace")

    async def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        stdout = self._process.stdout
        error: BaseException | None = None
        try:
            while True:
                try:
                    raw = await stdout.readuntil(b"\n")
                except asyncio.IncompleteReadError as end:
                    raw = end.partial
                    if raw.strip():
                        self._line(raw)
                    break
                except asyncio.LimitOverrunError as over:
                    # Skip the over-long line up to its end.
                    await stdout.readexactly(over.consumed)
                    while True:
                        try:
                            await stdout.readuntil(b"\n")
                            break
                        except asyncio.LimitOverrunError as more:
                            await stdout.readexactly(more.consumed)
                    self._problem(ValueError(f"a line from the server exceeds {self.max_line_bytes} bytes (max_line_bytes); dropped"))
                    continue
                self._line(raw)
        except Exception as failure:  # noqa: BLE001 - the pipe failed: the connection is gone
            error = failure
        if not self._closed and self._receiver is not None:
            code = await self._process.wait()
            self._receiver.closed(error if error is not None else ConnectionError(f"the server process exited (status {code})"))

    def _line(self, raw: bytes) -> None:
        if len(raw) > self.max_line_bytes + 1:
            self._problem(ValueError(f"a line from the server exceeds {self.max_line_bytes} bytes (max_line_bytes); dropped"))
            return
        text = raw.decode("utf-8", "replace").strip()
        if text == "":
            return
        try:
            message = parse_json(text)
        except Exception:  # noqa: BLE001 - not JSON: told, reading goes on
            self._problem(ValueError(f"the server wrote a line that is not JSON: {text[:200]}"))
            return
        if self._receiver is not None:
            self._receiver.message(message)

    def _problem(self, error: BaseException) -> None:
        if self._receiver is not None:
            self._receiver.problem(error)

    async def send(self, message: Mapping[str, Any], info: OutgoingInfo) -> None:
        process = self._process
        if self._closed or process is None or process.stdin is None:
            raise ConnectionError("the stdio transport is closed")
        process.stdin.write((json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8"))
        await process.stdin.drain()

    async def session_started(self, protocol_version: str) -> None:
        return None

    def abandon(self, request_id: RequestId) -> None:
        return None

    async def close(self) -> None:
        """End the child: its stdin closes, then SIGTERM after ``end_grace`` seconds, then SIGKILL. Idempotent."""
        if self._closed:
            return
        self._closed = True
        process = self._process
        if process is not None:
            if process.stdin is not None:
                with contextlib.suppress(Exception):
                    process.stdin.close()
            for stop in (None, process.terminate, process.kill):
                if stop is not None:
                    with contextlib.suppress(ProcessLookupError):
                        stop()
                try:
                    await asyncio.wait_for(process.wait(), self.end_grace)
                    break
                except TimeoutError:
                    continue
        for task in (self._reader, self._stderr_reader):
            if task is not None:
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(task, 1.0)
