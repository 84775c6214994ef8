"""
A writer's change after the barrier, whatever library makes it: the application retry loop that reopens the
table and redoes the whole change (as the lab's engine writer does, packages/lab/src/formats/delta/writer.ts), an
application transaction that skips a batch already committed, and the outcome read from the writer's own tagged
commit in _delta_log. The library's side (delta-rs, Delta Spark) is a `WriterTable`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from racelab_writer.delta_log import TaggedCommit, latest_version, tagged_commit, version_carrying
from racelab_writer.jobs import Txn, WriterJob
from racelab_writer.outcome import AttemptError, WriterOutcome


class WriterTable(Protocol):
    """One writer's table in one library."""

    # The commitInfo field the library writes the writer's name into.
    tag_field: str

    def reopen(self) -> None:
        """Opens the table afresh for a redo of the change."""

    def read_version(self) -> int:
        """The version the next call reads."""

    def already_committed(self, txn: Txn) -> bool:
        """The table's last version for the txn's app is this batch's or later (False: the library checks it)."""

    def operation(self, observed: dict[str, int]) -> Callable[[], object] | None:
        """The library call that makes the writer's change; None when there is nothing to commit."""

    def conflict(self, e: Exception) -> bool:
        """`e` is the library's refusal of a commit that a concurrent one beat."""

    def describe(self, e: Exception) -> tuple[str, str]:
        """The error's class and message, as the outcome names them."""

    def commit_read_version(self, commit: TaggedCommit, read_version: int) -> int:
        """The version the committed change read (the library's own record of it, where it writes one)."""


def run_attempts(
    table: WriterTable,
    job: WriterJob,
    observed: dict[str, int],
    on_commit: Callable[[int], None],
    outcome: WriterOutcome,
) -> WriterOutcome:
    """The writer's change with its retry loop, filled into `outcome`."""
    writer = job["writer"]
    txn = writer.get("txn")
    tries = writer.get("retryLoop", 1)
    opened_version = table.read_version()
    for attempt in range(1, tries + 1):
        if attempt > 1:
            table.reopen()
        read_version = table.read_version()
        outcome["attempts"] = attempt
        outcome["readVersion"] = read_version
        try:
            if txn and table.already_committed(txn):
                _skipped(outcome, job, txn, read_version, opened_version)
                break
            call = table.operation(observed)
            if call is None:
                outcome["warnings"].append("nothing to commit")
                break
            call()
            commit = tagged_commit(job["table"], writer["name"], read_version, table.tag_field)
            if commit is None and txn:
                # The library skipped the batch itself: its txn was committed already.
                _skipped(outcome, job, txn, read_version, opened_version)
                break
            if commit is None:
                # No new version (an update or delete that matched no rows, nothing to compact).
                outcome["warnings"].append("nothing to commit")
                break
            on_commit(commit.version)
            read = table.commit_read_version(commit, read_version)
            outcome["committed"] = True
            outcome["version"] = commit.version
            outcome["readVersion"] = read
            outcome["commitRetries"] = commit.version - read - 1
            outcome["filesWritten"] = outcome["filesAdded"] = commit.files_added
            outcome["bytesWritten"] = commit.bytes_added
            outcome["filesRemoved"] = commit.files_removed
            break
        except Exception as e:
            error_class, message = table.describe(e)
            if (table.conflict(e) or writer.get("retryOn") == "any-error") and attempt < tries:
                error: AttemptError = {
                    "attempt": attempt,
                    "errorClass": error_class,
                    "errorMessage": message,
                    "readVersion": read_version,
                }
                outcome["attemptErrors"].append(error)
                continue
            outcome["errorClass"] = error_class
            outcome["errorMessage"] = message
            break
    return outcome


def _skipped(outcome: WriterOutcome, job: WriterJob, txn: Txn, read_version: int, opened_version: int) -> None:
    newest = max(read_version, latest_version(job["table"]))
    version = version_carrying(job["table"], txn["appId"], txn["version"], newest, opened_version)
    outcome["warnings"].append(
        f"batch already committed: the table's txn for app {txn['appId']} is at version {txn['version']} "
        "or later; skipped"
    )
    outcome["committed"] = version is not None
    outcome["version"] = version
