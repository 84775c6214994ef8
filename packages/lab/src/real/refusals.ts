/**
 * What a real run (`--real`) can do, refused before anything runs with the reason: delta-rs runs the lesson's Delta
 * cases and pyiceberg the Iceberg ones (each format's library unless `--library` names one; Delta Spark runs the
 * Delta cases that have a Spark twin), on this machine, on
 * local run tables, for cases whose writers need none of the engine's own hooks. Every problem is named at once.
 */
import type { LabCase } from '../cases/catalog';
import { caseGroup } from '../cases/groups';
import { REAL_LIBRARIES, type RealLibrary } from './python-env';

export class RealRunRefusedError extends Error {
  override name = 'RealRunRefusedError';
  constructor(readonly problems: string[]) {
    super(`--real was refused:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** How the refusals name the formats the real libraries write. */
const FORMAT_NAMES: Record<string, [article: string, name: string]> = {
  delta: ['a', 'Delta'],
  iceberg: ['an', 'Iceberg'],
};

/** The library a real run asks for, checked; undefined when none is named (each case's format picks its own). */
export function realLibrary(name: string | undefined): RealLibrary | undefined {
  if (name === undefined || name in REAL_LIBRARIES) return name as RealLibrary | undefined;
  throw new RealRunRefusedError([
    `--library ${name} is not a library the lab knows: ${Object.keys(REAL_LIBRARIES).join(', ')} run for real`,
  ]);
}

/** The real library of a case's format, if it has one. */
function formatLibrary(c: LabCase): RealLibrary | undefined {
  return (Object.keys(REAL_LIBRARIES) as RealLibrary[]).find((l) => REAL_LIBRARIES[l].format === c.format);
}

/**
 * What a case asks of its writers that Delta Spark has no twin for: an append marked not blind on purpose (a
 * Spark append, an INSERT that reads nothing of the table, is always blind: I1, I2, I6 are about the other kind),
 * and delta-rs's own commit-retry setting (Spark retries its commit itself, unbounded in practice: A2).
 */
function sparkRefusals(c: Exclude<LabCase, { format: 'postgres' }>): string[] {
  const problems: string[] = [];
  for (const w of c.writers) {
    if (w.operation.kind === 'append' && w.operation.blind === false)
      problems.push(
        `${c.id} has no Delta Spark twin: its point is ${w.name}, an append not marked blind, and a Spark append is always blind`,
      );
    if (w.maxCommitRetries !== undefined)
      problems.push(
        `${c.id}'s writer ${w.name} sets maxCommitRetries, delta-rs's commit-retry setting; Delta Spark has none`,
      );
  }
  return problems;
}

/** The engine's own hooks: faults and options the real libraries do not have. */
const ENGINE_HOOKS = ['lostAnswer', 'recogniseOwnCommit'] as const;

/**
 * The library that runs each case's writers in a real run, by case id (`asked`, else the case's format's); or the
 * run refused with every reason at once.
 */
export function realLibraries(
  cases: readonly LabCase[],
  where: { tableRoot?: string | undefined; acrossHosts?: unknown },
  asked?: RealLibrary,
): Map<string, RealLibrary> {
  const problems: string[] = [];
  const libraries = new Map<string, RealLibrary>();
  if (where.acrossHosts) problems.push('real writers run on this machine only, not on other hosts');
  if (where.tableRoot?.toLowerCase().startsWith('s3://'))
    problems.push('real writers write local run tables only, not an S3 table root (--table-root)');
  for (const c of cases) {
    const own = formatLibrary(c);
    if (caseGroup(c) === 'store') {
      problems.push(
        `${c.id} is a store case: its point is a store fault that only the engine's own writers can be given`,
      );
    } else if (c.format === 'postgres' || !own) {
      problems.push(`${c.id} is a ${c.format} case: it has no library to run for real`);
    } else if (asked && REAL_LIBRARIES[asked].format !== c.format) {
      const [article, name] = FORMAT_NAMES[c.format] ?? ['a', c.format];
      const writes = FORMAT_NAMES[REAL_LIBRARIES[asked].format]?.[1];
      problems.push(
        `${c.id} is ${article} ${name} case: ${asked} writes ${writes} tables; ${own} runs it (--library ${own}, or no --library)`,
      );
    } else {
      const library = asked ?? own;
      libraries.set(c.id, library);
      for (const w of c.writers)
        for (const hook of ENGINE_HOOKS)
          if (w[hook] !== undefined)
            problems.push(
              `${c.id}'s writer ${w.name} uses ${hook}, a hook of the engine's own that ${library} does not have`,
            );
      if (library === 'delta-spark') problems.push(...sparkRefusals(c));
    }
  }
  if (problems.length > 0) throw new RealRunRefusedError(problems);
  return libraries;
}
