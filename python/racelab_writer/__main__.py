"""
The lab's real writer: `PYTHONPATH=python <venv>/bin/python -m racelab_writer`, started by the lab with its
socket on fd 3. Reads the job and runs it with the library of its format: delta-rs for a Delta table, pyiceberg
for an Iceberg one. Opens the table (pinning the snapshot it reads), makes a check-then-append's count, says
ready, waits for go, makes its change and sends its outcome. An exception that escapes is a crash: its traceback
on stderr and a non-zero exit status, which the lab makes the writer's failed outcome.
"""

from __future__ import annotations

from deltalake import DeltaTable

from racelab_barrier.barrier import Barrier, now_ms
from racelab_barrier.wire import Channel
from racelab_writer.change import check_of, count_matching, run_change
from racelab_writer.iceberg import append, open_table
from racelab_writer.jobs import WriterJob, parse_job
from racelab_writer.log_capture import WarningLog, capture_library_warnings
from racelab_writer.outcome import WriterOutcome, peak_rss_mb


def run_delta(job: WriterJob, barrier: Barrier, opened_at: int) -> WriterOutcome:
    table = DeltaTable(job["table"])
    observed: dict[str, int] = {}
    check = check_of(job["writer"]["operation"])
    # The job's check reads the table as it opened it, before the barrier, as the lesson's job did.
    if check:
        observed[check[0]] = count_matching(table, check[1])
    barrier.wait(opened_at)
    return run_change(table, job, observed, barrier.committed)


def run_iceberg(job: WriterJob, barrier: Barrier, opened_at: int, library_warnings: WarningLog) -> WriterOutcome:
    table = open_table(job)
    barrier.wait(opened_at)
    return append(table, job, library_warnings.messages, barrier.committed)


def main() -> None:
    library_warnings = capture_library_warnings()
    barrier = Barrier(Channel())
    job = parse_job(barrier.receive_job())
    opened_at = now_ms()
    if job["format"] == "iceberg":
        outcome = run_iceberg(job, barrier, opened_at, library_warnings)
    else:
        outcome = run_delta(job, barrier, opened_at)
    outcome["warnings"].extend(library_warnings.messages)
    outcome["peakRssMb"] = peak_rss_mb()
    barrier.done(outcome)


if __name__ == "__main__":
    main()
