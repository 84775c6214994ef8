/**
 * What a writer leaves beside a table while it works, and how a dead writer's leftovers are told from a
 * live one's. Two kinds:
 * - staging folders, `_staging/<owner>/…`: DuckDB's output before it is moved into place, a prepared
 *   source's rows, a checkpoint being written;
 * - temporary files, `<folder>/<name>#<owner>` wherever the local store writes (local-store.ts): a log entry
 *   before link() gives it its name, `_last_checkpoint` before rename() does, a data file the engine encoded
 *   itself (a small append's, in the root, a partition folder or a random-prefix folder) before its rename.
 * A writer removes both when it finishes, whatever the outcome; one killed in between leaves them, and
 * readers never look at either.
 *
 * `<owner>` is `<host>-<pid>-<uuid>`: the process that made it. On the same host a live owner is never
 * robbed, whatever the retention (a pid still in use, or reused, only keeps the leftover longer); for
 * another host's (a shared file system) only age can tell, which is why vacuum also waits for the retention.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const STAGING_DIR = '_staging/';

export type LeftoverKind = 'staging' | 'temp';

/** This host, as a name-safe tag: host names may hold dots and dashes. */
const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 12);
const OWNER_RE = /^([0-9a-f]{12})-(\d+)-[0-9a-f-]{36}$/;
/**
 * `_delta_log/<name>#<owner>` (`<name>.<uuid>.tmp` as `put()` named them before owners were recorded), and
 * `<name>#<owner>` in any other folder (`#<uuid>` before owners were recorded). Outside the log the suffix must
 * have a tag's shape: a table file's own name may hold a `#`.
 */
const TEMP_RE =
  /^_delta_log\/[^/#]+(?:#([^/]+)|\.[0-9a-f-]{36}\.tmp)$|^(?:[^/]+\/)*[^/#]+#((?:[0-9a-f]{12}-\d+-)?[0-9a-f-]{36})$/;

/** A new owner tag for this process: the name of a staging folder or the suffix of a temporary file. */
export const ownerTag = (): string => `${HOST}-${process.pid}-${randomUUID()}`;

/** Whether `key` is something a writer leaves behind (and which kind), or table content (null). */
export function leftoverKind(key: string): LeftoverKind | null {
  if (key.startsWith(STAGING_DIR)) return 'staging';
  return TEMP_RE.test(key) ? 'temp' : null;
}

/**
 * The unit a leftover is reclaimed as, and its owner tag: a staging folder goes whole (`_staging/<owner>/`),
 * a temporary file alone.
 */
export function leftoverUnit(key: string): { unit: string; owner: string } {
  const temp = TEMP_RE.exec(key);
  if (temp) return { unit: key, owner: temp[1] ?? temp[2] ?? '' };
  const owner = key.slice(STAGING_DIR.length).split('/')[0] as string;
  return { unit: `${STAGING_DIR}${owner}/`, owner };
}

/**
 * Whether the owner is a process still running on this host. Unknown owners (another host, or names
 * older than the tag) count as not alive: age alone decides for them.
 */
export function ownerAlive(owner: string): boolean {
  const m = OWNER_RE.exec(owner);
  if (!m || m[1] !== HOST) return false;
  try {
    process.kill(Number(m[2]), 0);
    return true;
  } catch (e) {
    // EPERM: the pid exists but belongs to another user, so it is someone's live process.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the owner is known to be dead: this host's tag, and no such process. */
export const ownerDead = (owner: string): boolean => OWNER_RE.exec(owner)?.[1] === HOST && !ownerAlive(owner);

/**
 * Removes the staging folders in `dir` (named `<prefix><owner>`) whose owner died on this host, with whatever
 * they hold (empty folders too, which a listing of files never shows). Called whenever a writer stages
 * there, so what a killed writer left goes with the next write on the same host; the rest waits for vacuum.
 */
export async function sweepDeadStaging(dir: string, prefix = ''): Promise<void> {
  // Synchronous: a one-row append calls this every time, mostly on a folder that does not exist (local-store.ts).
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {}
  const dead = entries.filter((name) => name.startsWith(prefix) && ownerDead(name.slice(prefix.length)));
  // Best effort: in a shared temp folder another user's leftovers are not ours to remove, and vacuum or the
  // next writer tries again.
  await Promise.all(dead.map((name) => rm(join(dir, name), { recursive: true, force: true }).catch(() => {})));
}
