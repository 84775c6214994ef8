/**
 * Writers run compiled JavaScript: the race forks a bundle of writer-process.ts with plain `node`
 * (no `--import tsx`), the bundle is rebuilt when any source it was built from changes, and a pool of
 * processes started ahead of a race serves each of its jobs once, never under an environment other than the
 * one it was started in.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeltaTable, type StructType, withConnection, writeDeltaTable } from '@racelab/engine';
import { describe, expect, it } from 'vitest';
import { compiledEntry } from '../src/build/compiled-entry';
import { race } from '../src/runner/race';
import { startWriterProcess, WRITER_SOURCE, WriterPool, writerEntry } from '../src/runner/writer-pool';
import { tempDir } from './helpers/small-base';

const work = tempDir('compiled-writers');

/** What a started process says about itself, asked over its IPC channel by a tiny compiled entry. */
async function selfReport(entry: string): Promise<{ execArgv: string[]; argv1: string }> {
  const { child } = startWriterProcess(entry);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as { execArgv: string[]; argv1: string }));
    child.once('exit', (code) => reject(new Error(`exited ${code} without a report`)));
  });
}

describe('compiled writer entries', () => {
  it('the writer bundle is JavaScript run by plain node: no tsx, no loader flags', async () => {
    const entry = await writerEntry();
    expect(entry).toMatch(/var\/build\/writer-process-[0-9a-f]{12}\.mjs$/);
    // The same function forks the writer: a probe entry started by it reports node's own view of its flags.
    const probe = join(work, 'probe.ts');
    writeFileSync(
      probe,
      'process.send?.({ execArgv: process.execArgv, argv1: process.argv[1] }, () => process.exit(0));\n',
    );
    const report = await selfReport(await compiledEntry(probe, join(work, 'build')));
    expect(report.execArgv).toEqual([]);
    expect(report.argv1).toMatch(/\.mjs$/);
    expect(readFileSync(entry, 'utf8')).not.toMatch(/from ['"]tsx/);
  });

  it('is rebuilt when a source it imports changes, and reused while none does', async () => {
    const dir = join(work, 'rebuild');
    const build = join(dir, 'build');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'word.ts'), "export const word: string = 'first';\n");
    writeFileSync(join(dir, 'entry.ts'), "import { word } from './word';\nconsole.log(word);\n");
    const first = await compiledEntry(join(dir, 'entry.ts'), build);
    expect(readFileSync(first, 'utf8')).toContain('"first"');
    expect(await compiledEntry(join(dir, 'entry.ts'), build)).toBe(first);
    // The imported module, not the entry, changes: the bundle must follow it, in this same process.
    writeFileSync(join(dir, 'word.ts'), "export const word: string = 'second';\n");
    const second = await compiledEntry(join(dir, 'entry.ts'), build);
    expect(second).not.toBe(first);
    expect(readFileSync(second, 'utf8')).toContain('"second"');
    expect(await compiledEntry(join(dir, 'entry.ts'), build)).toBe(second);
    // A bundle removed from the build folder is built again rather than handed out.
    rmSync(second);
    expect(existsSync(await compiledEntry(join(dir, 'entry.ts'), build))).toBe(true);
  });

  it('a race runs its writers from a pool of processes started before it, and leaves the refill to its caller', async () => {
    const table = join(work, 'pooled');
    const schema: StructType = {
      type: 'struct',
      fields: [{ name: 'id', type: 'long', nullable: false, metadata: {} }],
    };
    await writeDeltaTable(table, { kind: 'rows', schema, rows: [{ id: 1 }] });
    const pool = await WriterPool.open(2);
    try {
      const before = new Set(pool.pids());
      expect(before.size).toBe(2);
      // The processes the race will use, as the OS sees them: node running the bundle, nothing else.
      for (const pid of before) {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
        expect(cmdline.slice(1)).toEqual([await writerEntry()]);
      }
      const rows = join(work, 'rows.parquet');
      await withConnection((c) => c.run(`COPY (SELECT 2::BIGINT AS id) TO '${rows}' (FORMAT parquet)`));
      const writers = await race(
        ['a', 'b'].map((name) => ({
          kind: 'race' as const,
          format: 'delta' as const,
          table,
          writer: { name, operation: { kind: 'append' as const, from: { file: rows } } },
          rowsFile: rows,
        })),
        Date.now(),
        { pool },
      );
      expect(writers.map((w) => w.committed)).toEqual([true, true]);
      expect((await DeltaTable.open(table)).version).toBe(2);
      // Both jobs went to the waiting processes; refilled by the caller (after its table check), two new ones wait.
      expect(pool.waiting).toBe(0);
      pool.fill();
      const after = pool.pids();
      expect(after).toHaveLength(2);
      for (const pid of after) expect(before.has(pid)).toBe(false);
    } finally {
      await pool.close();
    }
    expect(pool.waiting).toBe(0);
  });

  it('a waiting process started under another environment is not given a job', async () => {
    const pool = await WriterPool.open(1);
    try {
      const [started] = pool.pids();
      process.env.RACELAB_POOL_TEST = 'changed';
      const taken = pool.take();
      expect(taken.child.pid).not.toBe(started);
      taken.child.kill('SIGKILL');
    } finally {
      delete process.env.RACELAB_POOL_TEST;
      await pool.close();
    }
  });

  it('writer-process.ts is the source the bundle is named from', () => {
    expect(WRITER_SOURCE).toMatch(/packages\/lab\/src\/processes\/writer-process\.ts$/);
  });
});
