/**
 * The real libraries this server can run a race's writers in (`startRace` with `real`), by the lab's own list and
 * its own check of the Python side: the dashboard offers a real run only where the library is installed, and says
 * why not (what is missing, and the command that adds it) where it is not.
 */
import { PythonSideMissingError, pythonEnv, REAL_LIBRARIES, type RealLibrary } from '@racelab/lab';
import { type ApiContext, builder } from './builder';
import { clientSafeText } from './client-safe-text';

interface RealLibraryShape {
  name: string;
  package: string;
  version: string;
  tableFormat: string;
  installed: boolean;
  reason: string | null;
}

async function realLibraryOf(name: RealLibrary, ctx: ApiContext): Promise<RealLibraryShape> {
  const { package: pkg, version, format } = REAL_LIBRARIES[name];
  const shape = { name, package: pkg, version, tableFormat: format };
  try {
    await pythonEnv(name);
    return { ...shape, installed: true, reason: null };
  } catch (e) {
    if (!(e instanceof PythonSideMissingError)) throw e;
    return { ...shape, installed: false, reason: clientSafeText(e.message, ctx) };
  }
}

const RealLibraryType = builder.objectRef<RealLibraryShape>('RealLibrary').implement({
  description: "A library the lab can run a race's writers in for real, and whether this server has it installed",
  fields: (t) => ({
    name: t.exposeString('name', { description: "the engine's name for it, as startRace's library takes it" }),
    package: t.exposeString('package', { description: 'its Python package' }),
    version: t.exposeString('version', { description: 'the version the lab runs (its pin)' }),
    tableFormat: t.exposeString('tableFormat', { description: 'the table format whose cases it runs' }),
    installed: t.exposeBoolean('installed', { description: "the server's Python side has it at that version" }),
    reason: t.exposeString('reason', {
      nullable: true,
      description: 'why it cannot run when not installed: what is missing and the command that adds it',
    }),
  }),
});

builder.queryFields((t) => ({
  realLibraries: t.field({
    type: [RealLibraryType],
    description: "the real libraries startRace's real run can use, and which of them this server has installed",
    resolve: (_r, _a, ctx) =>
      Promise.all((Object.keys(REAL_LIBRARIES) as RealLibrary[]).map((name) => realLibraryOf(name, ctx))),
  }),
}));
