/**
 * A race run in the real library (`startRace` with `real` or `library`), checked before anything is stored or
 * queued by the lab's own rules (its refusals and its Python side), so that a library the lab learns to run is
 * offered here without a change of this file. The lab says its refusals in its command line's words; a client reads
 * them in the input's (`library`, `real`, `tableRoot`), every path made safe.
 */
import {
  clientSafeMessage,
  type LabCase,
  type LocationConfig,
  namedRoots,
  PythonSideMissingError,
  pythonEnv,
  type RealLibrary,
  RealRunRefusedError,
  realLibraries,
  realLibrary,
  tableFormats,
} from '@racelab/lab';
import { RealRunRefusedApiError } from '../errors/client-errors';

/** What the input asks for: a real run, and which library. */
export interface RealRunInput {
  real?: boolean | null;
  library?: string | null;
}

/** Where the race's tables and writers are, as the lab's refusals weigh them. */
interface RaceWhere {
  tableRoot?: string | undefined;
  acrossWorkers?: boolean | undefined;
}

/** A library the engine emulates (a table format's): naming one alone does not ask for the real one. */
const emulated = (library: string) => tableFormats().some((f) => f.emulatedLibrary === library);

/** The lab's words for its command line's flags, as the input names them. */
const FLAGS: [RegExp, string][] = [
  [/--table-root\b/g, 'tableRoot'],
  [/--library\b/g, 'library'],
  [/--real\b/g, 'real'],
];

function inInputWords(problem: string, locations: LocationConfig): string {
  const said = FLAGS.reduce((text, [flag, field]) => text.replace(flag, field), problem);
  return clientSafeMessage(said, { roots: namedRoots(locations) });
}

function refused(problems: string[], locations: LocationConfig): RealRunRefusedApiError {
  return new RealRunRefusedApiError(problems.map((p) => inInputWords(p, locations)));
}

/**
 * The real library the race's writers run in, or undefined for the engine's emulation; refused with every reason
 * the lab gives, or with what its Python side is missing and the command that adds it.
 */
export async function realRunOf(
  input: RealRunInput,
  c: LabCase,
  where: RaceWhere,
  locations: LocationConfig,
): Promise<RealLibrary | undefined> {
  const library = input.library ?? undefined;
  const real = input.real === true || (library !== undefined && !emulated(library));
  if (!real) {
    if (library === undefined) return undefined;
    throw refused(
      [`library picks the real library: give real: true with it (${library} is emulated otherwise)`],
      locations,
    );
  }
  let chosen: RealLibrary;
  try {
    const on = { tableRoot: where.tableRoot, acrossHosts: where.acrossWorkers };
    // The lab names a library for each case it accepts, and refuses the run otherwise.
    chosen = realLibraries([c], on, realLibrary(library)).get(c.id) as RealLibrary;
  } catch (e) {
    if (e instanceof RealRunRefusedError) throw refused(e.problems, locations);
    throw e;
  }
  try {
    await pythonEnv(chosen);
  } catch (e) {
    if (e instanceof PythonSideMissingError) throw refused([e.message], locations);
    throw e;
  }
  return chosen;
}
