/**
 * A race run in the real library, over real HTTP against real Postgres: realLibraries says which libraries the
 * server has installed; startRace with real runs the case's writers in the real delta-rs, and each stored writer
 * names its library, the library's own version and that it ran for real (an emulated race's say emulated); a real
 * run the lab refuses (a store case, a library that does not write the case's format, a library without real, the
 * Python side missing) is REAL_RUN_REFUSED before anything is stored, and its message shows no server path. This
 * needs the Python side (`npm run setup:python`): without it the test fails with the message that says what is
 * missing.
 */
import { findFreePort } from '@racelab/pg-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, subscribe } from './helpers/client';
import { type Proc, printed, type Stack, spawnTs, startStack, stopProc } from './helpers/stack';

const START = `mutation($input: StartRaceInput!) { startRace(input: $input) { id status spec } }`;
const PROGRESS = `subscription($id: ID!) { raceProgress(id: $id) { status } }`;
const RACE = `query($id: ID!) { race(id: $id) { status reason realLibrary runs { writers {
  name committed library libraryVersion run } } } }`;
const LIBRARIES = `{ realLibraries { name package version tableFormat installed reason } }`;

interface Writer {
  name: string;
  committed: boolean;
  library: string | null;
  libraryVersion: string | null;
  run: string | null;
}

let stack: Stack;
/** A second API on the same database whose Python side is a file that is not there. */
let bare: { proc: Proc; url: string } | null = null;
const MISSING_PYTHON = '/opt/racelab-test/no-such-venv/bin/python';

beforeAll(async () => {
  stack = await startStack();
  const port = await findFreePort();
  const proc = spawnTs('src/main.ts', { ...stack.env, API_PORT: String(port), RACELAB_PYTHON: MISSING_PYTHON });
  bare = { proc, url: `http://127.0.0.1:${port}/graphql` };
  await printed(proc, /API on http/);
});
afterAll(async () => {
  if (bare) await stopProc(bare.proc);
  await stack?.stop();
});

/** Starts a race and follows its progress until it ends; its writers, run by run. */
async function raced(
  input: Record<string, unknown>,
): Promise<{ spec: string; realLibrary: string | null; writers: Writer[][] }> {
  const started = await gql<{ startRace: { id: string; spec: string } }>(stack.apiUrl, START, { input }, stack.token);
  expect(started.errors).toBeUndefined();
  const id = started.data?.startRace.id as string;
  for await (const d of subscribe<{ raceProgress: { status: string } }>(stack.apiUrl, PROGRESS, { id })) {
    if (['DONE', 'FAILED', 'CANCELLED'].includes(d.raceProgress.status)) break;
  }
  const r = await gql<{
    race: { status: string; reason: string | null; realLibrary: string | null; runs: { writers: Writer[] }[] };
  }>(stack.apiUrl, RACE, { id }, stack.token);
  expect([r.data?.race.status, r.data?.race.reason]).toEqual(['DONE', null]);
  return {
    spec: started.data?.startRace.spec as string,
    realLibrary: r.data?.race.realLibrary ?? null,
    writers: (r.data?.race.runs ?? []).map((x) => x.writers),
  };
}

async function refusal(url: string, input: Record<string, unknown>) {
  const before = await stack.sql<{ n: string }>('SELECT count(*) AS n FROM "Race"');
  const r = await gql(url, START, { input }, stack.token);
  const after = await stack.sql<{ n: string }>('SELECT count(*) AS n FROM "Race"');
  expect(after[0]?.n).toBe(before[0]?.n);
  expect(r.data).toBeNull();
  const e = r.errors?.[0] as { message: string; extensions: { code: string; problems: string[] } };
  expect(e.extensions.code).toBe('REAL_RUN_REFUSED');
  return e;
}

