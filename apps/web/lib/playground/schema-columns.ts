/** The columns of a table's schema one can map its files by, and the one shown first. */

/** A column one can map the files by: a primitive field, nested ones by their dotted path. */
export interface SchemaColumn {
  name: string;
  type: string;
  partition: boolean;
}

interface SchemaField {
  name: string;
  type: string | { type: string; fields?: SchemaField[] };
}

/** Every primitive column of a Delta schema (JSON), struct fields by their dotted path; arrays and maps have no stats. */
export function schemaColumns(schemaJson: string, partitionColumns: readonly string[]): SchemaColumn[] {
  const out: SchemaColumn[] = [];
  const walk = (fields: readonly SchemaField[], prefix: string) => {
    for (const f of fields) {
      const name = `${prefix}${f.name}`;
      if (typeof f.type === 'string') out.push({ name, type: f.type, partition: partitionColumns.includes(name) });
      else if (f.type.type === 'struct') walk(f.type.fields ?? [], `${name}.`);
    }
  };
  try {
    walk((JSON.parse(schemaJson) as { fields?: SchemaField[] }).fields ?? [], '');
  } catch {
    return [];
  }
  return out;
}

/** The column to show first: the first partition column, else the first column. */
export const defaultColumn = (columns: readonly SchemaColumn[]): string =>
  (columns.find((c) => c.partition) ?? columns[0])?.name ?? '';
