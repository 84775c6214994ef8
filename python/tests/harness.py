"""
Test helpers: a small taxi-shaped Delta table written with deltalake itself, Parquet files of a day's rows, and
a writer process started as the lab starts it (`python -m racelab_writer` with one end of a socket pair as fd 3).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import DeltaTable, write_deltalake

PYTHON_DIR = Path(__file__).resolve().parent.parent
LAB_FD = 3


def trips(day: str, count: int, vendors: tuple[int, ...] = (1, 2)) -> pa.Table:
    start = datetime.fromisoformat(day)
    return pa.table(
        {
            "VendorID": pa.array([vendors[i % len(vendors)] for i in range(count)], pa.int32()),
            "tpep_pickup_datetime": pa.array(
                [start + timedelta(minutes=7 * i) for i in range(count)], pa.timestamp("us")
            ),
            "trip_distance": pa.array([float(i % 3) for i in range(count)]),
            "fare_amount": pa.array([-1.0 if i % 4 == 0 else 10.0 for i in range(count)]),
            "tip_amount": pa.array([1.0] * count),
        }
    )


def make_table(root: Path, files: int = 1) -> str:
    """A flat table of Jan 15 trips (vendors 1 and 2) in `files` data files, at version files - 1."""
    location = str(root / "table")
    for _ in range(files):
        write_deltalake(location, trips("2025-01-15", 8), mode="append")
    return location


def rows_file(root: Path, day: str, count: int) -> str:
    path = root / f"rows-{day}-{count}.parquet"
    pq.write_table(trips(day, count), path)
    return str(path)


def log_entry(table: str, version: int) -> list[dict[str, Any]]:
    text = (Path(table) / "_delta_log" / f"{version:020d}.json").read_text()
    return [json.loads(line) for line in text.splitlines()]


def commit_info(table: str, version: int) -> dict[str, Any]:
    info: dict[str, Any] = next(a["commitInfo"] for a in log_entry(table, version) if "commitInfo" in a)
    return info


def rows(table: str) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = DeltaTable(table).to_pyarrow_table().to_pylist()
    return result


def job(table: str, name: str, operation: dict[str, Any], **spec: Any) -> dict[str, Any]:
    rows_at = spec.pop("rowsFile", None)
    body: dict[str, Any] = {
        "kind": "race",
        "format": "delta",
        "table": table,
        "writer": {"name": name, "operation": operation, **spec},
    }
    if rows_at:
        body["rowsFile"] = rows_at
    return body


class Writer:
    """A writer process and the lab's end of its fd-3 socket."""

    def __init__(
        self,
        job_body: dict[str, Any] | None,
        command: tuple[str, ...] = ("-m", "racelab_writer"),
        env: dict[str, str] | None = None,
    ) -> None:
        lab, child = socket.socketpair()
        child_fd = child.fileno()

        def as_fd3() -> None:
            os.dup2(child_fd, LAB_FD)

        self.process = subprocess.Popen(
            [sys.executable, *command],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=(LAB_FD, child_fd),
            preexec_fn=as_fd3,
            env={**os.environ, "PYTHONPATH": str(PYTHON_DIR), **(env or {})},
        )
        child.close()
        self.lab = lab
        self.file = lab.makefile("rwb")
        self.messages: list[dict[str, Any]] = []
        if job_body is not None:
            self.send({"type": "job", "job": job_body})

    def send(self, message: dict[str, Any]) -> None:
        self.file.write(json.dumps(message).encode() + b"\n")
        self.file.flush()

    def receive(self) -> dict[str, Any] | None:
        line = self.file.readline()
        if not line:
            return None
        message: dict[str, Any] = json.loads(line)
        self.messages.append(message)
        return message

    def ready(self) -> dict[str, Any]:
        message = self.receive()
        assert message is not None and message["type"] == "ready", self.failure(message)
        return message

    def go(self) -> None:
        self.send({"type": "go"})

    def finish(self) -> dict[str, Any]:
        """Reads up to `done`, waits for the exit; the done message."""
        while (message := self.receive()) is not None and message["type"] != "done":
            pass
        assert message is not None, self.failure(message)
        assert self.wait() == 0, self.stderr
        return message

    def close(self) -> None:
        self.file.close()
        self.lab.close()

    def wait(self) -> int:
        out, err = self.process.communicate(timeout=120)
        self.stdout, self.stderr = out.decode(), err.decode()
        return self.process.returncode

    def failure(self, message: dict[str, Any] | None) -> str:
        if self.process.poll() is None:
            return f"unexpected message {message!r}"
        self.wait()
        return f"unexpected message {message!r}; stderr:\n{self.stderr}"


def race(*bodies: dict[str, Any]) -> list[dict[str, Any]]:
    """Starts every writer, waits until all are ready, releases them together; their outcomes in order."""
    writers = [Writer(body) for body in bodies]
    for w in writers:
        w.ready()
    for w in writers:
        w.go()
    outcomes: list[dict[str, Any]] = [w.finish()["outcome"] for w in writers]
    for w in writers:
        w.close()
    return outcomes


def run_one(body: dict[str, Any]) -> dict[str, Any]:
    return race(body)[0]
