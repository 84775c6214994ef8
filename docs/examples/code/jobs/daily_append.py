"""Appends the day's events with delta-rs.

The table's isolation level is set when the table is first written; a comment such as
configuration={"delta.isolationLevel": "Serializable"} is not a setting.
"""
from deltalake import CommitProperties, write_deltalake

EVENTS = "s3://lake/events"
LEVEL = "WriteSerializable"


def append(batch):
    write_deltalake(
        EVENTS,
        batch,
        mode="append",
        configuration={"delta.isolationLevel": LEVEL},
        commit_properties=CommitProperties(max_commit_retries=0),
    )
