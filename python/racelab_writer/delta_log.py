"""
Reading a local Delta table's log entries after a call: the commit a writer's name tags (its `version`, the
version it read, files added and removed, bytes written), the commit that carries an application transaction,
and the newest version.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def table_folder(table: str) -> Path:
    return Path(table.removeprefix("file://"))


def read_entry(table: str, version: int) -> list[dict[str, Any]] | None:
    """The actions of a log entry, or None when the version does not exist (yet)."""
    path = table_folder(table) / "_delta_log" / f"{version:020d}.json"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def latest_version(table: str) -> int:
    """The newest version whose log entry is there (-1 for no table); what a writer opening the table now reads."""
    names = (p.stem for p in (table_folder(table) / "_delta_log").glob("*.json"))
    return max((int(n) for n in names if n.isdigit()), default=-1)


@dataclass(frozen=True)
class TaggedCommit:
    version: int
    read_version: int | None
    files_added: int
    files_removed: int
    bytes_added: int


def tagged_commit(table: str, writer: str, after: int, field: str = "writer") -> TaggedCommit | None:
    """
    The first commit past `after` whose commitInfo names `writer` in `field` (delta-rs's custom metadata puts it
    in `writer`, Spark's userMetadata in `userMetadata`); None when the writer committed nothing.
    """
    version = after + 1
    while (actions := read_entry(table, version)) is not None:
        info: dict[str, Any] = next((a["commitInfo"] for a in actions if "commitInfo" in a), {})
        if info.get(field) == writer:
            adds = [a["add"] for a in actions if "add" in a]
            read = info.get("readVersion")
            return TaggedCommit(
                version=version,
                read_version=read if isinstance(read, int) else None,
                files_added=len(adds),
                files_removed=sum(1 for a in actions if "remove" in a),
                bytes_added=sum(int(a.get("size", 0)) for a in adds),
            )
        version += 1
    return None


def version_carrying(table: str, app_id: str, txn_version: int, newest: int, after: int) -> int | None:
    """The version (newest down to `after` + 1) whose commit carries txn(app_id, txn_version); None if none."""
    for version in range(newest, after, -1):
        for action in read_entry(table, version) or []:
            txn = action.get("txn")
            if txn and txn.get("appId") == app_id and txn.get("version") == txn_version:
                return version
    return None
