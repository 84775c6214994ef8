"""
Delta Spark's side of the cross-reading test (packages/lab/test/cross-read-spark.test.ts): one Spark session, the
Spark host's (`start_session`, the jars in RACELAB_SPARK_JARS), answering tasks so that every table the test has Spark
write or read goes through one JVM. Run as `PYTHONPATH=python <venv>/bin/python -m tests.spark_tables`; it prints
`{"ready": ...}` once the session is up, then reads one JSON task per line on stdin and prints one JSON answer per line
on stdout (Spark's own logging goes to stderr). Tasks:

- `{"sql": [statements]}` runs the statements in order and answers `{}`;
- `{"read": path, "columns": [names]}` answers `{"version", "rows"}`: the table's latest version and its rows (the
  listed columns, or all), each row an object with values as the engine's reader gives them in JSON: timestamps in
  UTC and dates at UTC midnight as ISO strings with milliseconds, decimals as numbers.

A task that fails answers `{"error": "<the exception's class: its message>"}` and the session carries on. Stdin's end
stops the session.
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from pyspark.sql import SparkSession

from racelab_writer.spark_host import jars_from_env, start_session


def plain(value: Any) -> Any:
    """A value as JSON carries it, in the engine's reader's terms (the session and this process are on UTC)."""
    if isinstance(value, datetime):
        return value.isoformat(timespec="milliseconds") + "Z"
    if isinstance(value, date):
        return f"{value.isoformat()}T00:00:00.000Z"
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def read_table(spark: SparkSession, path: str, columns: list[str]) -> dict[str, Any]:
    """The table's latest version and its rows as a fresh Delta Spark reader reads them from the files."""
    # Without this, a table Spark has read before is brought up to date from its cached snapshot, not from the log.
    jvm: Any = spark._jvm
    jvm.org.apache.spark.sql.delta.DeltaLog.clearCache()
    history = spark.sql(f"DESCRIBE HISTORY delta.`{path}` LIMIT 1").collect()
    frame = spark.read.format("delta").load(path)
    if columns:
        frame = frame.select(*columns)
    rows = [plain(row.asDict(recursive=True)) for row in frame.collect()]
    return {"version": int(history[0]["version"]), "rows": rows}


def answer(spark: SparkSession, task: dict[str, Any]) -> dict[str, Any]:
    try:
        if "sql" in task:
            for statement in task["sql"]:
                spark.sql(statement)
            return {}
        if "read" in task:
            return read_table(spark, task["read"], list(task.get("columns", [])))
        return {"error": f"a task is either sql or read, not {sorted(task)}"}
    except Exception as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
        return {"error": f"{type(e).__name__}: {first}"}


def main() -> None:
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    # pyspark gives timestamps as naive datetimes in this process's zone: UTC, like the session's.
    os.environ["TZ"] = "UTC"
    time.tzset()
    started = time.monotonic()
    spark = start_session(jars_from_env())
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    ready = {"ready": round(time.monotonic() - started, 1), "spark": spark.version}
    print(json.dumps(ready), flush=True)
    try:
        for line in sys.stdin:
            if line.strip():
                print(json.dumps(answer(spark, json.loads(line)), default=str), flush=True)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
