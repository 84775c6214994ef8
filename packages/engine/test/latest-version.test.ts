/**
 * The latest version found by probing (a stat of each version after a known one, ops/delta/log/latest.ts) against a
 * listing of `_delta_log`, while writer processes commit to the table. Two ways to see "the same instant":
 * - by construction: versions only ever grow, so a probe taken between two listings must lie between their
 *   answers, whatever the writers did meanwhile;
 * - by a pause: every writer is stopped (SIGSTOP, confirmed by the kernel's process state), so the log cannot
 *   move while the probe and the listing look at it; they must then agree exactly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildCommitInfo, commit, field, LocalObjectStore, newTableMetadata, protocolForSchema } from '../src/index';
import { latestVersion, listedLatestVersion, PROBE_LIMIT } from '../src/ops/delta/log/latest';
import { tempDir } from './helpers/tmp';

const COMMITTER = fileURLToPath(new URL('./helpers/log-committer.ts', import.meta.url));
const WRITERS = 4;
const EACH = 150;
const root = tempDir('latest');

async function newTable(dir: string): Promise<LocalObjectStore> {
  const store = new LocalObjectStore(dir);
  const schema = { type: 'struct' as const, fields: [field('id', 'long')] };
  await commit({
    store,
    readVersion: -1,
    actions: [
      { commitInfo: buildCommitInfo({ operation: 'CREATE TABLE', operationParameters: {} }) },
      { protocol: protocolForSchema(schema) },
      { metaData: newTableMetadata(schema) },
    ],
  });
  return store;
}

interface Committer {
  child: ChildProcess;
  ready: Promise<void>;
  done: Promise<number | null>;
}

function startCommitter(dir: string, writer: number): Committer {
  const child = spawn(process.execPath, ['--import', 'tsx', COMMITTER, dir, `w${writer}`, String(EACH)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const ready = new Promise<void>((r) => lines.on('line', (l) => l === 'ready' && r()));
  const done = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return { child, ready, done };
}

/** The kernel's state letter for a process ('T' once a SIGSTOP has stopped every thread), or null once gone. */
function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

/** Waits, a turn of the event loop at a time, until `pid` is stopped or gone (it may have finished first). */
async function stopped(pid: number): Promise<void> {
  for (;;) {
    const state = processState(pid);
    if (state === null || state === 'T' || state === 'Z') return;
    await new Promise((r) => setImmediate(r));
  }
}

describe('probing for the latest version', () => {
  it('answers what a listing answers at the same instant while writer processes commit', async () => {
    const dir = join(root, 'table');
    const store = await newTable(dir);
    const committers = Array.from({ length: WRITERS }, (_, w) => startCommitter(dir, w));
    await Promise.all(committers.map((c) => c.ready));
    let running = committers.length;
    const finished = Promise.all(
      committers.map(async (c) => {
        const code = await c.done;
        running--;
        return code;
      }),
    );
    for (const c of committers) c.child.stdin?.end('go\n');

    let sandwiched = 0;
    let paused = 0;
    let moved = 0;
    let listed = 0;
    for (let round = 0; running > 0; round++) {
      // From how far behind the probe starts: just behind, a few versions behind, and beyond what it probes
      // (it then lists); -1, a table not read yet, always lists.
      const before = await listedLatestVersion(store, -1);
      const behind = [0, 3, PROBE_LIMIT + 5, before + 1][round % 4] as number;
      const known = before - behind;
      if (round % 5 === 4) {
        // Paused: no writer can move the log between the probe and the listing.
        const live = committers.filter((c) => c.child.exitCode === null && c.child.pid !== undefined);
        for (const c of live) c.child.kill('SIGSTOP');
        await Promise.all(live.map((c) => stopped(c.child.pid as number)));
        const probed = await latestVersion(store, known);
        const listing = await listedLatestVersion(store, -1);
        for (const c of live) c.child.kill('SIGCONT');
        expect(probed).toBe(listing);
        paused++;
        continue;
      }
      const probed = await latestVersion(store, known);
      const after = await listedLatestVersion(store, -1);
      expect(probed).toBeGreaterThanOrEqual(before);
      expect(probed).toBeLessThanOrEqual(after);
      sandwiched++;
      if (probed > before) moved++;
      if (behind > PROBE_LIMIT) listed++;
    }
    expect(await finished).toEqual(committers.map(() => 0));
    // Every commit landed once, one version each: the log the probe relies on is contiguous.
    expect(await latestVersion(store, 0)).toBe(WRITERS * EACH);
    expect(await listedLatestVersion(store, -1)).toBe(WRITERS * EACH);
    // The comparisons happened, in both ways, and some while the log moved under the probe.
    expect(paused).toBeGreaterThan(0);
    expect(sandwiched).toBeGreaterThan(0);
    expect(moved).toBeGreaterThan(0);
    expect(listed).toBeGreaterThan(0);
  }, 120_000);

  it('stops at the first missing version, and lists when the version it starts from is gone', async () => {
    const store = await newTable(join(root, 'small'));
    const bytes = new TextEncoder().encode('{}');
    for (let v = 1; v <= 3; v++) await store.putIfAbsent(`_delta_log/${String(v).padStart(20, '0')}.json`, bytes);
    expect(await latestVersion(store, 0)).toBe(3);
    expect(await latestVersion(store, 3)).toBe(3);
    // A version after the log's end: its entry is not there to start from, so the log is listed.
    expect(await latestVersion(store, 7)).toBe(7);
    expect(await latestVersion(store, -1)).toBe(3);
  });
});
