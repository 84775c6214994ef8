"""
The lab's real delta-rs writer: `PYTHONPATH=python <venv>/bin/python -m racelab_writer`, started by the lab
with its socket on fd 3. Reads the job, opens the table (pinning the snapshot it reads), makes a
check-then-append's count, says ready, waits for go, makes its change and sends its outcome. An exception
that escapes is a crash: its traceback on stderr and a non-zero exit status, which the lab makes the writer's
failed outcome.
"""

from __future__ import annotations

from deltalake import DeltaTable

from racelab_barrier.barrier import Barrier, now_ms
from racelab_barrier.wire import Channel
from racelab_writer.change import check_of, count_matching, run_change
from racelab_writer.jobs import parse_job
from racelab_writer.log_capture import capture_library_warnings
from racelab_writer.outcome import peak_rss_mb


def main() -> None:
    library_warnings = capture_library_warnings()
    barrier = Barrier(Channel())
    job = parse_job(barrier.receive_job())
    opened_at = now_ms()
    table = DeltaTable(job["table"])
    observed: dict[str, int] = {}
    check = check_of(job["writer"]["operation"])
    # The job's check reads the table as it opened it, before the barrier, as the lesson's job did.
    if check:
        observed[check[0]] = count_matching(table, check[1])
    barrier.wait(opened_at)
    outcome = run_change(table, job, observed, barrier.committed)
    outcome["warnings"].extend(library_warnings.messages)
    outcome["peakRssMb"] = peak_rss_mb()
    barrier.done(outcome)


if __name__ == "__main__":
    main()
