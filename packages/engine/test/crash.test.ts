/**
 * A writer killed between writing its data files and claiming its version leaves the table
 * readable and unchanged; its files are orphans that vacuum removes.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { DeltaTable, vacuum } from '../src/index';
import { JAN_ROWS, lessonTable } from './helpers/lesson';
import { tempDir } from './helpers/tmp';

const parquet = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.parquet'))
    .sort();

it('leaves the table unchanged when the writer dies before its commit, and vacuum removes its files', async () => {
  const dir = await lessonTable(tempDir('crash'), 'table');
  const before = parquet(dir);
  const worker = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./helpers/killed-worker.ts', import.meta.url)), dir],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const said = await new Promise<string>((resolve) =>
    createInterface({ input: worker.stdout as NodeJS.ReadableStream }).once('line', resolve),
  );
  expect(said).toBe('prepared');
  const exited = new Promise((resolve) => worker.on('exit', (_code, signal) => resolve(signal)));
  worker.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');

  const orphans = parquet(dir).filter((f) => !before.includes(f));
  expect(orphans).toHaveLength(1);
  const t = await DeltaTable.open(dir);
  expect(t.version).toBe(0);
  expect(await t.count()).toBe(JAN_ROWS);
  expect(readdirSync(`${dir}/_delta_log`).filter((f) => /^\d{20}\.json$/.test(f))).toHaveLength(1);

  const v = await vacuum(t, { retentionHours: 0, enforceRetentionDuration: false, dryRun: false });
  expect(v.files).toEqual(orphans);
  expect(parquet(dir)).toEqual(before);
  expect(await (await DeltaTable.open(dir)).count()).toBe(JAN_ROWS);
});
