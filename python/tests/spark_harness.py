"""
The Spark host started as the lab starts it (`python -m racelab_writer.spark_host`, fd 3, the setup's jars in
RACELAB_SPARK_JARS), with the lab's end of its protocol: every message but host-ready names its writer, and
messages of concurrent writers interleave, so each is kept for its writer until a test asks for it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from tests.harness import Writer


def setup_jars() -> list[str]:
    """The jars setup:python put beside this interpreter's environment."""
    jars = sorted(str(p) for p in (Path(sys.prefix) / "spark-jars").glob("*.jar"))
    assert jars, f"no Delta jars in {sys.prefix}/spark-jars: run npm run setup:python"
    return jars


class SparkHost:
    def __init__(self) -> None:
        env = {"RACELAB_SPARK_JARS": ":".join(setup_jars()), "SPARK_LOCAL_IP": "127.0.0.1", "PYTHONUNBUFFERED": "1"}
        self.process = Writer(None, ("-m", "racelab_writer.spark_host"), env=env)
        self._kept: dict[str, list[dict[str, Any]]] = {}
        self.host_ready = self.next("", "host-ready")

    def send(self, writer: str, message: dict[str, Any]) -> None:
        self.process.send({**message, "writer": writer})

    def job(self, body: dict[str, Any]) -> str:
        writer: str = body["writer"]["name"]
        self.send(writer, {"type": "job", "job": body})
        return writer

    def next(self, writer: str, kind: str) -> dict[str, Any]:
        """The writer's next message, which must be of type `kind` ("" is the host's own)."""
        message = self.take(writer)
        assert message["type"] == kind, message
        return message

    def take(self, writer: str) -> dict[str, Any]:
        """The writer's next message, whatever its type."""
        self.peek(writer)
        return self._kept[writer].pop(0)

    def race(self, *bodies: dict[str, Any]) -> list[dict[str, Any]]:
        """Jobs for every writer, go once all are ready; their done messages in order."""
        writers = [self.job(body) for body in bodies]
        for w in writers:
            self.next(w, "ready")
        for w in writers:
            self.send(w, {"type": "go"})
        return [self.finish(w) for w in writers]

    def finish(self, writer: str) -> dict[str, Any]:
        """The writer's done message, past its committed one if it committed."""
        if self.peek(writer)["type"] == "committed":
            committed = self.next(writer, "committed")
            done = self.next(writer, "done")
            assert committed["version"] == done["outcome"]["version"]
            return done
        return self.next(writer, "done")

    def peek(self, writer: str) -> dict[str, Any]:
        """The writer's next message, left for `next`: read from the host until there is one."""
        kept = self._kept.setdefault(writer, [])
        while not kept:
            message = self.process.receive()
            assert message is not None, self.process.failure(message)
            self._kept.setdefault(message.get("writer", ""), []).append(message)
        return kept[0]

    def stop(self, how: str) -> int:
        """Shutdown message or fd 3 closed; the host's exit status."""
        if how == "shutdown":
            self.process.send({"type": "shutdown"})
        self.process.close()
        return self.process.wait()
