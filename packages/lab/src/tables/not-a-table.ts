/**
 * Why a resolved location holds no Delta table, in the engine's one wording (notATableWords), named as the person
 * gave it: on local disk, whether nothing is there, a file, a folder without a log, or a log without a commit; on
 * S3, that no commit is there. The audit, the table history (CLI and API) and the API's table fields all say it so.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LOG_DIR, NotATableError, notATableWords } from '@racelab/engine';
import type { ResolvedLocation } from './locations';

/** What is at `resolved`, which the engine found no commit in, in words. */
export async function notATableReason(resolved: ResolvedLocation): Promise<string> {
  const { display } = resolved;
  if (resolved.kind === 's3') return notATableWords(display, { kind: 'no-commits' });
  const kindOf = async (path: string) => {
    const s = await stat(path).catch(() => null);
    return s === null ? 'none' : s.isDirectory() ? 'folder' : 'file';
  };
  const table = await kindOf(resolved.path);
  if (table === 'none') return notATableWords(display, { kind: 'nothing' });
  if (table === 'file') return notATableWords(display, { kind: 'file' });
  if ((await kindOf(join(resolved.path, LOG_DIR))) === 'folder') return notATableWords(display, { kind: 'empty-log' });
  const parquetFiles = (await readdir(resolved.path)).filter((name) => name.endsWith('.parquet')).length;
  return notATableWords(display, { kind: 'no-log', parquetFiles });
}

/** `work` on the table at `resolved`; the engine's NotATableError comes out saying what is there instead. */
export async function readingTable<T>(resolved: ResolvedLocation, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof NotATableError) throw new NotATableError(await notATableReason(resolved));
    throw e;
  }
}
