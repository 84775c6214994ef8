/**
 * A write's columns are matched to an existing table's as the real deltalake 1.6.6 matches them: the same data,
 * appended and overwritten on two copies of one table, by deltalake and by the engine, gives the same outcome, the
 * same exception class and the same message. A name that differs from the table's only by case is refused (`Field
 * vendorid not found in schema`), a wrong number of columns too; the table's names in another order are accepted.
 * This needs the Python side (`npm run setup:python`).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeltaTable, type StructType, writeDeltaTable } from '@racelab/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonEnv } from '../src/real/python-env';

const work = mkdtempSync(join(tmpdir(), 'racelab-append-columns-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let python = '';
beforeAll(async () => {
  python = (await pythonEnv('delta-rs')).python;
});

interface Outcome {
  committed: boolean;
  errorClass?: string;
  message?: string;
}

/** deltalake's write of one row with these int64 columns; the outcome as JSON. */
const WRITE = `
import json, sys
import pyarrow as pa
from deltalake import write_deltalake
table, mode = sys.argv[1], sys.argv[2]
columns = json.loads(sys.argv[3])
try:
    write_deltalake(table, pa.table({c: pa.array([7], pa.int64()) for c in columns}), mode=mode)
    print(json.dumps({"committed": True}))
except Exception as e:
    print(json.dumps({"committed": False, "errorClass": type(e).__name__, "message": str(e)}))
`;

function byDeltalake(table: string, mode: string, columns: string[]): Outcome {
  const { PYTHONPATH: _, ...env } = process.env;
  const r = spawnSync(python, ['-c', WRITE, table, mode, JSON.stringify(columns)], {
    encoding: 'utf8',
    env,
    timeout: 120_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Outcome;
}

async function byEngine(table: string, mode: 'append' | 'overwrite', columns: string[]): Promise<Outcome> {
  const schema: StructType = {
    type: 'struct',
    fields: columns.map((name) => ({ name, type: 'long', nullable: true, metadata: {} })),
  };
  const row = Object.fromEntries(columns.map((c) => [c, 7]));
  try {
    await writeDeltaTable(table, { kind: 'rows', schema, rows: [row] }, { mode });
    return { committed: true };
  } catch (e) {
    return { committed: false, errorClass: (e as Error).name, message: (e as Error).message };
  }
}

const TABLE: StructType = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: true, metadata: {} },
    { name: 'VendorID', type: 'long', nullable: true, metadata: {} },
  ],
};
let tables = 0;
/** Two copies of one table (id, VendorID): one for each side. */
async function twoCopies(): Promise<[string, string]> {
  const engine = join(work, `t${tables++}`);
  await writeDeltaTable(engine, { kind: 'rows', schema: TABLE, rows: [{ id: 1, VendorID: 1 }] });
  const real = `${engine}-real`;
  cpSync(engine, real, { recursive: true });
  return [engine, real];
}

describe("a write's columns against the table's, engine beside the real deltalake 1.6.6", () => {
  const cases: [string, string[], Outcome][] = [
    [
      'a name differing only by case',
      ['id', 'vendorid'],
      { committed: false, errorClass: 'SchemaMismatchError', message: 'Field vendorid not found in schema' },
    ],
    [
      'every name differing by case: the first is named',
      ['ID', 'vendorid'],
      { committed: false, errorClass: 'SchemaMismatchError', message: 'Field ID not found in schema' },
    ],
    [
      'a column too few',
      ['id'],
      {
        committed: false,
        errorClass: 'SchemaMismatchError',
        message: 'Cannot cast schema, number of fields does not match: 1 vs 2',
      },
    ],
    [
      'a column too many, whatever the case',
      ['id', 'vendorid', 'other'],
      {
        committed: false,
        errorClass: 'SchemaMismatchError',
        message: 'Cannot cast schema, number of fields does not match: 3 vs 2',
      },
    ],
    ['the same names in another order', ['VendorID', 'id'], { committed: true }],
  ];
  for (const mode of ['append', 'overwrite'] as const) {
    for (const [what, columns, expected] of cases) {
      it(`${mode}, ${what}: the same outcome and message`, async () => {
        const [engineTable, realTable] = await twoCopies();
        const real = byDeltalake(realTable, mode, columns);
        expect(real).toEqual(expected);
        expect(await byEngine(engineTable, mode, columns)).toEqual(real);
        const versions = [(await DeltaTable.open(engineTable)).version, (await DeltaTable.open(realTable)).version];
        expect(versions).toEqual(expected.committed ? [1, 1] : [0, 0]);
      });
    }
  }
});
