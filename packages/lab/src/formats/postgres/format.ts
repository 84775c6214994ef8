/**
 * Postgres, the lesson's other contrast (P1–P3): two transactions updating the lab database's trips table on a
 * real server (LAB_POSTGRES_URL, else DATABASE_URL, else an embedded one), judged by serial replay on a copy.
 */
import { join } from 'node:path';
import { type PostgresServer, startPostgresServer } from '@racelab/pg-server';
import type { PostgresCase } from '../../cases/catalog';
import type { Dataset } from '../../data/index';
import type { RunResult } from '../../results/types';
import type { RunContext } from '../../runner/run-context';
import { runDir } from '../../runner/run-context';
import type { TableFormat } from '../../runner/table-format';
import { LAB_DATABASE } from './connect';
import { preparePostgresLab } from './prepare';
import { runPostgresCase } from './run';

async function startPostgres(workDir: string, dataset: Dataset, progress: (message: string) => void) {
  progress('Postgres');
  // LAB_POSTGRES_URL: the lab database's own role, as `npm start` gives its workers; else a user's
  // DATABASE_URL server, used as it is; else our embedded server, the lab database owned by its own role.
  const given = process.env.LAB_POSTGRES_URL || process.env.DATABASE_URL;
  const server = given ? null : await startPostgresServer({ dataDir: join(workDir, 'postgres') });
  try {
    const url = given || (await (server as PostgresServer).ownerUrl(LAB_DATABASE));
    progress('loading January into Postgres');
    const info = await preparePostgresLab(url, dataset.january);
    return { url, version: info.serverVersion, stop: async () => server?.stop() };
  } catch (e) {
    await server?.stop();
    throw e;
  }
}

async function postgresRun(index: number, serverUrl: string, c: PostgresCase, ctx: RunContext): Promise<RunResult> {
  const r = await runPostgresCase(
    serverUrl,
    { isolation: c.isolation, vendorA: c.vendorA, vendorB: c.vendorB },
    { ...(ctx.memo && { memo: ctx.memo }) },
  );
  return {
    index,
    writers: r.writers,
    table: r.table,
    verdict: r.verdict,
    commitOrder: r.commitOrder,
    durationMs: r.durationMs,
  };
}

const WRITERS = ['A', 'B'];

export const postgresFormat: TableFormat<PostgresCase> = {
  id: 'postgres',

  async setup(_cases, lab) {
    const pg = await startPostgres(lab.workDir, await lab.dataset.get(), lab.progress);
    const at = { dataset: lab.dataset, workDir: lab.workDir };
    return {
      versions: { postgres: pg.version },
      forCase: async (c) => ({
        replayDir: (n) => runDir(at, `${c.id}-replay-${n}`, 0),
        run: (index, ctx) => postgresRun(index, pg.url, c, ctx),
        dispose: async () => {},
      }),
      close: pg.stop,
    };
  },
  // Its writers are transactions on connections of this process.
  localWriters: () => 0,

  numbersCommits: false,

  describeCase: (c) =>
    `Postgres (${c.isolation}): transaction A updates VendorID ${c.vendorA} and holds its locks; B updates VendorID ${c.vendorB}.`,
  writerNames: () => [...WRITERS],
  tableProperties: () => ({}),
  takesTableProperties: false,
  takesTableRoot: false,
  ownTable: () => null,
};
