/**
 * The one place user-given table locations become places on disk (docs/security.md, "Table locations"): paths confined to the
 * configured roots, the lab's base tables by alias, and s3://bucket/path in configured buckets.
 * Every refusal is a LocationError whose message says what to change; nothing else reaches the file
 * system, so a location cannot name a file outside the roots, not through `..` and not through a symlink.
 * The messages reach clients, so they name the location as it was given and the roots by their place in
 * LAB_ROOTS, never a folder of the server.
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, delimiter, dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { type Dataset, DatasetError, datasetCacheDir, prepareDataset, SERVED_SCALES } from '../data/index';
import { clientSafeMessage } from '../results/safe-message';
import { type BaseTables, ensureBaseTables, type TableKind } from './base-tables';

export interface LocationConfig {
  /** Folders table paths must lie in; relative paths resolve against the first. */
  roots: string[];
  /** Where the lab's data sets and base tables are built (aliases resolve there). */
  workDir: string;
  /** Where the real TLC files may be (see prepareDataset). */
  dataDir?: string;
  /** Buckets whose tables may be named as s3://bucket/path (LAB_S3_BUCKETS). */
  buckets?: string[];
  /** LAB_JOB_ROOTS: the folders a command writer's program and script may come from (none: no command writers). */
  jobRoots?: string[];
}

export interface ResolvedLocation {
  kind: 'local' | 's3';
  /** Absolute, symlinks resolved; or the normalised s3:// URL. */
  path: string;
  /** The location as a person should see it: the canonical alias, or the normalised path as given. */
  display: string;
  /** For a lab alias, the data set its base tables were built from (its February day files feed appends). */
  dataset?: Dataset;
}

export class LocationError extends Error {
  override name = 'LocationError';
}

export const MAX_LOCATION_LENGTH = 1024;
const ALIAS_KINDS: readonly TableKind[] = ['flat', 'partitioned'];
const ALIAS_FORMS = 'lab:flat@S or lab:partitioned@S';

/**
 * LAB_ROOTS (comma-separated, relative entries against the repo), LAB_WORK_DIR, LAB_DATA_DIR, and LAB_JOB_ROOTS
 * (':'-separated, like PATH: see cases/job-roots.ts).
 */
export function locationConfigFromEnv(repoRoot: string, env: NodeJS.ProcessEnv = process.env): LocationConfig {
  const listed = (env.LAB_ROOTS ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r !== '');
  const roots = listed.length > 0 ? listed : [join('var', 'tables')];
  return {
    roots: roots.map((r) => resolve(repoRoot, r)),
    workDir: resolve(repoRoot, env.LAB_WORK_DIR?.trim() || join('var', 'lab')),
    ...(env.LAB_DATA_DIR?.trim() && { dataDir: resolve(repoRoot, env.LAB_DATA_DIR.trim()) }),
    buckets: (env.LAB_S3_BUCKETS ?? env.LAB_S3_BUCKET ?? '')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    jobRoots: jobRootsFromEnv(repoRoot, env),
  };
}

/** LAB_JOB_ROOTS: folders separated by ':' (as PATH), relative ones against `repoRoot`; empty when unset. */
export function jobRootsFromEnv(repoRoot: string, env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.LAB_JOB_ROOTS ?? '')
    .split(delimiter)
    .map((r) => r.trim())
    .filter((r) => r !== '')
    .map((r) => resolve(repoRoot, r));
}

