/**
 * A predicate as delta-rs 1.6.6 records it in commitInfo (DataFusion's SQL unparser), in the SQL the engine's
 * parser reads: `arrow_cast(x, 'Date32')` is `CAST(x AS DATE)` and `'2025-02-14'::date` is `DATE '2025-02-14'`.
 * Quoted identifiers (`"VendorID"`) the parser reads as they are. Only these measured spellings are rewritten;
 * anything else is left for the parser to accept or name.
 */

const DATE32_CAST = /arrow_cast\(((?:"[^"]*"|[A-Za-z_][A-Za-z0-9_]*)), 'Date32'\)/g;
const DATE_LITERAL = /'(\d{4}-\d{2}-\d{2})'::date\b/g;

export function recordedPredicateSql(predicate: string): string {
  return predicate.replace(DATE32_CAST, 'CAST($1 AS DATE)').replace(DATE_LITERAL, "DATE '$1'");
}
