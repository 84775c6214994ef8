"""
The lesson's E1 job as a team writes it, with deltalake: count the day's rows, and append the day's batch only when
there are none ("if no trips for the day yet, load them"). The check and the append are two steps with no
transaction around them, so two of these jobs at once both count none and both append: the day is there twice.

The lab runs it as a command writer (docs/real-libraries.md, "Race your own job"): it opens the table copy the lab
names in RACELAB_TABLE, counts before the barrier, waits for the lab's go through racelab_barrier, and tags its
commit with its writer name. Its arguments: the day (YYYY-MM-DD) and the Parquet file of that day's rows.
"""

from __future__ import annotations

import argparse
from datetime import date

import pyarrow.parquet as pq
from deltalake import DeltaTable, QueryBuilder, write_deltalake

import racelab_barrier


def rows_on(table: DeltaTable, day: date) -> int:
    """The table's rows picked up on `day`, on the snapshot `table` holds."""
    query = f"SELECT COUNT(*) AS n FROM trips WHERE CAST(tpep_pickup_datetime AS DATE) = DATE '{day.isoformat()}'"
    counted = QueryBuilder().register("trips", table).execute(query).read_all()
    return int(counted.column("n")[0].as_py())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1] if __doc__ else None)
    parser.add_argument("--day", type=date.fromisoformat, required=True, help="the day to load, YYYY-MM-DD")
    parser.add_argument("--rows", required=True, help="the Parquet file of the day's rows")
    args = parser.parse_args()

    table = DeltaTable(racelab_barrier.table_location())
    read_version = table.version()
    already = rows_on(table, args.day)
    # Everything before the write is done: the lab releases every job at once.
    racelab_barrier.wait()
    if already == 0:
        batch = pq.read_table(args.rows)
        write_deltalake(table, batch, mode="append", commit_properties=racelab_barrier.commit_properties())
    racelab_barrier.done({"readVersion": read_version, "observed": {args.day.isoformat(): already}})


if __name__ == "__main__":
    main()
