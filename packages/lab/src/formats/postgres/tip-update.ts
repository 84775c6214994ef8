/**
 * A P-case writer's whole change, as one statement: one more dollar of tip on every trip of its vendor. The race
 * runs it on `trips`; the serial-replay oracle runs the very same text on its own copy.
 */

/** The columns a trips table has, in order (the oracle compares rows over all of them). */
export const TRIP_COLUMNS = 'trip_id, "VendorID", tip_amount';

/** The rows a writer's change touches; `param` (`$1` unless said) is its VendorID. */
export const tipUpdateWhere = (param = '$1') => `"VendorID" = ${param}`;

export function tipUpdateSql(table: string): string {
  return `UPDATE ${table} SET tip_amount = tip_amount + 1 WHERE ${tipUpdateWhere()}`;
}
