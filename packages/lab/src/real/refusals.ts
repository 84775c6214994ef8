/**
 * What a real run (`--real`) cannot do yet, refused before anything runs with the reason: only delta-rs runs for
 * real, on this machine, on local run tables, for the lesson's Delta cases whose writers need none of the engine's
 * own hooks. Every problem is named at once.
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

/** The engine's names for libraries that a later step runs for real; said as such, not as unknown. */
const NOT_YET: Record<string, string> = {
  pyiceberg: 'pyiceberg does not run for real yet (the Iceberg cases F1 and F2 run emulated only, without --real)',
  'delta-spark': 'delta-spark does not run for real yet: only delta-rs does',
};

/** The library a real run asks for, checked: delta-rs, or a refusal saying which libraries exist and which run. */
export function realLibrary(name: string | undefined): RealLibrary {
  const library = name ?? 'delta-rs';
  if (library in REAL_LIBRARIES) return library as RealLibrary;
  throw new RealRunRefusedError([
    NOT_YET[library] ??
      `--library ${library} is not a library the lab knows: ${Object.keys(REAL_LIBRARIES).join(', ')} runs for real (pyiceberg and delta-spark later)`,
  ]);
}

/** The engine's own hooks: faults and options delta-rs does not have. */
const ENGINE_HOOKS = ['lostAnswer', 'recogniseOwnCommit'] as const;

/** Refuses a real run of `cases` with every reason at once. */
export function refuseReal(
  cases: readonly LabCase[],
  where: { tableRoot?: string | undefined; acrossHosts?: unknown },
): void {
  const problems: string[] = [];
  if (where.acrossHosts) problems.push('real writers run on this machine only, not on other hosts');
  if (where.tableRoot?.toLowerCase().startsWith('s3://'))
    problems.push('real writers write local run tables only, not an S3 table root (--table-root)');
  for (const c of cases) {
    if (caseGroup(c) === 'store') {
      problems.push(
        `${c.id} is a store case: its point is a store fault that only the engine's own writers can be given`,
      );
    } else if (c.format === 'iceberg') {
      problems.push(`${c.id} is an Iceberg case: ${NOT_YET.pyiceberg}`);
    } else if (c.format !== 'delta') {
      problems.push(`${c.id} is a ${c.format} case: it has no library to run for real`);
    } else {
      for (const w of c.writers)
        for (const hook of ENGINE_HOOKS)
          if (w[hook] !== undefined)
            problems.push(
              `${c.id}'s writer ${w.name} uses ${hook}, a hook of the engine's own that delta-rs does not have`,
            );
    }
  }
  if (problems.length > 0) throw new RealRunRefusedError(problems);
}
