import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { withConnection } from '@racelab/engine';
import type { DataSourceKind } from '../results/types';
import { DatasetError } from './errors';
import { checkScale, FEBRUARY_DAYS, type FebruaryDay, type Figures, scaledFigures } from './figures';
import { measureDataset } from './measure';
import type { StepProgress } from './sql';
import { SYNTHETIC_VERSION, writeSynthetic } from './synthetic';
import { findTlcFiles, TLC_FEBRUARY, TLC_JANUARY, type TlcFiles, writeTlc } from './tlc';

export interface Dataset {
  source: DataSourceKind;
  /** 0.01 ≤ scale ≤ 1 (always 1 for TLC data). */
  scale: number;
  /** The folder holding the files below: `<cacheDir>/<source>-<scale>`. */
  dir: string;
  /** `<dir>/january.parquet`: the January trips in trip_id order, trip_id BIGINT as the last column. */
  january: string;
  /** `<dir>/feb-<day>.parquet`: that day's trips, trip_id = 10,000,000 + position in the February file. */
  february(day: FebruaryDay): string;
  /** round(400,000·scale): the row cap of the lab's base tables. */
  rowsPerFile: number;
  /** The data set's figures, counted from its files when it was written (also in `<dir>/done.json`). */
  figures: Figures;
}

export interface DatasetOptions {
  scale: number;
  /** Where the TLC files may be; default `process.env.LAB_DATA_DIR ?? ~/lab-data/de`. */
  dataDir?: string;
  /** Where data sets are written, one folder each. */
  cacheDir: string;
  /**
   * 'auto' (default): the TLC files when both are in dataDir, else synthetic. 'tlc' requires them;
   * 'synthetic' ignores them (the only way to a scale below 1 when TLC files are present).
   */
  source?: 'auto' | DataSourceKind;
  /** Hears how far a build has got (rows written); not called when the cached set is used. */
  onProgress?: (p: StepProgress) => void;
}

/** Where the lab keeps its data sets under a work folder: one place for every caller, so they share one cache. */
export const datasetCacheDir = (workDir: string): string => join(workDir, 'data');

/** Bump when the TLC conversion changes: cached TLC data sets of another version are rebuilt. */
const TLC_VERSION = 1;
const MARKER_FORMAT = 1;
export const DONE_MARKER = 'done.json';
const JANUARY_FILE = 'january.parquet';
const februaryFile = (day: FebruaryDay) => `feb-${day}.parquet`;

interface InputFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** `<dir>/done.json`, written last: a folder with it holds a complete data set. */
export interface DoneMarker {
  format: number;
  source: DataSourceKind;
  scale: number;
  /** SYNTHETIC_VERSION or the TLC loader's version. */
  generator: number;
  /** The TLC files it came from (synthetic: none); a changed file makes the cache stale. */
  inputs: InputFile[];
  files: string[];
  figures: Figures;
  createdAt: string;
  buildMs: number;
}

function dataFiles(): string[] {
  return [JANUARY_FILE, ...FEBRUARY_DAYS.map(februaryFile)];
}

function datasetIn(dir: string, source: DataSourceKind, figures: Figures): Dataset {
  return {
    source,
    scale: figures.scale,
    dir,
    january: join(dir, JANUARY_FILE),
    february(day: FebruaryDay): string {
      if (!FEBRUARY_DAYS.includes(day)) {
        throw new DatasetError(`no February file for ${String(day)}: the days are ${FEBRUARY_DAYS.join(', ')}`);
      }
      return join(dir, februaryFile(day));
    },
    rowsPerFile: figures.rowsPerFile,
    figures,
  };
}

async function inputsOf(tlc: TlcFiles | null): Promise<InputFile[]> {
  if (!tlc) return [];
  return Promise.all(
    [tlc.january, tlc.february].map(async (path) => {
      const s = await stat(path);
      return { path, size: s.size, mtimeMs: s.mtimeMs };
    }),
  );
}

