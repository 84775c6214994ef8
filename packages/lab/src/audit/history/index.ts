/**
 * A table's history read as evidence (types.ts): `tableHistory(location, options)` answers the whole TableHistory
 * the CLI, the API and the /history page show. STUB so the API and the page compile before the reader lands: it
 * resolves the location as the real one does and answers a fixed empty history; the reader replaces this file.
 */
import { type LocationConfig, resolveTableLocation } from '../../tables/locations';
import type { TableHistory } from './types';

export type * from './types';

export interface HistoryBounds {
  /** Commits read at most; a longer range is refused before reading. */
  maxCommits: number;
  /** Bytes of commit files read at most. */
  maxBytes: number;
  /** Milliseconds the reading may take. */
  maxMillis: number;
}

export const DEFAULT_HISTORY_BOUNDS: HistoryBounds = { maxCommits: 100_000, maxBytes: 1024 ** 3, maxMillis: 120_000 };

export class HistoryBoundError extends Error {
  override name = 'HistoryBoundError';
  constructor(
    readonly bound: keyof HistoryBounds,
    message: string,
  ) {
    super(message);
  }
}

export interface TableHistoryOptions {
  /** Only commits at or after this time, ms since the epoch. */
  since?: number;
  /** Key columns whose duplicates are looked for. */
  key?: string[];
  /** Read the table as of this version (the history up to it, the duplicates in its snapshot). */
  atVersion?: number;
  locations: LocationConfig;
  bounds?: Partial<HistoryBounds>;
  onProgress?: (stage: 'log' | 'duplicates', done: number, total: number) => void;
  signal?: AbortSignal;
}

export async function tableHistory(location: string, o: TableHistoryOptions): Promise<TableHistory> {
  const resolved = await resolveTableLocation(location, o.locations);
  return {
    location: resolved.display,
    range: {
      fromVersion: 0,
      latestVersion: -1,
      oldestKept: 0,
      since: o.since === undefined ? null : new Date(o.since).toISOString(),
    },
    commits: [],
    rejudgements: [],
    duplicates: null,
    findings: [],
    summary: {
      commits: 0,
      writers: 0,
      concurrentCommits: 0,
      inferredConcurrentCommits: 0,
      unknownConcurrency: 0,
      longestConcurrentChain: 0,
      commitsPerHour: null,
      busiestHour: null,
      duplicateKeys: null,
    },
    failed: false,
  };
}
