/**
 * The input types a race is given in (StartRaceInput, its WriterInput and KeyValueInput), derived from the race
 * input's one schema (@racelab/contracts): each field's name, type, required-ness, default and description is the
 * schema's. GraphQL checks the types; the resolvers check the rest with the same schema (races/spec.ts).
 */
import type { InputFieldBuilder, InputObjectRef, InputType, SchemaTypes } from '@pothos/core';
import { type FieldInfo, fieldsOf, keyValueInput, startRaceInputSchema, writerInputSchema } from '@racelab/contracts';
import { builder } from './builder';

const SCALARS = { text: 'String', integer: 'Int', number: 'Float', boolean: 'Boolean' } as const;

/** GraphQL input fields for `fields`; `lists` names the input type of each field that is a list of objects. */
function inputFields<Types extends SchemaTypes>(
  t: InputFieldBuilder<Types, 'InputObject'>,
  fields: FieldInfo[],
  lists: Record<string, InputObjectRef<Types, unknown>> = {},
) {
  return Object.fromEntries(
    fields.map(({ key, kind, required, defaultValue, description }) => {
      const list = lists[key];
      if (kind === 'list' && !list) throw new Error(`${key}: a list field needs its input type named`);
      const type: InputType<Types> | [InputType<Types>] =
        kind === 'list' ? [list as InputObjectRef<Types, unknown>] : kind === 'texts' ? ['String'] : SCALARS[kind];
      return [
        key,
        t.field({
          type,
          required,
          ...(description !== undefined && { description }),
          ...(defaultValue !== undefined && { defaultValue: defaultValue as never }),
        }),
      ];
    }),
  );
}

export const KeyValueInput = builder.inputType('KeyValueInput', {
  fields: (t) => inputFields(t, fieldsOf(keyValueInput)),
});

export const WriterInputType = builder.inputType('WriterInput', {
  fields: (t) => inputFields(t, fieldsOf(writerInputSchema), { set: KeyValueInput }),
});

export const StartRaceInputType = builder.inputType('StartRaceInput', {
  fields: (t) =>
    inputFields(t, fieldsOf(startRaceInputSchema), { writers: WriterInputType, tableProperties: KeyValueInput }),
});
