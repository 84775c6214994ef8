"""
What the library says through Python `logging` (WARNING and up) and `warnings.warn`: kept for the outcome's
`warnings` (by thread, for the Spark host's writer threads) and still printed on stderr, which the lab captures
as the writer's log.
"""

from __future__ import annotations

import logging


class WarningLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []
        self._threads: list[str | None] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage().strip())
        self._threads.append(record.threadName)

    def of_thread(self, name: str, since: int = 0) -> list[str]:
        """
        What was logged from the thread `name` (the Spark host runs each writer as a thread of its name), from
        the `since`-th message on (a writer's name comes back in the next race).
        """
        pairs = zip(self.messages[since:], self._threads[since:], strict=True)
        return [m for m, t in pairs if t == name]


def capture_library_warnings() -> WarningLog:
    """Routes `warnings.warn` into logging, logs WARNING and up to stderr and into the returned handler."""
    logging.captureWarnings(True)
    root = logging.getLogger()
    root.setLevel(logging.WARNING)
    stderr = logging.StreamHandler()
    stderr.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root.addHandler(stderr)
    kept = WarningLog()
    root.addHandler(kept)
    return kept
