"""
The lab's fd-3 protocol: one JSON object per line (UTF-8, newline-terminated) each way over the Unix socket
the lab passes as file descriptor 3. Lab to writer: `{"type":"job",...}`, then `{"type":"go"}`; writer to
lab: `ready`, optionally `committed`, then `done`.
"""

from __future__ import annotations

import json
import socket
from typing import Any

LAB_FD = 3


class Channel:
    """Both directions of the lab's socket, one JSON message a line."""

    def __init__(self, fd: int = LAB_FD) -> None:
        self._socket = socket.socket(fileno=fd)
        self._file = self._socket.makefile("rwb")

    def send(self, message: dict[str, Any]) -> None:
        self._file.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        self._file.flush()

    def receive(self) -> dict[str, Any] | None:
        """The next message, or None once the lab has closed its end."""
        line = self._file.readline()
        if not line:
            return None
        message = json.loads(line)
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise ValueError(f"not a message of the lab: {line[:200]!r}")
        return message

    def close(self) -> None:
        self._file.close()
        self._socket.close()
