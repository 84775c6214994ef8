/**
 * What delta-rs 1.6.x's operations check about a table's features before and while they write, beyond the protocol
 * check every commit makes (protocol/features.ts). Paths and lines are delta-rs's crates/core/src at python-v1.6.3.
 * Where delta-rs writes something this engine does not (change data files, generated values), the operation is
 * refused up front with a message saying so, rather than committed without it.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { appendOnlyViolation } from '../../../kernel/conflict/errors';
import { isAppendOnly } from '../../../kernel/delta/protocol/config';
import { UnsupportedFeatureError } from '../../../kernel/delta/protocol/unsupported';
import { parsePredicate, renderSql } from '../../../kernel/sql/index';
import type { DeltaTable } from '../table';

export type WritingOperation = 'WRITE' | 'UPDATE' | 'DELETE' | 'MERGE' | 'OPTIMIZE';

const INVARIANTS_KEY = 'delta.invariants';
const GENERATION_KEY = 'delta.generationExpression';
const CONSTRAINT_PREFIX = 'delta.constraints.';

/** `is_feature_enabled`: at writer version 7 the feature is listed; below, the version implies it. */
function featureEnabled(table: DeltaTable, feature: string, impliedFrom: number): boolean {
  const p = table.protocol;
  return p.minWriterVersion >= 7 ? (p.writerFeatures ?? []).includes(feature) : p.minWriterVersion >= impliedFrom;
}

/**
 * `check_append_only` (kernel/transaction/protocol.rs L93-99), which DELETE, UPDATE and overwriting WRITE run
 * before reading anything, on the property alone: refused even when nothing would match.
 */
export function assertNotAppendOnly(table: DeltaTable): void {
  if (isAppendOnly(table.configuration)) throw appendOnlyViolation();
}

/**
 * `should_write_cdc` (operations/cdc.rs L59-86): DELETE with a data predicate, UPDATE, MERGE and a predicate
 * overwrite would write `_change_data/` files, which this engine does not write.
 */
export function refuseChangeDataFeed(table: DeltaTable, operation: WritingOperation): void {
  const on =
    table.configuration['delta.enableChangeDataFeed'] === 'true' &&
    (table.protocol.minWriterVersion < 7 || (table.protocol.writerFeatures ?? []).includes('changeDataFeed'));
  if (on) {
    throw new UnsupportedFeatureError(
      `${table.location}: delta.enableChangeDataFeed is true, so delta-rs 1.6.x would write change data files (_change_data/) with this ${operation}; this engine does not write them, so it refuses the ${operation} rather than commit it without them`,
    );
  }
}

/**
 * Generated columns (delta_datafusion/data_validation.rs L304-316, write/generated_columns.rs): delta-rs computes
 * missing ones on WRITE and MERGE inserts and checks them on WRITE, UPDATE and MERGE. This engine does neither.
 */
export function refuseGeneratedColumns(table: DeltaTable, operation: WritingOperation): void {
  if (!featureEnabled(table, 'generatedColumns', 4)) return;
  const generated = table.schema.fields.filter((f) => typeof f.metadata[GENERATION_KEY] === 'string');
  if (generated.length > 0) {
    throw new UnsupportedFeatureError(
      `${table.location}: column(s) ${generated.map((f) => f.name).join(', ')} are generated (${GENERATION_KEY}); this engine neither computes nor checks generated columns, so it refuses the ${operation}`,
    );
  }
}

/** The table's invariants and CHECK constraints, each as engine SQL over the logical columns. */
function validationChecks(table: DeltaTable): { sql: string; name: string }[] {
  const texts: { text: string; name: string }[] = [];
  // delta-rs reads invariants from every depth; only top-level ones are parsed here, nested ones are refused.
  if (featureEnabled(table, 'invariants', 2)) {
    const walk = (fields: typeof table.schema.fields, depth: number) => {
      for (const f of fields) {
        const raw = f.metadata[INVARIANTS_KEY];
        if (typeof raw === 'string') {
          if (depth > 0) throw unreadableCheck(table, `the invariant of nested field ${f.name}`);
          const text = (JSON.parse(raw) as { expression?: { expression?: string } }).expression?.expression;
          if (typeof text !== 'string') throw unreadableCheck(table, `the invariant of ${f.name}`);
          texts.push({ text, name: `invariant of ${f.name}` });
        }
        if (typeof f.type === 'object' && f.type.type === 'struct') walk(f.type.fields, depth + 1);
      }
    };
    walk(table.schema.fields, 0);
  }
  if (featureEnabled(table, 'checkConstraints', 3)) {
    for (const [key, value] of Object.entries(table.configuration)) {
      if (key.startsWith(CONSTRAINT_PREFIX) && value) texts.push({ text: value, name: key });
    }
  }
  return texts.map(({ text, name }) => {
    try {
      return { sql: renderSql(parsePredicate(text, table.schema)), name };
    } catch (e) {
      throw unreadableCheck(table, `${name} (${text}): ${(e as Error).message}`);
    }
  });
}

/** Whether rows written to the table must pass checks (which are SQL, run by DuckDB); true also when unreadable. */
export function hasRowChecks(table: DeltaTable): boolean {
  try {
    return validationChecks(table).length > 0;
  } catch {
    return true;
  }
}

function unreadableCheck(table: DeltaTable, what: string): UnsupportedFeatureError {
  return new UnsupportedFeatureError(
    `${table.location}: this engine cannot evaluate ${what}, so it refuses to write rows it cannot check`,
  );
}

/**
 * Invariants and CHECK constraints on the rows a WRITE, UPDATE or MERGE is about to write
 * (data_validation.rs L259-320, L600-631): a row fails when a check is false or NULL, and delta-rs's text says how
 * many failed, with up to five of them. DELETE and OPTIMIZE are not checked, as in delta-rs.
 */
export async function assertRowsValid(conn: DuckDBConnection, table: DeltaTable, source: string): Promise<void> {
  const checks = validationChecks(table);
  if (checks.length === 0) return;
  const valid = checks.map((c) => `(${c.sql})`).join(' AND ');
  const bad = `SELECT * FROM (${source}) WHERE (${valid}) IS NOT TRUE`;
  const n = Number((await conn.runAndReadAll(`SELECT count(*) FROM (${bad})`)).getColumns()[0]?.[0] ?? 0);
  if (n === 0) return;
  const preview = await conn.runAndReadAll(`SELECT * FROM (${bad}) LIMIT 5`);
  const names = preview.columnNames().filter((c) => !c.startsWith('__'));
  const rows = (preview.getRowObjectsJson() as Record<string, unknown>[]).map((r) =>
    names.map((c) => (r[c] === null || r[c] === undefined ? '' : String(r[c]))),
  );
  throw new InvalidDataError(
    `Invalid data found: ${n} rows failed validation check.\nPreview of invalid data:\n\n${prettyTable(names, rows)}`,
  );
}

/** `DeltaTableError::InvalidData`, raised by delta-rs's Python binding as `DeltaProtocolError`. */
export class InvalidDataError extends Error {
  override name = 'InvalidDataError';
}

/** Arrow's `pretty_format_batches` layout: a boxed table, cells left-aligned, NULL as an empty cell. */
function prettyTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const row = (cells: readonly string[]) => `|${cells.map((c, i) => ` ${c.padEnd(widths[i] ?? 0)} `).join('|')}|`;
  return [line, row(header), line, ...rows.map(row), line].join('\n');
}
