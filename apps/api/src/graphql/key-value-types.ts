/** The small output types many others use: a key with its value as text, and a value with its row count. */
import { builder } from './builder';

export interface KeyValueShape {
  key: string;
  value: string | null;
}
export const KeyValue = builder.objectRef<KeyValueShape>('KeyValue').implement({
  fields: (t) => ({ key: t.exposeString('key'), value: t.exposeString('value', { nullable: true }) }),
});

/** An object's entries as KeyValues, each value as text (null and undefined as null). */
export const pairs = (o: unknown): KeyValueShape[] =>
  Object.entries((o ?? {}) as Record<string, unknown>).map(([key, v]) => ({
    key,
    value: v == null ? null : String(v),
  }));

export interface ValueCountShape {
  value: string;
  rows: number;
}
export const ValueCount = builder.objectRef<ValueCountShape>('ValueCount').implement({
  fields: (t) => ({ value: t.exposeString('value'), rows: t.exposeInt('rows') }),
});