export async function resolveTableLocation(text: string, cfg: LocationConfig): Promise<ResolvedLocation> {
  const location = checkedText(text, 'a table location', `a path under ${rootsText(cfg)}, or ${ALIAS_FORMS}`);
  if (/^lab:/i.test(location)) return resolveAlias(location, cfg);
  if (/^s3:\/\//i.test(location)) return resolveS3(location, cfg);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location);
  if (scheme) {
    throw new LocationError(
      `'${scheme[1]}://' locations are not supported: use a path under ${rootsText(cfg)}, or ${ALIAS_FORMS}`,
    );
  }
  return resolvePath(location, cfg);
}

/** `text` trimmed, refused when it is not text, empty, too long or holds a control character (a NUL among them). */
function checkedText(text: unknown, what: string, expected: string): string {
  if (typeof text !== 'string') throw new LocationError(`${what} must be text`);
  const location = text.trim();
  if (location === '') throw new LocationError(`${what} is required: ${expected}`);
  if (location.length > MAX_LOCATION_LENGTH) {
    throw new LocationError(`${what} may be at most ${MAX_LOCATION_LENGTH} characters, got ${location.length}`);
  }
  const control = /\p{Cc}/u.exec(location);
  if (control) {
    const code = (control[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    throw new LocationError(`${what} may not contain control characters: U+${code} at position ${control.index + 1}`);
  }
  return location;
}

/** A folder of code to audit, as given and as found. */
export interface ResolvedFolder {
  /** Absolute, inside a root; no part of it below the root is a symbolic link. */
  path: string;
  /** The path as a person gave it, normalised: what clients are shown, never `path`. */
  display: string;
}

/**
 * A user-given folder (a code base to audit) confined to the roots as table locations are, and stricter: it must
 * exist and be a folder, and no part of it below its root may be a symbolic link (the walk below it then stays
 * inside as well). A root itself may be given.
 */
export async function resolveFolderLocation(text: string, cfg: LocationConfig): Promise<ResolvedFolder> {
  const given = checkedText(text, 'a folder', `a path under ${rootsText(cfg)}`);
  if (cfg.roots.length === 0) throw new LocationError('no roots are configured: set LAB_ROOTS');
  if (given.split(/[\\/]/).includes('..')) {
    throw new LocationError(`'..' is not allowed in a folder; give the path under ${rootsText(cfg)}`);
  }
  const roots = cfg.roots.map((r) => resolve(r));
  const wanted = resolve(roots[0] as string, given);
  const root = roots.find((r) => r === wanted || inside(r, wanted));
  if (root === undefined) throw new LocationError(`'${given}' is not inside ${rootsText(cfg)}`);
  const display = normalize(given).replace(/(.)\/+$/, '$1');
  let at = await realpathDeepest(root, `root ${roots.indexOf(root) + 1} (LAB_ROOTS)`);
  for (const part of relative(root, wanted).split(sep).filter(Boolean)) {
    at = join(at, part);
    let info: Awaited<ReturnType<typeof lstat>>;
    try {
      info = await lstat(at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new LocationError(`'${display}' does not exist`);
      throw new LocationError(`cannot follow '${display}': ${code ?? 'unreadable'}`);
    }
    if (info.isSymbolicLink())
      throw new LocationError(`'${display}' passes through a symbolic link; give the real path`);
  }
  const folder = await stat(at).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!folder) throw new LocationError(`'${display}' is not a folder, or does not exist`);
  return { path: at, display };
}

function resolveS3(location: string, cfg: LocationConfig): ResolvedLocation {
  const rest = location.slice('s3://'.length);
  const bucket = rest.split('/')[0] ?? '';
  const buckets = cfg.buckets ?? [];
  if (bucket === '')
    throw new LocationError(`'${location}' names no bucket; S3 locations are written s3://bucket/path`);
  if (!buckets.includes(bucket)) {
    throw new LocationError(
      buckets.length === 0
        ? `no S3 bucket is configured: set LAB_S3_BUCKETS to the buckets the lab may use (LAB_S3_BUCKETS=${bucket} for this location)`
        : `bucket '${bucket}' is not configured; the configured buckets are ${buckets.join(', ')}`,
    );
  }
  const path = rest.slice(bucket.length).replace(/^\/+|\/+$/g, '');
  if (path === '') throw new LocationError(`${location} is a bucket itself; give a table folder inside it`);
  if (path.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) {
    throw new LocationError(
      `'${location}' has an empty, '.' or '..' segment; give the table's plain path in the bucket`,
    );
  }
  const url = `s3://${bucket}/${path}`;
  return { kind: 's3', path: url, display: url };
}

function rootsText(cfg: LocationConfig): string {
  return cfg.roots.length === 1
    ? 'the table root (LAB_ROOTS)'
    : `one of the ${cfg.roots.length} table roots (LAB_ROOTS)`;
}

/** Whether `path` lies strictly inside `root` (both absolute and normalised). */
function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * The real path of `path`'s deepest existing ancestor, with the part that does not exist yet appended.
 * `name` is how a refusal names the path: what the person wrote, or which root.
 */
async function realpathDeepest(path: string, name: string): Promise<string> {
  let existing = path;
  const missing: string[] = [];
  for (;;) {
    try {
      return join(await realpath(existing), ...missing.reverse());
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // ENOTDIR: an ancestor is a file, so the path cannot be created; still judge where it points.
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(existing) === existing) {
        throw new LocationError(`cannot follow ${name}: ${code ?? 'unreadable'}`);
      }
      missing.push(basename(existing));
      existing = dirname(existing);
    }
  }
}

async function resolvePath(location: string, cfg: LocationConfig): Promise<ResolvedLocation> {
  if (cfg.roots.length === 0) throw new LocationError('no table roots are configured: set LAB_ROOTS');
  // Refused before anything is resolved: a `..` that happens to stay inside a root is still a trick.
  if (location.split('/').includes('..')) {
    throw new LocationError(`'..' is not allowed in a table location; give the path under ${rootsText(cfg)}`);
  }
  const roots = cfg.roots.map((r) => resolve(r));
  // resolve() also normalises an absolute path (duplicate slashes, `.`, a trailing slash).
  const wanted = resolve(roots[0] as string, location);
  if (roots.includes(wanted)) {
    throw new LocationError(`'${location}' is a table root itself; give a table folder inside it`);
  }
  if (!roots.some((r) => inside(r, wanted))) {
    throw new LocationError(`'${location}' is not inside ${rootsText(cfg)}`);
  }
  const real = await realpathDeepest(wanted, `'${location}'`);
  const realRoots = await Promise.all(roots.map((r, i) => realpathDeepest(r, `table root ${i + 1} (LAB_ROOTS)`)));
  if (!realRoots.some((r) => inside(r, real))) {
    throw new LocationError(`'${location}' leads outside ${rootsText(cfg)} through a symbolic link`);
  }
  return { kind: 'local', path: real, display: normalize(location).replace(/(.)\/+$/, '$1') };
}

/** Base tables being built in this process, so two resolutions of one alias never build into one temp folder. */
const building = new Map<string, Promise<BaseTables & { dataset: Dataset }>>();

async function baseTables(cfg: LocationConfig, scale: number): Promise<BaseTables & { dataset: Dataset }> {
  const workDir = resolve(cfg.workDir);
  const key = `${workDir}\0${scale}`;
  let job = building.get(key);
  if (!job) {
    job = (async () => {
      const dataset: Dataset = await prepareDataset({
        scale,
        cacheDir: datasetCacheDir(workDir),
        ...(cfg.dataDir !== undefined && { dataDir: cfg.dataDir }),
      });
      return { ...(await ensureBaseTables(workDir, dataset)), dataset };
    })();
    building.set(key, job);
    job.finally(() => building.delete(key)).catch(() => undefined);
  }
  return job;
}

async function resolveAlias(location: string, cfg: LocationConfig): Promise<ResolvedLocation> {
  const m = /^lab:([^@]*)@(.*)$/i.exec(location);
  if (!m)
    throw new LocationError(`'${location}' is not a lab alias: write ${ALIAS_FORMS}, S a scale such as 1 or 0.02`);
  const kind = (m[1] as string).toLowerCase() as TableKind;
  if (!ALIAS_KINDS.includes(kind)) {
    throw new LocationError(`unknown lab table '${m[1]}': the lab's base tables are ${ALIAS_FORMS}`);
  }
  const scaleText = m[2] as string;
  const scale = /^\d+(\.\d+)?$/.test(scaleText) ? Number(scaleText) : Number.NaN;
  // Refused before anything is built: every scale is a data set kept on disk (see SERVED_SCALES).
  if (!SERVED_SCALES.includes(scale)) {
    throw new LocationError(`the scale in '${location}' must be one of ${SERVED_SCALES.join(', ')}`);
  }
  const display = `lab:${kind}@${scale}`;
  try {
    const tables = await baseTables(cfg, scale);
    return { kind: 'local', path: await realpath(tables[kind]), display, dataset: tables.dataset };
  } catch (e) {
    // A data set that cannot exist at this scale (TLC files present and S < 1) is the user's to fix.
    if (e instanceof DatasetError) throw new LocationError(`${display}: ${clientSafeMessage(e)}`);
    throw e;
  }
}
