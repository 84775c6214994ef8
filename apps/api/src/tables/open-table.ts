/**
 * A user's table location resolved (packages/lab locations.ts, confined to LAB_ROOTS and the configured buckets)
 * and its Delta table opened: what the table fields read, and what a race on a table of one's own takes its schema
 * from. The table reads deletion vectors at absolute paths inside the roots only. Every failure is the user's to
 * fix, said without a server folder; a path the log names that the engine refuses is a TABLE_REFUSED error,
 * when the table is opened and whenever it is read later (`refusedTable`).
 */
import { DeltaTable, NotATableError, PathRefusedError } from '@racelab/engine';
import {
  type LocationConfig,
  LocationError,
  notATableReason,
  type ResolvedLocation,
  resolveTableLocation,
} from '@racelab/lab';
import { InputError, TableRefusedError } from '../errors/client-errors';

/** The engine's refusal of a path the table's log names, for the client; anything else as it was. */
export function refusedTable(e: unknown, location: string): unknown {
  return e instanceof PathRefusedError ? new TableRefusedError(`${location}: ${e.message}`) : e;
}

export async function openTable(location: string, locations: LocationConfig) {
  let resolved: ResolvedLocation;
  try {
    resolved = await resolveTableLocation(location, locations);
  } catch (e) {
    if (e instanceof LocationError) throw new InputError(e.message);
    throw e;
  }
  try {
    return { resolved, table: await DeltaTable.open(resolved.path, { roots: locations.roots }) };
  } catch (e) {
    // What is there instead, in the words the audit and the CLI use.
    if (e instanceof NotATableError) throw new InputError(await notATableReason(resolved));
    throw refusedTable(e, location);
  }
}
