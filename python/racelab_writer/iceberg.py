"""
The lab's real pyiceberg writer for the Iceberg cases, as the engine's Iceberg writer does it
(packages/lab/src/formats/iceberg/writer.ts): the run's table opened through pyiceberg's SqlCatalog on the
engine's SQLite catalog file (catalog name "default", the engine's), its snapshot pinned before the barrier;
after it, the writer's day appended with the writer's name in the snapshot summary (`writer`, the key the
lab's commit order reads). pyiceberg retries a commit on its own (`commit.retry.num-retries`) and logs each
retry; those log lines are the outcome's warnings and its commit retries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pyarrow.parquet as pq
import pyiceberg
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.table import Table

from racelab_writer.jobs import WriterJob
from racelab_writer.outcome import WriterOutcome, empty_outcome

# The engine's SQL catalog name (packages/engine/src/ops/iceberg/catalog.ts): the rows pyiceberg must read.
CATALOG_NAME = "default"
# The snapshot summary property that names the writer: the engine's emulated writer tags its snapshots so.
WRITER_PROPERTY = "writer"
# What pyiceberg logs before each retry of a commit (pyiceberg.table.Transaction.commit_transaction).
RETRY_LOG = "Commit failed due to a concurrent update, retrying"


def open_table(job: WriterJob) -> Table:
    """The job's table through pyiceberg's SqlCatalog on the run's SQLite catalog file."""
    catalog_file = Path(job["catalog"]).resolve()
    catalog = SqlCatalog(
        CATALOG_NAME,
        uri=f"sqlite:///{catalog_file}",
        # The tables are the engine's, each with its location: a warehouse only places tables created here.
        warehouse=(catalog_file.parent / "warehouse").as_uri(),
        init_catalog_tables="false",
    )
    return catalog.load_table(job["table"])


def commit_retries(warnings: Sequence[str]) -> int:
    """How many times pyiceberg retried its commit: its retry log lines."""
    return sum(1 for w in warnings if w.startswith(RETRY_LOG))


def append(table: Table, job: WriterJob, warnings: Sequence[str], on_commit: Callable[[None], None]) -> WriterOutcome:
    """
    The writer's append on the table as opened; the outcome the lab reads, with the engine's meanings: `version`
    null (an Iceberg snapshot has no version number to match), one attempt (pyiceberg's retries are inside it),
    `commitRetries` the retries of a commit that landed and null for one that failed (its retries are in its
    warnings), files written those the snapshot added (pyiceberg deletes a failed commit's files).
    """
    name = job["writer"]["name"]
    rows_file = job.get("rowsFile")
    if not rows_file:
        raise ValueError(f"{name}: an Iceberg append needs a file of rows")
    outcome = empty_outcome({}, library="pyiceberg", version=pyiceberg.__version__)
    outcome["attempts"] = 1
    logged = len(warnings)
    try:
        table.append(pq.read_table(rows_file), snapshot_properties={WRITER_PROPERTY: name})
    except Exception as e:
        outcome["errorClass"] = type(e).__name__
        outcome["errorMessage"] = str(e)
        return outcome
    on_commit(None)
    outcome["committed"] = True
    outcome["commitRetries"] = commit_retries(warnings[logged:])
    snapshot = table.current_snapshot()
    summary = snapshot.summary if snapshot is not None else None
    if summary is not None and summary.get(WRITER_PROPERTY) == name:
        outcome["filesWritten"] = outcome["filesAdded"] = int(summary.get("added-data-files") or 0)
        outcome["bytesWritten"] = int(summary.get("added-files-size") or 0)
    return outcome
