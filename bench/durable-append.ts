/**
 * The bare durable append, the file system's limit for a local commit with the engine's fsyncs: a small data file
 * written and fsynced, a commit file written and fsynced, link()ed to the next free version (+1 on EEXIST), the
 * log folder fsynced. Writer `w` appends `n` times to `dir`; each phase's milliseconds are summed, so that a bench
 * can set an engine append's phases beside these.
 */
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface DurableAppendPhases {
  attempts: number;
  dataFileMs: number;
  commitFileMs: number;
  claimMs: number;
  lostClaimMs: number;
  folderFsyncMs: number;
}

function writeDurably(path: string, body: string): void {
  const fd = openSync(path, 'wx');
  try {
    writeSync(fd, body);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function durableAppends(dir: string, w: number, n: number): DurableAppendPhases {
  const log = join(dir, '_delta_log');
  mkdirSync(log, { recursive: true });
  const p: DurableAppendPhases = {
    attempts: 0,
    dataFileMs: 0,
    commitFileMs: 0,
    claimMs: 0,
    lostClaimMs: 0,
    folderFsyncMs: 0,
  };
  let next = 1;
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    const lap = () => {
      const now = performance.now();
      const ms = now - t;
      t = now;
      return ms;
    };
    writeDurably(join(dir, `part-${w}-${i}.parquet`), `PAR1 writer ${w} seq ${i} PAR1`);
    p.dataFileMs += lap();
    const staging = join(log, `.tmp-${w}-${i}.json`);
    writeDurably(staging, `{"add":{"path":"part-${w}-${i}.parquet"}}\n`);
    p.commitFileMs += lap();
    for (;;) {
      p.attempts++;
      try {
        linkSync(staging, join(log, `${String(next).padStart(20, '0')}.json`));
        p.claimMs += lap();
        break;
      } catch {
        next++;
        p.lostClaimMs += lap();
      }
    }
    unlinkSync(staging);
    next++;
    const fd = openSync(log, 'r');
    fsyncSync(fd);
    closeSync(fd);
    p.folderFsyncMs += lap();
  }
  return p;
}
