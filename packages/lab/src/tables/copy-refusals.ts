/**
 * What stops a table from being raced on copies, found before anything is copied or any writer starts (and
 * again when each run's copy is made: the table may have changed since). Every problem at once, each saying
 * what to change. The messages reach clients: they name the table as the user gave it and files by their
 * base name, never a folder of the server (see safe-message.ts).
 *
 * - delta-rs 1.6.x would refuse to write it (the engine's assertCanWrite names the feature);
 * - a data file named by an absolute URI: the engine reads data files by their path inside the table only;
 * - a deletion vector at an absolute URI outside the roots (or, on S3, outside the table's bucket), judged by the
 *   engine's dvFileLocation, the judge every read of the table goes through;
 * - a data or deletion vector file that is or passes through a symlink inside the table (named by its key in
 *   the table): the engine reads a table only through its own files, and a copy would link the link;
 * - a local table on another filesystem than the folder run copies are made in (copies are hard links);
 * - an S3 table whose copies would be made anywhere but its own bucket (copies are server-side copies).
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import {
  assertCanWrite,
  type DeltaTable,
  dvFileLocation,
  dvSource,
  fromLogPath,
  isS3Url,
  PathRefusedError,
  parseS3Url,
  UnsupportedFeatureError,
} from '@racelab/engine';

/** Thrown when a table cannot be raced on copies; `problems` are every reason, each a sentence for the user. */
export class CopyRefusedError extends Error {
  override name = 'CopyRefusedError';
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

export interface CopyPlace {
  /** Where the copies are made: a local folder (it need not exist yet) or an s3:// prefix. */
  runsDir: string;
  /** Folders (LAB_ROOTS) absolute deletion vector paths may lie in; the table's own folder always counts. */
  roots?: readonly string[];
  /** The table as the user named it, for the messages. */
  display: string;
}

const hasScheme = (path: string) => /^[a-z][a-z0-9+.-]*:/i.test(path);

/** The delta-rs refusal, naming the feature, or null when delta-rs 1.6.x writes the table. */
export function writeRefusal(table: DeltaTable, display: string): string | null {
  try {
    assertCanWrite(table.protocol, display);
    return null;
  } catch (e) {
    if (!(e instanceof UnsupportedFeatureError)) throw e;
    return `${display}: delta-rs 1.6.x refuses to write this table (${e.message}); race a copy made without that feature`;
  }
}

/** The `dev` of `path`, or of its nearest existing ancestor when it does not exist yet. */
async function deviceOf(path: string): Promise<number> {
  for (let p = resolve(path); ; p = dirname(p)) {
    try {
      return (await stat(p)).dev;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(p) === p) throw e;
    }
  }
}

/** Files counted by kind, each kind said once with one example (a base name). */
function counted(what: string, names: string[], change: string): string[] {
  if (names.length === 0) return [];
  const n = names.length;
  return [`${n} ${what}${n === 1 ? '' : 's'} (e.g. ${basename(names[0] as string)}): ${change}`];
}

/** The keys of the table's data and `u` vector files that are or pass through a symlink (its store refuses them). */
async function symlinked(table: DeltaTable): Promise<string[]> {
  const keys = new Set<string>();
  for (const f of table.activeFiles()) {
    // Absolute and escaping paths are refused as such (copyRefusals).
    if (hasScheme(f.path) || decodeURIComponent(f.path).split('/').includes('..')) continue;
    keys.add(fromLogPath(f.path));
    const dv = f.deletionVector ? dvSource(f.deletionVector) : null;
    if (dv?.kind === 'relative') keys.add(dv.key);
  }
  const refused: string[] = [];
  for (const key of [...keys].sort()) {
    try {
      await table.store.head(key);
    } catch (e) {
      if (e instanceof PathRefusedError) refused.push(key);
      else throw e;
    }
  }
  return refused;
}

/** Why `table` cannot be copied to `place` (empty: it can). */
export async function copyRefusals(table: DeltaTable, place: CopyPlace): Promise<string[]> {
  const { display } = place;
  const source = table.location;
  const onS3 = isS3Url(source);
  const problems: string[] = [];
  if (onS3) {
    const { bucket } = parseS3Url(source);
    if (!isS3Url(place.runsDir) || parseS3Url(place.runsDir).bucket !== bucket) {
      problems.push(
        `${display}: copies of a table on S3 are made server-side in its own bucket; give a table root in s3://${bucket}`,
      );
    }
  } else if (isS3Url(place.runsDir)) {
    problems.push(`${display}: copies of a local table are hard links on its filesystem; give no S3 table root`);
  } else if ((await deviceOf(source)) !== (await deviceOf(place.runsDir))) {
    problems.push(
      `${display} is on another filesystem than the lab's work folder (LAB_WORK_DIR): copies are hard links, so put the table on the work folder's filesystem or set LAB_WORK_DIR to a folder on the table's`,
    );
  }
  const files = table.activeFiles();
  const absoluteAdds = files.filter((f) => hasScheme(f.path)).map((f) => f.path);
  const escaping = files
    .filter((f) => !hasScheme(f.path) && decodeURIComponent(f.path).split('/').includes('..'))
    .map((f) => f.path);
  // An absolute vector is never written by a run (writers only ever add new files and log entries, and a run's
  // folder is removed without following the log), so it may be shared when it lies where the lab may read:
  // inside the roots or the table's own folder on disk, inside the table's bucket on S3.
  const outside: string[] = [];
  for (const f of files) {
    const dv = f.deletionVector;
    if (dv?.storageType !== 'p') continue;
    let at: ReturnType<typeof dvFileLocation>;
    try {
      at = dvFileLocation(source, dv.pathOrInlineDv, place.roots ?? []);
    } catch {
      at = null;
    }
    if (at === null) outside.push(dv.pathOrInlineDv);
  }
  const linked = onS3 ? [] : await symlinked(table);
  problems.push(
    ...counted(
      'data file named by an absolute URI',
      absoluteAdds,
      `${display} can be raced only when its data files are named by their path inside the table`,
    ),
    ...counted(
      'data file outside the table folder',
      escaping,
      `${display} can be raced only when its data files lie inside it`,
    ),
    ...counted(
      'deletion vector outside the table roots (LAB_ROOTS)',
      outside,
      `${display} can be raced only when its deletion vectors lie inside the roots${onS3 ? ' or its bucket' : ''}`,
    ),
    ...(linked.length === 0
      ? []
      : [
          `${display}: refusing '${linked[0]}'${linked.length > 1 ? ` (and ${linked.length - 1} more)` : ''}: it is or passes through a symlink inside the table; it can be raced only when its files are its own, not links`,
        ]),
  );
  return problems;
}

/** Everything that stops a race on copies of `table`: delta-rs's refusal first, then what cannot be copied. */
export async function raceRefusals(table: DeltaTable, place: CopyPlace): Promise<string[]> {
  const write = writeRefusal(table, place.display);
  return [...(write === null ? [] : [write]), ...(await copyRefusals(table, place))];
}
