"""Warnings kept by thread: the Spark host gives each writer the records of its own thread since its job began."""

from __future__ import annotations

import logging
import threading

from racelab_writer.log_capture import WarningLog


def test_a_writer_thread_gets_its_own_warnings_since_its_job_began() -> None:
    kept = WarningLog()
    logger = logging.getLogger("racelab-test-log-capture")
    logger.addHandler(kept)
    try:

        def warn(text: str) -> None:
            logger.warning(text)

        for name, text in (("w1", "earlier race"), ("w2", "other writer")):
            thread = threading.Thread(target=warn, args=(text,), name=name)
            thread.start()
            thread.join()
        since = len(kept.messages)
        thread = threading.Thread(target=warn, args=("this race",), name="w1")
        thread.start()
        thread.join()
        logger.info("below WARNING: not kept")
        assert kept.of_thread("w1") == ["earlier race", "this race"]
        assert kept.of_thread("w1", since) == ["this race"]
        assert kept.of_thread("w2", since) == []
    finally:
        logger.removeHandler(kept)
