/**
 * `tableHistory(location, since, key, atVersion)`: what a table's own log says happened (docs/history.md), read by
 * the lab within the API's bounds, one per request. Every refusal is the caller's to act on and has its own code:
 * bad arguments and a location that is not a table are BAD_USER_INPUT, a damaged log names its file (BAD_USER_INPUT
 * too), a path the log names that the engine refuses is TABLE_REFUSED, a log past a bound is HISTORY_TOO_LARGE naming
 * the bound; anything else is AUDIT_FAILED in one line, never a server path.
 */
import { DataFileMissingError, LogFormatError, NotATableError, PathRefusedError } from '@racelab/engine';
import {
  DEFAULT_HISTORY_BOUNDS,
  HistoryBoundError,
  type HistoryBounds,
  KeyColumnError,
  LocationError,
  tableHistory,
} from '@racelab/lab';
import { GraphQLError } from 'graphql';
import { HistoryTooLargeError, InputError, TableRefusedError } from '../errors/client-errors';
import { auditFailed } from './audit-failed';
import { type ApiContext, builder } from './builder';
import { clientSafeText } from './client-safe-text';
import { TableHistoryType } from './history-types';

/** What one request may read: fewer commits and less time than the CLI, whose caller waits on purpose. */
export const API_HISTORY_BOUNDS: HistoryBounds = { ...DEFAULT_HISTORY_BOUNDS, maxCommits: 20_000, maxMillis: 30_000 };
const MAX_KEY_COLUMNS = 8;
const MAX_COLUMN_NAME = 255;

interface HistoryArgs {
  /** ms since the epoch */
  since: number | undefined;
  key: string[] | undefined;
  atVersion: number | undefined;
}

/** The arguments checked before any file is read, every problem named. */
function historyArgs(
  since: string | null | undefined,
  key: readonly string[] | null | undefined,
  atVersion: number | null | undefined,
): HistoryArgs {
  const problems: string[] = [];
  const when = since ? new Date(since) : undefined;
  if (since && (!/^\d{4}-\d{2}-\d{2}/.test(since) || Number.isNaN(when?.getTime())))
    problems.push(`since: '${since.slice(0, 40)}' is not a date-time; give ISO 8601, e.g. 2026-12-01T00:00:00Z`);
  const columns = key?.map((c) => c.trim()) ?? [];
  if (columns.length > MAX_KEY_COLUMNS) problems.push(`key: at most ${MAX_KEY_COLUMNS} columns`);
  if (columns.some((c) => c === '' || c.length > MAX_COLUMN_NAME))
    problems.push(`key: each column a name of 1 to ${MAX_COLUMN_NAME} characters`);
  if (new Set(columns).size < columns.length) problems.push('key: each column at most once');
  if (atVersion !== null && atVersion !== undefined && atVersion < 0) problems.push('atVersion: a version, 0 or more');
  if (problems.length > 0) throw new InputError(problems.join('; '), problems);
  return {
    since: when?.getTime(),
    key: columns.length > 0 ? columns : undefined,
    atVersion: atVersion ?? undefined,
  };
}

/** The lab's and the engine's refusals as the client's errors; anything else, the audit failing. */
function historyRefusal(e: unknown, location: string, ctx: ApiContext): GraphQLError {
  if (e instanceof GraphQLError) return e;
  if (e instanceof HistoryBoundError)
    return new HistoryTooLargeError(clientSafeText(e.message, ctx), {
      bound: e.bound,
      limit: API_HISTORY_BOUNDS[e.bound],
    });
  if (e instanceof LocationError) return new InputError(clientSafeText(e.message, ctx));
  if (e instanceof KeyColumnError) return new InputError(e.message);
  // The lab's words for what is there instead (tables/not-a-table.ts), naming the table as the client did.
  if (e instanceof NotATableError) return new InputError(clientSafeText(e.message, ctx));
  if (e instanceof LogFormatError) return new InputError(clientSafeText(`${location}: ${e.message}`, ctx));
  // Duplicate keys read the data: a log naming files that are gone is the table's damage, named, not a failure.
  if (e instanceof DataFileMissingError) return new InputError(clientSafeText(e.message, ctx));
  if (e instanceof PathRefusedError) return new TableRefusedError(`${location}: ${e.message}`);
  return auditFailed(e, ctx.locations, 'tableHistory');
}

builder.queryFields((t) => ({
  tableHistory: t.field({
    type: TableHistoryType,
    description: "what the table's own log says happened: its commits as evidence, re-judged; docs/history.md",
    args: {
      location: t.arg.string({ required: true, description: 'under LAB_ROOTS, lab:…, or s3://… in LAB_S3_BUCKETS' }),
      since: t.arg.string({ description: 'read only commits from this time on, ISO 8601' }),
      key: t.arg.stringList({ description: `columns whose values should be unique (at most ${MAX_KEY_COLUMNS})` }),
      atVersion: t.arg.int({ description: 'find duplicate keys in this version, not the latest' }),
    },
    resolve: async (_r, { location, since, key, atVersion }, ctx) => {
      const args = historyArgs(since, key, atVersion);
      try {
        return await tableHistory(location, {
          locations: ctx.locations,
          bounds: API_HISTORY_BOUNDS,
          ...(args.since !== undefined && { since: args.since }),
          ...(args.key && { key: args.key }),
          ...(args.atVersion !== undefined && { atVersion: args.atVersion }),
        });
      } catch (e) {
        throw historyRefusal(e, location, ctx);
      }
    },
  }),
}));
