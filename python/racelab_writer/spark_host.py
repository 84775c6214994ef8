"""
The Spark host: `PYTHONPATH=python <venv>/bin/python -m racelab_writer.spark_host`, started by the lab with its
socket on fd 3. Delta's local log store keeps concurrent writers apart only inside one JVM, so every Delta Spark
writer of a race is a thread of this one process, each on its own session of one SparkSession (its own SQL
settings: the writer's name as userMetadata). Protocol (docs: notes of the lab's Spark host; JSON lines on fd 3,
every writer's message carrying "writer"): host-ready once the session is up; per writer, job -> ready -> go ->
committed -> done with its outcome; shutdown, or fd 3 closing, stops the session and exits 0. Writers that have
not had their go then never touch their table. A writer's crash is its failed `done`, never the host's exit.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import traceback
from typing import Any

from pyspark.sql import SparkSession

from racelab_barrier.barrier import now_ms
from racelab_barrier.wire import Channel
from racelab_writer.attempts import run_attempts
from racelab_writer.jobs import JobError, parse_job
from racelab_writer.log_capture import WarningLog, capture_library_warnings
from racelab_writer.outcome import WriterOutcome, empty_outcome
from racelab_writer.spark_change import DELTA_SPARK_VERSION, SparkDeltaTable, java_error, writer_session


def start_session(jars: list[str]) -> SparkSession:
    """One local session on loopback, no UI, the pinned Delta jars (no Ivy, no network)."""
    conf = {
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.jars": ",".join(jars),
        "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        "spark.sql.shuffle.partitions": "2",
        "spark.databricks.delta.snapshotPartitions": "2",
        # A refused commit's text is the Java exception's message, without the JVM's stack trace.
        "spark.sql.pyspark.jvmStacktrace.enabled": "false",
    }
    builder = SparkSession.builder.master("local[2]").appName("racelab-spark-host")
    for key, value in conf.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


class Gate:
    """A writer's barrier: opened by the lab's go, or closed for good when the lab goes away first."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._go = False

    def release(self, go: bool) -> None:
        self._go = self._go or go
        self._event.set()

    def wait(self) -> bool:
        self._event.wait()
        return self._go


class Host:
    def __init__(self, channel: Channel, spark: SparkSession, warnings: WarningLog) -> None:
        self.channel = channel
        self.spark = spark
        self.warnings = warnings
        self._lock = threading.Lock()
        self._gates: dict[str, Gate] = {}
        self._threads: list[threading.Thread] = []
        # Writers whose job runs and whose `done` is not sent yet: the lab may reuse a name once it has its done.
        self._busy: set[str] = set()

    def send(self, writer: str, message: dict[str, Any]) -> None:
        with self._lock:
            try:
                self.channel.send({**message, "writer": writer})
            except OSError as e:
                # The lab has gone (fd 3 closed): the writer's message has no one to read it.
                print(f"spark host: {message['type']} of {writer} not sent: {e}", file=sys.stderr)

    def serve(self) -> None:
        """Reads the lab's messages until shutdown or fd 3's end; then lets the released writers finish."""
        while (message := self.channel.receive()) is not None and message["type"] != "shutdown":
            writer = message.get("writer")
            if not isinstance(writer, str):
                print(f"spark host: a {message['type']!r} message without a writer, ignored", file=sys.stderr)
            elif message["type"] == "job":
                self.start(writer, message.get("job"))
            elif message["type"] == "go" and writer in self._gates:
                self._gates[writer].release(go=True)
        for gate in self._gates.values():
            gate.release(go=False)
        for thread in self._threads:
            thread.join()

    def start(self, writer: str, raw: Any) -> None:
        with self._lock:
            running = writer in self._busy
            self._busy.add(writer)
        if running:
            refused = JobError(f"writer {writer} is still running its previous job")
            self.send(writer, done_message(None, self.failed(refused)))
            return
        gate = Gate()
        thread = threading.Thread(target=self.run_writer, args=(writer, raw, gate), name=writer, daemon=True)
        self._gates[writer] = gate
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def run_writer(self, writer: str, raw: Any, gate: Gate) -> None:
        opened = now_ms()
        logged_before = len(self.warnings.messages)
        released: int | None = None
        try:
            if not isinstance(raw, dict):
                raise JobError("the job message carries no job")
            job = parse_job(raw)
            if job["format"] != "delta":
                raise JobError(f"the Spark host runs Delta tables, not {job['format']}")
            if job["writer"]["name"] != writer:
                raise JobError(f"the job's writer is {job['writer']['name']!r}, its message's {writer!r}")
            table = SparkDeltaTable(writer_session(self.spark, job), job)
            observed = table.observe()
            self.send(writer, {"type": "ready", "opened": opened, "prepared": now_ms()})
            if not gate.wait():
                return
            released = now_ms()
            outcome = empty_outcome(observed, "delta-spark", DELTA_SPARK_VERSION)
            run_attempts(
                table, job, observed, lambda v: self.send(writer, {"type": "committed", "version": v}), outcome
            )
        except Exception as e:
            print(f"spark host: writer {writer} crashed", file=sys.stderr)
            traceback.print_exc()
            outcome = self.failed(e)
        outcome["warnings"].extend(self.warnings.of_thread(writer, logged_before))
        self.done(writer, released, outcome)

    def failed(self, e: Exception) -> WriterOutcome:
        outcome = empty_outcome({}, "delta-spark", DELTA_SPARK_VERSION)
        outcome["errorClass"], outcome["errorMessage"] = java_error(e)
        return outcome

    def done(self, writer: str, released: int | None, outcome: WriterOutcome) -> None:
        with self._lock:
            self._busy.discard(writer)
        self.send(writer, done_message(released, outcome))


def done_message(released: int | None, outcome: WriterOutcome) -> dict[str, Any]:
    finished = now_ms()
    released = released if released is not None else finished
    return {"type": "done", "released": released, "finished": finished, "outcome": dict(outcome)}


def jars_from_env() -> list[str]:
    given = os.environ.get("RACELAB_SPARK_JARS", "")
    jars = [j for j in given.split(":") if j]
    if not jars:
        raise SystemExit("spark host: RACELAB_SPARK_JARS names no jars (the Delta jars setup:python installs)")
    return jars


def main() -> None:
    warnings = capture_library_warnings()
    jars = jars_from_env()
    # The JVM binds to loopback only (the lab sets this too; a host started by hand gets it as well).
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    channel = Channel()
    started = time.monotonic()
    spark = start_session(jars)
    print(f"spark host: session up in {time.monotonic() - started:.1f} s (Spark {spark.version})", file=sys.stderr)
    channel.send({"type": "host-ready", "sparkVersion": spark.version, "deltaVersion": DELTA_SPARK_VERSION})
    try:
        Host(channel, spark, warnings).serve()
    finally:
        spark.stop()
        channel.close()


if __name__ == "__main__":
    main()