interface Wanted {
  source: DataSourceKind;
  scale: number;
  generator: number;
  inputs: InputFile[];
}

/** The folder's marker if it is complete and was made from the same inputs by the same generator. */
async function completeMarker(dir: string, wanted: Wanted): Promise<DoneMarker | null> {
  let marker: DoneMarker;
  try {
    marker = JSON.parse(await readFile(join(dir, DONE_MARKER), 'utf8')) as DoneMarker;
  } catch {
    return null;
  }
  const ok =
    marker.format === MARKER_FORMAT &&
    marker.source === wanted.source &&
    marker.scale === wanted.scale &&
    marker.generator === wanted.generator &&
    isDeepStrictEqual(marker.inputs, wanted.inputs) &&
    dataFiles().every((f) => existsSync(join(dir, f)));
  return ok ? marker : null;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const STALE_MS = 3_600_000;

/** Removes temp folders left by crashed builds: over an hour old, and their process is gone. */
async function sweepTemp(cacheDir: string): Promise<void> {
  for (const name of await readdir(cacheDir).catch(() => [] as string[])) {
    const m = /^\.(?:tmp|old)-.*-(\d+)-[^-]+$/.exec(name);
    const pid = Number(m?.[1]);
    if (!m || pid === process.pid || processAlive(pid)) continue;
    const path = join(cacheDir, name);
    const age = Date.now() - ((await stat(path).catch(() => null))?.mtimeMs ?? Date.now());
    if (age > STALE_MS) await rm(path, { recursive: true, force: true });
  }
}

async function build(
  tmp: string,
  wanted: Wanted,
  tlc: TlcFiles | null,
  onProgress?: (p: StepProgress) => void,
): Promise<DoneMarker> {
  const started = Date.now();
  const files = { january: join(tmp, JANUARY_FILE), february: (day: FebruaryDay) => join(tmp, februaryFile(day)) };
  const rowsPerFile = scaledFigures(wanted.scale).rowsPerFile;
  const figures = await withConnection(async (c) => {
    if (tlc) await writeTlc(c, tlc, files, onProgress);
    else await writeSynthetic(c, scaledFigures(wanted.scale), files, onProgress);
    // Every row is written now (the bar stays full); counting them takes a moment more.
    const f = scaledFigures(wanted.scale);
    const rows = f.januaryTrips + f.feb01 + f.feb02 + f.feb14;
    onProgress?.({ done: rows, total: rows, detail: 'counting the figures' });
    return measureDataset(c, files, wanted.scale, rowsPerFile);
  });
  if (!tlc && !isDeepStrictEqual(figures, scaledFigures(wanted.scale))) {
    throw new Error(
      `synthetic data at scale ${wanted.scale} counts ${JSON.stringify(figures)}, planned ${JSON.stringify(scaledFigures(wanted.scale))}`,
    );
  }
  const marker: DoneMarker = {
    format: MARKER_FORMAT,
    source: wanted.source,
    scale: wanted.scale,
    generator: wanted.generator,
    inputs: wanted.inputs,
    files: dataFiles(),
    figures,
    createdAt: new Date().toISOString(),
    buildMs: Date.now() - started,
  };
  await writeFile(join(tmp, DONE_MARKER), `${JSON.stringify(marker, null, 2)}\n`);
  return marker;
}

/** Moves the finished `tmp` folder to `dir`; if another process got there first with a good set, keeps theirs. */
async function install(tmp: string, dir: string, wanted: Wanted, cacheDir: string): Promise<DoneMarker | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await rename(tmp, dir);
      return null;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw e;
    }
    const theirs = await completeMarker(dir, wanted);
    if (theirs) return theirs;
    // A stale or broken folder: move it aside (renames are atomic), then try again.
    const old = join(cacheDir, `.old-${wanted.source}-${wanted.scale}-${process.pid}-${Date.now()}x${attempt}`);
    await rename(dir, old).catch(() => undefined);
    await rm(old, { recursive: true, force: true });
  }
  throw new Error(`could not move ${tmp} to ${dir}`);
}