describe('real libraries', () => {
  it('realLibraries says delta-rs and pyiceberg are installed here, at the versions the lab pins', async () => {
    const r = await gql<{ realLibraries: Record<string, unknown>[] }>(stack.apiUrl, LIBRARIES, {}, stack.token);
    expect(r.errors).toBeUndefined();
    const byName = new Map(r.data?.realLibraries.map((l) => [l.name, l]));
    expect(byName.get('delta-rs')).toEqual({
      name: 'delta-rs',
      package: 'deltalake',
      version: '1.6.6',
      tableFormat: 'delta',
      installed: true,
      reason: null,
    });
    expect(byName.get('pyiceberg')).toMatchObject({ package: 'pyiceberg', version: '0.12.0', installed: true });
  });

  it('startRace with real runs A1 in the real delta-rs and stores each writer as real delta-rs 1.6.6', async () => {
    const { spec, realLibrary, writers } = await raced({
      caseId: 'A1',
      runs: 1,
      scale: 0.01,
      real: true,
      library: 'delta-rs',
    });
    expect([JSON.parse(spec).realLibrary, realLibrary]).toEqual(['delta-rs', 'delta-rs']);
    expect(writers).toHaveLength(1);
    const run = writers[0] as Writer[];
    expect(run.map((w) => [w.library, w.libraryVersion, w.run])).toEqual(run.map(() => ['delta-rs', '1.6.6', 'REAL']));
    // A1's two appends both commit, whoever ran them.
    expect(run.filter((w) => w.committed)).toHaveLength(2);
    const rows = await stack.sql<{ library: string; libraryVersion: string; libraryRun: string }>(
      'SELECT "library", "libraryVersion", "libraryRun" FROM "WriterOutcome" o JOIN "Run" r ON r.id = o."runId" JOIN "Race" x ON x.id = r."raceId" WHERE x.spec->>\'realLibrary\' = \'delta-rs\'',
    );
    expect(rows.map((o) => o.libraryRun)).toEqual(['real', 'real']);
  });

  it('a race without real is emulated: its writers say delta-rs, the engine, emulated', async () => {
    const { spec, realLibrary, writers } = await raced({ caseId: 'A1', runs: 1, scale: 0.01 });
    expect([JSON.parse(spec).realLibrary, realLibrary]).toEqual([undefined, null]);
    for (const w of writers[0] as Writer[]) {
      expect([w.library, w.run]).toEqual(['delta-rs', 'EMULATED']);
      expect(w.libraryVersion).not.toBe('1.6.6');
    }
  });

  it.each([
    [{ caseId: 'G1', real: true }, /G1 is a store case/],
    [
      { caseId: 'A1', real: true, library: 'pyiceberg' },
      /A1 is a Delta case: pyiceberg writes Iceberg tables; delta-rs runs it \(library delta-rs, or no library\)/,
    ],
    [{ caseId: 'A1', library: 'delta-rs' }, /library picks the real library: give real: true with it/],
    [{ caseId: 'A1', real: true, library: 'duckdb' }, /library duckdb is not a library the lab knows/],
  ])('startRace %j is refused with the lab’s reason in the input’s words, nothing stored', async (input, reason) => {
    const e = await refusal(stack.apiUrl, { runs: 1, scale: 0.01, ...input });
    expect(e.extensions.problems.join('\n')).toMatch(reason);
    expect(e.message).not.toMatch(/--/);
  });

  it('without the Python side, realLibraries and startRace say what is missing, with no server path', async () => {
    const url = (bare as { url: string }).url;
    const r = await gql<{ realLibraries: { installed: boolean; reason: string }[] }>(url, LIBRARIES, {}, stack.token);
    for (const l of r.data?.realLibraries ?? []) {
      expect(l.installed).toBe(false);
      expect(l.reason).toMatch(/RACELAB_PYTHON names …\/python, which does not exist/);
      expect(l.reason).not.toContain('/opt/');
    }
    const e = await refusal(url, { caseId: 'A1', runs: 1, scale: 0.01, real: true });
    expect(e.message).toMatch(/RACELAB_PYTHON names …\/python, which does not exist/);
    expect(JSON.stringify(e)).not.toContain(MISSING_PYTHON);
    expect(JSON.stringify(e)).not.toMatch(/\n\s+at /);
  });
});
