/**
 * The Spark host for a lab invocation: one Python process (`python -m racelab_writer.spark_host`) holding one
 * SparkSession, whose threads are the Delta Spark writers (concurrent Delta Spark writers must share one JVM: Delta's
 * local log store excludes them only inside one). Started when the first delta-spark race asks for a writer, reused
 * by every later race and run, started again after a race stopped it (a timeout or a cancel stops the whole host),
 * and shut down at the end of the invocation. The jars are the pinned ones `npm run setup:python` put beside the
 * Python environment; the session reaches no network.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../build/repo-root';
import { type HostReady, WriterHost } from '../runner/host-transport';
import type { WriterHosting } from '../runner/race';
import type { WriterCommand, WriterTransport } from '../runner/transport';
import { type PythonEnv, sparkJarsDir } from './python-env';

/** How long a JVM may take to start and build its session before the host is given up (2 shared cores: ~10-30 s). */
export const SPARK_HOST_READY_MS = 180_000;

/** How long the host may take to stop its session once told to, before it is stopped by process group. */
const SHUTDOWN_GRACE_MS = 10_000;

/** The pinned jars' paths, empty when there are none. */
export function sparkJars(env: Pick<PythonEnv, 'dir'>): string[] {
  const dir = sparkJarsDir(env.dir);
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.jar'))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}

export function sparkHostCommand(env: PythonEnv, repo = REPO_ROOT): WriterCommand {
  return {
    command: env.python,
    args: ['-m', 'racelab_writer.spark_host'],
    cwd: repo,
    env: {
      ...process.env,
      PYTHONPATH: join(repo, 'python'),
      PYTHONUNBUFFERED: '1',
      SPARK_LOCAL_IP: '127.0.0.1',
      RACELAB_SPARK_JARS: sparkJars(env).join(':'),
    },
  };
}

/** What the session measured of its hosts: how long each took to be ready, and the versions the last one said. */
export interface HostStarts {
  startsMs: number[];
  versions: Record<string, string> | null;
}

/** The invocation's host, started on first use. */
export class SparkHosting implements WriterHosting {
  private host: WriterHost | null = null;
  readonly starts: HostStarts = { startsMs: [], versions: null };

  constructor(
    private readonly command: WriterCommand,
    private readonly readyTimeoutMs = SPARK_HOST_READY_MS,
  ) {}

  writer(name: string): WriterTransport {
    if (!this.host?.running()) {
      const started = Date.now();
      const host = new WriterHost(this.command, 'the Spark host', this.readyTimeoutMs);
      host.ready.then(
        (r: HostReady) => {
          this.starts.startsMs.push(Date.now() - started);
          const { type: _, ...versions } = r;
          this.starts.versions = versions;
        },
        () => {},
      );
      this.host = host;
    }
    return this.host.writer(name);
  }

  /** Shuts the host down (stopped by process group if it does not exit in time). */
  async close(): Promise<void> {
    const host = this.host;
    this.host = null;
    await host?.shutdown(SHUTDOWN_GRACE_MS);
  }
}
