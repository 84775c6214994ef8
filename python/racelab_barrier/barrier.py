"""
A writer's side of the race barrier: `ready` once its table is open, then it waits for the lab's `go`; at
the end, `done` with its outcome. The module functions act on one barrier over fd 3, made on first use.
deltalake is imported only by `commit_properties`, so that a job written with another library (pyiceberg, Spark)
uses the barrier without it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from racelab_barrier.wire import Channel

if TYPE_CHECKING:
    from deltalake import CommitProperties, Transaction


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class BarrierClosed(SystemExit):
    """The lab closed fd 3 before its go (it died or cancelled the race): the writer must not touch the table."""

    def __init__(self) -> None:
        super().__init__("racelab_barrier: the lab closed fd 3 before go; nothing was done")


class Barrier:
    def __init__(self, channel: Channel, opened: int | None = None) -> None:
        self.channel = channel
        self.opened = opened if opened is not None else now_ms()
        self.released: int | None = None

    def receive_job(self) -> dict[str, Any]:
        """The job the lab sends first (the lab's own writer program gets its case this way)."""
        message = self.channel.receive()
        if message is None:
            raise BarrierClosed()
        if message["type"] != "job" or not isinstance(message.get("job"), dict):
            raise ValueError(f"expected the lab's job, got a {message['type']!r} message")
        job: dict[str, Any] = message["job"]
        return job

    def wait(self, opened: int | None = None) -> int:
        """Says ready (the table is open, everything before the barrier done), blocks until go; the release time."""
        self.channel.send({"type": "ready", "opened": opened or self.opened, "prepared": now_ms()})
        while True:
            message = self.channel.receive()
            if message is None:
                raise BarrierClosed()
            if message["type"] == "go":
                self.released = now_ms()
                return self.released

    def committed(self, version: int | None) -> None:
        self.channel.send({"type": "committed", "version": version})

    def done(self, outcome: Mapping[str, Any]) -> None:
        finished = now_ms()
        released = self.released if self.released is not None else finished
        self.channel.send({"type": "done", "released": released, "finished": finished, "outcome": dict(outcome)})
        self.channel.close()


# A job imports the helper before it opens its table: `ready`'s `opened` is that moment.
_imported = now_ms()
_barrier: Barrier | None = None


def _default() -> Barrier:
    global _barrier
    if _barrier is None:
        _barrier = Barrier(Channel(), _imported)
    return _barrier


def writer_name() -> str:
    return os.environ["RACELAB_WRITER"]


def table_location() -> str:
    return os.environ["RACELAB_TABLE"]


def wait() -> int:
    """Ready, then the lab's go: returns the release time (epoch ms). Exits if the lab is gone first."""
    return _default().wait()


def tag(writer: str | None = None) -> dict[str, str]:
    """The custom metadata that names the writer on its commits (`commitInfo.writer`)."""
    return {"writer": writer or writer_name()}


def commit_properties(
    custom_metadata: Mapping[str, Any] | None = None,
    max_commit_retries: int | None = None,
    app_transactions: list[Transaction] | None = None,
    writer: str | None = None,
) -> CommitProperties:
    """delta-rs commit properties whose custom metadata names the writer (`writer`), as the lab reads commits."""
    from deltalake import CommitProperties

    return CommitProperties(
        custom_metadata={**(custom_metadata or {}), **tag(writer)},
        max_commit_retries=max_commit_retries,
        app_transactions=app_transactions,
    )


def committed(version: int | None = None) -> None:
    """Tells the lab the job's commit is in (its version, when known): writers that start after it are released."""
    _default().committed(version)


def done(outcome: Mapping[str, Any]) -> None:
    """The writer's outcome (the lab's WriterOutcome fields) to the lab, which closes the barrier's channel."""
    _default().done(outcome)