const building = new Map<string, Promise<Dataset>>();

/** Which data set `opts` asks for and where it lives, decided without writing anything. */
function chooseDataset(opts: DatasetOptions) {
  const scale = checkScale(opts?.scale);
  if (typeof opts.cacheDir !== 'string' || opts.cacheDir === '') throw new DatasetError('cacheDir is required');
  const choice = opts.source ?? 'auto';
  if (!['auto', 'tlc', 'synthetic'].includes(choice)) throw new DatasetError(`unknown source ${String(choice)}`);
  const dataDir = resolve(opts.dataDir ?? process.env.LAB_DATA_DIR ?? join(homedir(), 'lab-data', 'de'));
  const tlc = choice === 'synthetic' ? null : findTlcFiles(dataDir);
  if (choice === 'tlc' && !tlc) {
    throw new DatasetError(`no TLC data in ${dataDir}: need both ${TLC_JANUARY} and ${TLC_FEBRUARY}`);
  }
  if (tlc && scale !== 1) {
    throw new DatasetError(
      `TLC files found in ${dataDir}, but scaling real data is not defined: use scale 1, or source 'synthetic' for scale ${scale}`,
    );
  }
  const source: DataSourceKind = tlc ? 'tlc' : 'synthetic';
  const cacheDir = resolve(opts.cacheDir);
  return { scale, tlc, source, cacheDir, dir: join(cacheDir, `${source}-${scale}`) };
}

/**
 * The data set for `opts.scale`: the TLC files when present (scale 1 only), else the synthetic month.
 * Cached in `<cacheDir>/<source>-<scale>/`: a folder with a matching `done.json` is reused as it is;
 * otherwise the set is written to a temp folder next to it, counted, marked done and renamed into place,
 * so a crash never leaves a half data set where a reader would take it.
 */
export async function prepareDataset(opts: DatasetOptions): Promise<Dataset> {
  const { scale, tlc, source, cacheDir, dir } = chooseDataset(opts);
  const pending = building.get(dir);
  if (pending) return pending;
  const job = (async () => {
    const wanted: Wanted = {
      source,
      scale,
      generator: tlc ? TLC_VERSION : SYNTHETIC_VERSION,
      inputs: await inputsOf(tlc),
    };
    const cached = await completeMarker(dir, wanted);
    if (cached) return datasetIn(dir, source, cached.figures);
    await mkdir(cacheDir, { recursive: true });
    await sweepTemp(cacheDir);
    const tmp = await mkdtemp(join(cacheDir, `.tmp-${source}-${scale}-${process.pid}-`));
    try {
      const marker = await build(tmp, wanted, tlc, opts.onProgress);
      const theirs = await install(tmp, dir, wanted, cacheDir);
      return datasetIn(dir, source, (theirs ?? marker).figures);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  })();
  building.set(dir, job);
  try {
    return await job;
  } finally {
    building.delete(dir);
  }
}

/**
 * A data set prepared only when something asks for it: which one and where are known at once (and a bad scale
 * or missing TLC files refused at once), while `get()` writes or reads it the first time it is called and
 * gives the same data set after. A race on a table of the user's own that takes no rows from the lab's days
 * never calls it.
 */
export interface LazyDataset {
  source: DataSourceKind;
  scale: number;
  /** Where the data set is, or would be once prepared. */
  dir: string;
  get(): Promise<Dataset>;
}

export function lazyDataset(opts: DatasetOptions & { onPrepare?: () => void }): LazyDataset {
  const { source, scale, dir } = chooseDataset(opts);
  let prepared: Promise<Dataset> | null = null;
  return {
    source,
    scale,
    dir,
    get() {
      if (prepared === null) {
        opts.onPrepare?.();
        prepared = prepareDataset(opts);
      }
      return prepared;
    },
  };
}
