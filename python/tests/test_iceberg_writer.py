"""
The real pyiceberg writer on an Iceberg table in a SQLite SQL catalog, as the lab's Iceberg cases race it:
two writers that opened the same snapshot append at once; pyiceberg retries the loser's commit on its own, so
both land, the retry is in the loser's warnings and counted, and each snapshot names its writer.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from pyiceberg.catalog.sql import SqlCatalog

from racelab_writer.iceberg import CATALOG_NAME, RETRY_LOG
from tests.harness import Writer, race, rows_file, trips

# pyiceberg 0.12.0's two refusals of a commit whose base snapshot moved.
LOST_COMMIT = (
    r"branch main has changed: expected id \d+, found \d+"
    r"|Table has been updated by another process: lab\.trips"
)

TABLE = "lab.trips"


def make_iceberg_table(root: Path, properties: dict[str, str] | None = None) -> str:
    """A SQLite catalog (the engine's name for it) holding `lab.trips` with one snapshot of Jan 15 trips."""
    catalog_file = root / "catalog.db"
    catalog = SqlCatalog(CATALOG_NAME, uri=f"sqlite:///{catalog_file}", warehouse=(root / "warehouse").as_uri())
    catalog.create_namespace("lab")
    seed = trips("2025-01-15", 8)
    table = catalog.create_table(TABLE, schema=seed.schema, properties=properties or {})
    table.append(seed)
    return str(catalog_file)


def iceberg_job(catalog: str, name: str, rows: str) -> dict[str, Any]:
    return {
        "kind": "race",
        "format": "iceberg",
        "catalog": catalog,
        "table": TABLE,
        "writer": {"name": name, "operation": {"kind": "append", "day": rows}},
        "rowsFile": rows,
    }


def snapshots(catalog_file: str) -> list[tuple[int, str | None]]:
    """Each snapshot's sequence number and the writer its summary names."""
    catalog = SqlCatalog(CATALOG_NAME, uri=f"sqlite:///{catalog_file}")
    table = catalog.load_table(TABLE)
    return [(s.sequence_number or 0, s.summary.get("writer") if s.summary else None) for s in table.metadata.snapshots]


def test_two_writers_both_land_through_pyicebergs_own_retry(tmp_path: Path) -> None:
    catalog = make_iceberg_table(tmp_path)
    feb01 = rows_file(tmp_path, "2025-02-01", 5)
    feb02 = rows_file(tmp_path, "2025-02-02", 6)
    outcomes = race(iceberg_job(catalog, "feb01", feb01), iceberg_job(catalog, "feb02", feb02))

    assert [o["committed"] for o in outcomes] == [True, True]
    assert all(o["library"] == "pyiceberg" and o["run"] == "real" for o in outcomes)
    assert all(o["libraryVersion"] == "0.12.0" and o["version"] is None for o in outcomes)
    # Both opened the same snapshot: whichever committed second saw it changed and retried once.
    assert sorted(o["commitRetries"] for o in outcomes) == [0, 1]
    loser = next(o for o in outcomes if o["commitRetries"] == 1)
    retries = [w for w in loser["warnings"] if w.startswith(RETRY_LOG)]
    assert len(retries) == 1 and retries[0].startswith(f"{RETRY_LOG} (1/4) in ")
    assert all(o["filesWritten"] == 1 and o["bytesWritten"] > 0 for o in outcomes)

    # Attribution: each new snapshot's summary names its writer; the seed's names none.
    tagged = {writer: sequence for sequence, writer in snapshots(catalog)}
    assert set(tagged) == {None, "feb01", "feb02"}
    assert sorted([tagged["feb01"], tagged["feb02"]]) == [2, 3]
    rows = SqlCatalog(CATALOG_NAME, uri=f"sqlite:///{catalog}").load_table(TABLE).scan().to_arrow()
    assert rows.num_rows == 8 + 5 + 6


def test_without_retries_the_second_commit_fails_with_pyicebergs_exception(tmp_path: Path) -> None:
    catalog = make_iceberg_table(tmp_path, {"commit.retry.num-retries": "0"})
    feb01 = rows_file(tmp_path, "2025-02-01", 5)
    feb02 = rows_file(tmp_path, "2025-02-02", 6)
    outcomes = race(iceberg_job(catalog, "feb01", feb01), iceberg_job(catalog, "feb02", feb02))

    assert sorted(o["committed"] for o in outcomes) == [False, True]
    loser = next(o for o in outcomes if not o["committed"])
    assert loser["errorClass"] == "CommitFailedException"
    # Where the loser learns it lost is timing: pyiceberg's own check of the table's current snapshot (the
    # requirement), or the SQL catalog's conditional update that finds the row already moved on.
    assert re.search(LOST_COMMIT, loser["errorMessage"]), loser["errorMessage"]
    assert loser["commitRetries"] is None and not any(w.startswith(RETRY_LOG) for w in loser["warnings"])
    # pyiceberg deleted the data file of the commit that failed.
    assert loser["filesWritten"] == 0
    assert len(snapshots(catalog)) == 2


def test_an_iceberg_job_without_its_catalog_is_refused_before_it_opens_anything(tmp_path: Path) -> None:
    body = iceberg_job("", "feb01", rows_file(tmp_path, "2025-02-01", 5))
    del body["catalog"]
    writer = Writer(body)
    assert writer.wait() != 0
    assert "names its local SQLite catalog file" in writer.stderr
    writer.close()


@pytest.mark.parametrize("kind", ["update", "optimize"])
def test_the_iceberg_writer_runs_appends_only(tmp_path: Path, kind: str) -> None:
    body = iceberg_job(make_iceberg_table(tmp_path), "w", rows_file(tmp_path, "2025-02-01", 5))
    body["writer"]["operation"] = {"kind": kind, "predicate": "true", "set": {}}
    writer = Writer(body)
    assert writer.wait() != 0
    assert f"does not run a {kind}" in writer.stderr
    writer.close()
    assert pq.read_metadata(body["rowsFile"]).num_rows == 5
