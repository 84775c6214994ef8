"""
scripts/setup-python.mjs on a throwaway copy of the repository's python folder, with a local Maven repository:
a jar whose sha256 is not the lock's is refused and nothing is left marked ready, and a run that finds another
run's lock waits for it and then reuses what it built.
"""

from __future__ import annotations

import hashlib
import http.server
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
JAR = b"not really a jar, but bytes with a hash\n"


@dataclass
class Clone:
    root: Path
    env: dict[str, str]

    def env_dir(self) -> Path:
        digest = hashlib.sha256()
        for name in ("requirements.lock", "spark-jars.lock"):
            digest.update((self.root / "python" / name).read_bytes())
        return Path(self.env["RACELAB_PYTHON_CACHE"]) / digest.hexdigest()[:16]

    def setup(self) -> subprocess.Popen[str]:
        return subprocess.Popen(
            ["node", str(self.root / "scripts" / "setup-python.mjs")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=self.env,
        )


@pytest.fixture
def maven(tmp_path: Path) -> Iterator[str]:
    """A Maven repository on loopback serving io.delta:fake:1.0 (JAR)."""
    folder = tmp_path / "maven"
    (folder / "io" / "delta" / "fake" / "1.0").mkdir(parents=True)
    (folder / "io" / "delta" / "fake" / "1.0" / "fake-1.0.jar").write_bytes(JAR)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(folder), **kwargs)  # type: ignore[arg-type]

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def clone(tmp_path: Path, maven: str, jar_hash: str) -> Clone:
    root = tmp_path / "repo"
    (root / "scripts").mkdir(parents=True)
    (root / "python").mkdir()
    shutil.copy(REPO / "scripts" / "setup-python.mjs", root / "scripts")
    (root / "python" / "requirements.lock").write_text("# nothing to install\n")
    (root / "python" / "spark-jars.lock").write_text(f"# one jar\nio.delta:fake:1.0 {jar_hash}\n")
    env = {**os.environ, "RACELAB_PYTHON_CACHE": str(tmp_path / "cache"), "RACELAB_MAVEN_REPO": maven}
    return Clone(root, env)


def test_a_jar_whose_hash_is_not_the_lock_s_is_refused_and_nothing_is_marked_ready(tmp_path: Path, maven: str) -> None:
    pinned = "0" * 64
    repo = clone(tmp_path, maven, pinned)
    run = repo.setup()
    out, err = run.communicate(timeout=60)
    assert run.returncode == 1, out + err
    actual = hashlib.sha256(JAR).hexdigest()
    assert f"io.delta:fake:1.0 from {maven}/io/delta/fake/1.0/fake-1.0.jar has sha256 {actual}" in err
    assert f"python/spark-jars.lock pins {pinned}: refused, nothing installed" in err
    where = repo.env_dir()
    left = sorted(p.name for p in where.parent.iterdir())
    assert left == [], f"a refused setup leaves nothing behind: {left}"


def test_a_second_run_waits_for_the_first_s_lock_and_reuses_what_it_built(tmp_path: Path, maven: str) -> None:
    repo = clone(tmp_path, maven, hashlib.sha256(JAR).hexdigest())
    where = repo.env_dir()
    lock = Path(f"{where}.lock")
    lock.mkdir(parents=True)
    # This test process holds the lock, as a first setup would while it builds.
    (lock / "pid").write_text(f"{os.getpid()}\n")
    second = repo.setup()
    assert second.stdout is not None
    assert "another setup:python is building" in second.stdout.readline()
    where.mkdir()
    (where / "ready").write_text("built\n")
    shutil.rmtree(lock)
    out, err = second.communicate(timeout=60)
    assert second.returncode == 0, out + err
    assert "built by the setup this one waited for" in out
    assert not lock.exists() and not Path(f"{where}.partial").exists()


def test_a_lock_whose_setup_is_gone_is_taken_over(tmp_path: Path, maven: str) -> None:
    repo = clone(tmp_path, maven, "1" * 64)
    where = repo.env_dir()
    lock = Path(f"{where}.lock")
    lock.mkdir(parents=True)
    finished = subprocess.Popen(["true"])
    finished.wait()
    (lock / "pid").write_text(f"{finished.pid}\n")
    run = repo.setup()
    out, err = run.communicate(timeout=60)
    assert f"taking over {lock}: its setup (pid {finished.pid}) is gone" in out
    # It went on to the build, which this clone's bad hash refuses; the lock is released either way.
    assert run.returncode == 1 and "refused, nothing installed" in err
    assert not lock.exists()
