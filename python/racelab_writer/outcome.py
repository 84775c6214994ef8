"""
A writer's outcome as the lab reads it (WriterOutcome of packages/lab/src/runner/messages.ts), with the
real run's own fields: the library (by the engine's names for them), its version, and `run: "real"`.
"""

from __future__ import annotations

import resource
from typing import Literal, NotRequired, TypedDict

import deltalake

Library = Literal["delta-rs", "delta-spark", "pyiceberg"]


class AttemptError(TypedDict):
    attempt: int
    errorClass: str
    errorMessage: str
    readVersion: int | None


class WriterOutcome(TypedDict):
    committed: bool
    version: int | None
    readVersion: int | None
    attempts: int
    commitRetries: int | None
    attemptErrors: list[AttemptError]
    errorClass: str | None
    errorMessage: str | None
    warnings: list[str]
    filesWritten: int
    bytesWritten: int
    filesRemoved: NotRequired[int]
    filesAdded: NotRequired[int]
    observed: NotRequired[dict[str, int]]
    peakRssMb: NotRequired[float]
    library: Library
    libraryVersion: str
    run: Literal["real"]


def empty_outcome(
    observed: dict[str, int],
    library: Library = "delta-rs",
    version: str = deltalake.__version__,
) -> WriterOutcome:
    outcome: WriterOutcome = {
        "committed": False,
        "version": None,
        "readVersion": None,
        "attempts": 0,
        "commitRetries": None,
        "attemptErrors": [],
        "errorClass": None,
        "errorMessage": None,
        "warnings": [],
        "filesWritten": 0,
        "bytesWritten": 0,
        "library": library,
        "libraryVersion": version,
        "run": "real",
    }
    if observed:
        outcome["observed"] = observed
    return outcome


def peak_rss_mb() -> float:
    """This process's peak resident memory (Linux reports ru_maxrss in KiB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
