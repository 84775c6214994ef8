/**
 * An object schema's fields as plain facts (name, kind, required-ness, default, description), so that another
 * type system can declare the same input without restating it: the API's GraphQL input types are built from
 * these.
 */
import * as v from 'valibot';

/** `list`: of objects (an input type of its own); `texts`: of strings. */
export type FieldKind = 'text' | 'integer' | 'number' | 'boolean' | 'list' | 'texts';

export interface FieldInfo {
  key: string;
  kind: FieldKind;
  required: boolean;
  /** What an absent field is taken to be. */
  defaultValue?: unknown;
  description?: string;
}

type Schema = v.GenericSchema & {
  wrapped?: Schema;
  default?: unknown;
  entries?: v.ObjectEntries;
  item?: Schema;
  pipe?: readonly (Schema | { kind: string; type: string })[];
};

/** The entries of the object schema at the end of `schema`'s pipe (an object may be wrapped in checks). */
function entriesOf(schema: Schema): v.ObjectEntries {
  if (schema.entries) return schema.entries;
  const inner = schema.pipe?.findLast((item): item is Schema => item !== schema && item.kind === 'schema');
  if (!inner) throw new Error(`a ${schema.type} schema has no fields`);
  return entriesOf(inner);
}

function kindOf(key: string, schema: Schema): FieldKind {
  switch (schema.type) {
    case 'string':
    case 'picklist':
      return 'text';
    case 'boolean':
      return 'boolean';
    case 'number':
      return schema.pipe?.some((item) => item.type === 'integer') ? 'integer' : 'number';
    case 'array':
      return schema.item?.type === 'string' ? 'texts' : 'list';
    default:
      throw new Error(`field ${key}: no plain kind for a ${schema.type} schema`);
  }
}

export function fieldsOf(schema: v.GenericSchema): FieldInfo[] {
  return Object.entries(entriesOf(schema as Schema)).map(([key, entry]) => {
    const field = entry as Schema;
    const required = field.type !== 'nullish' && field.type !== 'optional';
    const description = v.getDescription(field);
    return {
      key,
      kind: kindOf(key, required ? field : (field.wrapped as Schema)),
      required,
      ...(field.default !== undefined && { defaultValue: field.default }),
      ...(description !== undefined && { description }),
    };
  });
}
