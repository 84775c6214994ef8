"""
One writer's change through Delta Spark's public Python API (DataFrameWriter, DeltaTable), on the writer's own
Spark session: an append of the rows file, an update, a delete, an overwrite of a predicate's rows
(`replaceWhere`), a compaction (`OPTIMIZE`), a check-then-append. Its commits carry the writer's name as
`userMetadata`, and its application transaction as Delta's idempotent-write settings, which skip a batch
already committed. A refused commit is named as the JVM names it: the Java exception's simple class name and
its getMessage() text.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from delta.exceptions import (
    ConcurrentAppendException,
    ConcurrentDeleteDeleteException,
    ConcurrentDeleteReadException,
    ConcurrentTransactionException,
    ConcurrentWriteException,
    DeltaConcurrentModificationException,
    MetadataChangedException,
    ProtocolChangedException,
)
from delta.tables import DeltaTable
from py4j.protocol import Py4JJavaError
from pyspark.sql import DataFrame, SparkSession

from racelab_writer.change import check_of, day_predicate
from racelab_writer.delta_log import TaggedCommit, latest_version
from racelab_writer.jobs import Txn, WriterJob

DELTA_SPARK_VERSION = version("delta-spark")

# Delta's commit conflicts, as delta-spark raises them: Python classes with no common parent.
CONFLICTS = (
    ConcurrentAppendException,
    ConcurrentDeleteDeleteException,
    ConcurrentDeleteReadException,
    ConcurrentTransactionException,
    ConcurrentWriteException,
    DeltaConcurrentModificationException,
    MetadataChangedException,
    ProtocolChangedException,
)

# The session settings a writer's own session carries (Delta's SQL configuration keys).
USER_METADATA = "spark.databricks.delta.commitInfo.userMetadata"
TXN_APP_ID = "spark.databricks.delta.write.txnAppId"
TXN_VERSION = "spark.databricks.delta.write.txnVersion"


def writer_session(spark: SparkSession, job: WriterJob) -> SparkSession:
    """A session of its own for the writer (own SQL settings, the shared JVM), tagged with its name."""
    session = spark.newSession()
    writer = job["writer"]
    session.conf.set(USER_METADATA, writer["name"])
    txn = writer.get("txn")
    if txn:
        session.conf.set(TXN_APP_ID, txn["appId"])
        session.conf.set(TXN_VERSION, str(txn["version"]))
    return session


def count_rows(session: SparkSession, table: str, predicate: str) -> int:
    """Rows of the table, as it is now, that match a Spark SQL predicate."""
    return session.read.format("delta").load(table).where(predicate).count()


def java_error(e: BaseException) -> tuple[str, str]:
    """The Java exception's simple class name and getMessage() behind a Spark call's error."""
    origin: Any = e.java_exception if isinstance(e, Py4JJavaError) else getattr(e, "_origin", None)
    if origin is not None:
        return str(origin.getClass().getSimpleName()), str(origin.getMessage())
    # delta-spark converts Delta's conflicts (io.delta.exceptions.<Name>) to Python classes of the same name,
    # keeping the Java message as their text (the JVM stack trace is off in the writer's session).
    return type(e).__name__, str(e)


class SparkDeltaTable:
    """A writer's table in Delta Spark. Spark reads the newest snapshot at each call: a redo needs no reopening."""

    tag_field = "userMetadata"

    def __init__(self, session: SparkSession, job: WriterJob) -> None:
        self.session = session
        self.job = job
        self.path = job["table"]
        # Loads the table's log into the JVM's cache now, before the barrier.
        self.table = DeltaTable.forPath(session, self.path)

    def observe(self) -> dict[str, int]:
        """The check a check-then-append makes before the barrier."""
        check = check_of(self.job["writer"]["operation"])
        return {check[0]: count_rows(self.session, self.path, check[1])} if check else {}

    def reopen(self) -> None:
        pass

    def read_version(self) -> int:
        return latest_version(self.path)

    def already_committed(self, txn: Txn) -> bool:
        # Delta Spark skips a write whose txn the table has already, with the session's txn settings.
        return False

    def rows(self) -> DataFrame:
        rows_file = self.job.get("rowsFile")
        if not rows_file:
            raise ValueError(f"{self.job['writer']['operation']['kind']} needs a file of rows")
        return self.session.read.parquet(rows_file)

    def append(self) -> Callable[[], object]:
        return lambda: self.rows().write.format("delta").mode("append").save(self.path)

    def overwrite(self, predicate: str) -> Callable[[], object]:
        return lambda: (
            self.rows().write.format("delta").mode("overwrite").option("replaceWhere", predicate).save(self.path)
        )

    def operation(self, observed: dict[str, int]) -> Callable[[], object] | None:
        op = self.job["writer"]["operation"]
        table = self.table
        if op["kind"] == "append":
            # A Spark append is always blind.
            return self.append()
        if op["kind"] == "update":
            return lambda: table.update(condition=op["predicate"], set=dict(op["set"]))
        if op["kind"] == "delete":
            return lambda: table.delete(op["predicate"])
        if op["kind"] == "optimize":
            return lambda: table.optimize().executeCompaction()
        if op["kind"] == "check-then-append":
            check = check_of(op)
            if check and observed.get(check[0], 0) > 0:
                return None
            return self.append()
        if op["kind"] == "overwrite-day":
            return self.overwrite(day_predicate(op["day"]))
        return self.overwrite(op["predicate"])

    def conflict(self, e: Exception) -> bool:
        return isinstance(e, CONFLICTS)

    def describe(self, e: Exception) -> tuple[str, str]:
        return java_error(e)

    def commit_read_version(self, commit: TaggedCommit, read_version: int) -> int:
        # Spark's transaction reads the snapshot when it starts, after the barrier: its commitInfo says which.
        return commit.read_version if commit.read_version is not None else read_version
