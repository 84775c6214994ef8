"""
The helper a writer process uses to race: its writer name and table copy from the environment
(`RACELAB_WRITER`, `RACELAB_TABLE`), the barrier over the lab's fd-3 protocol (`wait()` says ready and
blocks until the lab's go), commit properties tagged with the writer's name, `committed()` once its commit is in
(writers that start after it are released then), and `done()` with the outcome.
"""

from racelab_barrier.barrier import (
    Barrier,
    BarrierClosed,
    commit_properties,
    committed,
    done,
    table_location,
    tag,
    wait,
    writer_name,
)
from racelab_barrier.wire import Channel

__all__ = [
    "Barrier",
    "BarrierClosed",
    "Channel",
    "commit_properties",
    "committed",
    "done",
    "table_location",
    "tag",
    "wait",
    "writer_name",
]
