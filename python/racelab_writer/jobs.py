"""
The lab's writer job as the Node side sends it (packages/lab/src/runner/messages.ts WriterJob, and the
WriterSpec/WriterOperation of packages/lab/src/cases/catalog.ts), typed, and checked on arrival: a job the
real writer cannot run (engine-only hooks, a barrier across hosts, a format other than Delta or Iceberg, an
Iceberg change other than an append, an Iceberg job without its catalog) is refused.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, cast


class RowsFromFile(TypedDict):
    file: str


class RowsFromSample(TypedDict):
    sample: int


RowsFrom = RowsFromFile | RowsFromSample

# `from` is a Python keyword: these operations are spelled in TypedDict's call form. The writer reads new rows
# from the job's rowsFile, which the lab resolves from `day` or `from`.
AppendOp = TypedDict(
    "AppendOp",
    {"kind": Literal["append"], "day": NotRequired[str], "from": NotRequired[RowsFrom], "blind": NotRequired[bool]},
)


class UpdateOp(TypedDict):
    kind: Literal["update"]
    predicate: str
    set: dict[str, str]


class DeleteOp(TypedDict):
    kind: Literal["delete"]
    predicate: str


class OptimizeOp(TypedDict):
    kind: Literal["optimize"]


CheckThenAppendOp = TypedDict(
    "CheckThenAppendOp",
    {
        "kind": Literal["check-then-append"],
        "day": NotRequired[str],
        "predicate": NotRequired[str],
        "from": NotRequired[RowsFrom],
    },
)


class OverwriteDayOp(TypedDict):
    kind: Literal["overwrite-day"]
    day: str


OverwriteOp = TypedDict("OverwriteOp", {"kind": Literal["overwrite"], "predicate": str, "from": RowsFrom})


WriterOperation = AppendOp | UpdateOp | DeleteOp | OptimizeOp | CheckThenAppendOp | OverwriteDayOp | OverwriteOp


class Txn(TypedDict):
    appId: str
    version: int


class WriterSpec(TypedDict):
    name: str
    operation: WriterOperation
    maxCommitRetries: NotRequired[int]
    retryLoop: NotRequired[int]
    startAfter: NotRequired[str]
    retryOn: NotRequired[Literal["commit-failed", "any-error"]]
    txn: NotRequired[Txn]


class WriterJob(TypedDict):
    kind: Literal["race"]
    format: Literal["delta", "iceberg"]
    # A Delta job's table is its folder; an Iceberg job's is its identifier in the SQLite catalog file `catalog`.
    table: str
    catalog: NotRequired[str]
    writer: WriterSpec
    rowsFile: NotRequired[str]


class JobError(ValueError):
    """A job the real writer refuses, with the reason."""


# Which string fields each operation needs: what the writer reads of it.
_NEEDS: dict[str, tuple[str, ...]] = {
    "append": (),
    "update": ("predicate",),
    "delete": ("predicate",),
    "optimize": (),
    "check-then-append": (),
    "overwrite-day": ("day",),
    "overwrite": ("predicate",),
}
_ENGINE_ONLY = ("lostAnswer", "recogniseOwnCommit")


def parse_job(raw: dict[str, Any]) -> WriterJob:
    if raw.get("format") not in ("delta", "iceberg"):
        raise JobError(f"the real writer runs Delta and Iceberg tables, not {raw.get('format')!r}")
    if "barrier" in raw:
        raise JobError("the real writer runs on the lab's host only: a barrier across hosts is not supported")
    table = raw.get("table")
    if raw["format"] == "iceberg":
        catalog = raw.get("catalog")
        if not isinstance(catalog, str) or "://" in catalog:
            raise JobError(f"an Iceberg job names its local SQLite catalog file, not {catalog!r}")
        if not isinstance(table, str):
            raise JobError(f"an Iceberg job names its table's identifier, not {table!r}")
    elif not isinstance(table, str) or ("://" in table and not table.startswith("file://")):
        raise JobError(f"the real writer races a local table folder, not {table!r}")
    writer = raw.get("writer")
    if not isinstance(writer, dict) or not isinstance(writer.get("name"), str):
        raise JobError("the job has no writer name")
    for hook in _ENGINE_ONLY:
        if writer.get(hook):
            raise JobError(f"{hook} is an engine-only hook: the real writer cannot run it")
    op = writer.get("operation")
    if not isinstance(op, dict) or op.get("kind") not in _NEEDS:
        raise JobError(f"unknown operation {op!r}")
    if raw["format"] == "iceberg" and op["kind"] != "append":
        raise JobError(f"the real pyiceberg writer appends, it does not run a {op['kind']}")
    for field in _NEEDS[op["kind"]]:
        if not isinstance(op.get(field), str):
            raise JobError(f"a {op['kind']} needs a {field}")
    if op["kind"] == "update" and not isinstance(op.get("set"), dict):
        raise JobError("an update needs a set")
    if op["kind"] == "check-then-append" and not isinstance(op.get("day", op.get("predicate")), str):
        raise JobError("a check-then-append needs a day or a predicate")
    return cast(WriterJob, raw)
