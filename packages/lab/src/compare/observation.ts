/**
 * What one run shows, in the terms a comparison of two libraries reads it: who commits and each writer's
 * attempts, each loser's exception and message (ids masked), the table's figures afterwards, and every commit's
 * actions as parsed values. Read up to a renaming of symmetric writers (symmetry.ts): the canonical form is the
 * least of the run's renamed readings, so that "vendor1 wins" and "vendor2 wins" read the same. Commits are read
 * as a set (each with its writer and readVersion): which landed first is timing, as the table's version says.
 * Writers whose tries are timing (retry loops racing each other, attempts.ts) land in an order timing picks, and
 * what depends on that order leaves their commits: their attempts read as null (compared as distributions instead),
 * and each commit's readVersion and files, which follow from the versions before it, go to `landings`, in the
 * order the commits landed, without the writer (the verdict lists other landings with all else equal as timing).
 */

import { writerOutcomeOf } from '@racelab/contracts';
import type { CommitSummary, RunResult, TableCheck } from '../results/types';
import { maskIds } from './mask';
import type { Renaming } from './symmetry';

export interface WriterObservation {
  name: string;
  outcome: string;
  /** Null for a writer whose attempts are compared as a distribution (attempts.ts). */
  attempts: number | null;
  errorClass: string | null;
  errorMessage: string | null;
}

export interface RunObservation {
  writers: WriterObservation[];
  table: Record<string, unknown>;
  commits: Omit<CommitSummary, 'version'>[];
  /** The readVersion and files of the commits of writers that land in timing's order, in the order they landed. */
  landings: Pick<CommitSummary, 'readVersion' | 'files'>[];
}

/** The table check's figures that say what the table holds (files on disk and staging leftovers vary with timing). */
const TABLE_FIGURES = [
  'version',
  'rows',
  'distinctTripIds',
  'tripsOnDay',
  'tipDeltaByVendor',
  'tipChangedByVendor',
  'tipDeltaValues',
  'tripsByVendor',
  'dataFilesInLog',
] as const satisfies readonly (keyof TableCheck)[];

const regExpText = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces each key of `map` found in `text` as a whole word, all in one pass so that a swap a ↔ b stays a swap. */
function replaceAll(text: string, map: ReadonlyMap<string, string>): string {
  const keys = [...map.keys()].filter((k) => k !== '').sort((a, b) => b.length - a.length);
  if (keys.length === 0) return text;
  const re = new RegExp(`(?<![\\w-])(?:${keys.map(regExpText).join('|')})(?![\\w-])`, 'g');
  return text.replace(re, (m) => map.get(m) ?? m);
}

const renameKey = (k: string, r: Renaming) => r.values.get(k) ?? k;

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => [k, sortedKeys(v)]),
  );
}

/** A message renamed: writers' names and their operations' whole values (a predicate), never a lone number. */
function renameText(text: string, r: Renaming): string {
  return replaceAll(text, new Map([...[...r.values].filter(([k]) => k.length > 3), ...r.names]));
}

/**
 * A commit's parameters renamed: names, whole values, and the words where symmetric writers' operations differ
 * (a predicate written `"VendorID" = 1` by one library and `VendorID = 1` by another).
 */
function renameDeep(value: unknown, r: Renaming): unknown {
  if (typeof value === 'string') return replaceAll(value, new Map([...r.values, ...r.names]));
  if (Array.isArray(value)) return value.map((v) => renameDeep(v, r));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameDeep(v, r)]));
}

/** The run read under one renaming; `timingAttempts` names the writers whose attempts read as null. */
export function observe(run: RunResult, r: Renaming, timingAttempts: ReadonlySet<string> = new Set()): RunObservation {
  const name = (n: string) => r.names.get(n) ?? n;
  const writers = run.writers
    .map((w) => ({
      name: name(w.name),
      outcome: writerOutcomeOf(w),
      attempts: timingAttempts.has(w.name) ? null : w.attempts,
      errorClass: w.errorClass,
      errorMessage: w.errorMessage === null ? null : renameText(maskIds(w.errorMessage), r),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const table: Record<string, unknown> = {};
  for (const k of TABLE_FIGURES) {
    const v = run.table[k];
    if (v === undefined) continue;
    table[k] =
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).map(([key, n]) => [renameKey(key, r), n]))
        : v;
  }
  const renameFiles = (files: CommitSummary['files']) =>
    files
      .map((f) => ({
        ...f,
        partitionValues: Object.fromEntries(
          Object.entries(f.partitionValues).map(([k, v]) => [k, v === null ? v : renameKey(v, r)]),
        ),
      }))
      .map((f) => JSON.stringify(sortedKeys(f)))
      .sort()
      .map((f) => JSON.parse(f) as CommitSummary['files'][number]);
  const inOrder = [...(run.commits ?? [])].sort((a, b) => a.version - b.version);
  const timed = (c: CommitSummary) => c.writer !== null && timingAttempts.has(c.writer);
  const landings = inOrder.filter(timed).map((c) => ({ readVersion: c.readVersion, files: renameFiles(c.files) }));
  // Sorted by writer: which of two writers' commits landed first is timing, and their versions say it anyway.
  const commits = inOrder.map((c) => {
    const { version: _v, ...rest } = c;
    return {
      ...rest,
      writer: c.writer === null ? null : name(c.writer),
      operationParameters: renameDeep(c.operationParameters, r) as Record<string, unknown>,
      ...(timed(c) ? { readVersion: null, files: [] } : { files: renameFiles(c.files) }),
    };
  });
  commits.sort((a, b) => {
    const [x, y] = [JSON.stringify(sortedKeys(a)), JSON.stringify(sortedKeys(b))];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return sortedKeys({ writers, table: sortedKeys(table), commits, landings }) as RunObservation;
}

/**
 * The run's shape: its reading without what follows from which writer's data went in (the table's figures, each
 * file's record count). Symmetric writers that differ in their data (A2's two days, B2's two deletes) leave
 * different figures when a different one wins; the shape is the same.
 */
export function shapeOf(obs: RunObservation): RunObservation {
  return {
    ...obs,
    table: {},
    commits: obs.commits.map((c) => ({ ...c, files: c.files.map((f) => ({ ...f, numRecords: null })) })),
    landings: obs.landings.map((l) => ({ ...l, files: l.files.map((f) => ({ ...f, numRecords: null })) })),
  };
}

/** The least (as JSON) of `read` over every renaming of the case's symmetric writers. */
function least(
  run: RunResult,
  renamings: readonly Renaming[],
  timingAttempts: ReadonlySet<string>,
  read: (o: RunObservation) => RunObservation,
) {
  let best: { text: string; obs: RunObservation } | null = null;
  for (const r of renamings) {
    const obs = read(observe(run, r, timingAttempts));
    const text = JSON.stringify(obs);
    if (best === null || text < best.text) best = { text, obs };
  }
  return (best as { obs: RunObservation }).obs;
}

/** The run's canonical reading: the least (as JSON) over every renaming of its symmetric writers. */
export function canonicalObservation(
  run: RunResult,
  renamings: readonly Renaming[],
  timingAttempts: ReadonlySet<string> = new Set(),
): RunObservation {
  return least(run, renamings, timingAttempts, (o) => o);
}

/** The run's canonical shape (shapeOf), the least over every renaming. */
export function canonicalShape(
  run: RunResult,
  renamings: readonly Renaming[],
  timingAttempts: ReadonlySet<string> = new Set(),
): RunObservation {
  return least(run, renamings, timingAttempts, shapeOf);
}
