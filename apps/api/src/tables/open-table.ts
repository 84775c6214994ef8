/**
 * A user's table location resolved (packages/lab locations.ts, confined to LAB_ROOTS and the configured buckets)
 * and its Delta table opened: what the table fields read, and what a race on a table of one's own takes its schema
 * from. Every failure is the user's to fix, said without a server folder.
 */
import { DeltaTable, NotATableError } from '@racelab/engine';
import { type LocationConfig, LocationError, resolveTableLocation } from '@racelab/lab';
import { InputError } from '../errors/client-errors';

export async function openTable(location: string, locations: LocationConfig) {
  try {
    const resolved = await resolveTableLocation(location, locations);
    return { resolved, table: await DeltaTable.open(resolved.path, { roots: locations.roots }) };
  } catch (e) {
    if (e instanceof LocationError) throw new InputError(e.message);
    if (e instanceof NotATableError) throw new InputError(`${location} is not a Delta table (no _delta_log)`);
    throw e;
  }
}
