/**
 * Schema pieces valibot lacks in the form these contracts need: an object that refuses a list, and a map that
 * keeps every key.
 */
import * as v from 'valibot';
import { describe, type Issue, isObject, mustBe } from './problems';

/**
 * `schema` for an object or record that refuses a list: valibot's object schemas take any `typeof 'object'`,
 * arrays included, and would then report a list's missing keys instead of the list. Its types are `schema`'s.
 */
export function notList<S extends v.GenericSchema>(schema: S, message: (issue: Issue) => string) {
  return v.pipe(
    v.custom<v.InferInput<S>>((value) => !Array.isArray(value), message),
    schema,
  );
}

/**
 * A map of text to text whose every key is kept as data: valibot's record drops keys such as __proto__, which a
 * table property may be. `field` names the map in the messages.
 */
export function textMap(field: string) {
  return v.pipe(
    v.custom<Record<string, string>>(isObject, mustBe('an object')),
    v.rawCheck<Record<string, string>>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      for (const [key, value] of Object.entries(dataset.value)) {
        if (typeof value !== 'string')
          addIssue({ message: `${field}['${key}'] must be a string, got ${describe(value)}` });
      }
    }),
    v.metadata({ jsonSchema: { type: 'object', additionalProperties: { type: 'string' } } }),
  );
}
