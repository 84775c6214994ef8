/**
 * The GraphQL input types of a race are the race input's schema (@racelab/contracts): the same fields, each as
 * required, of the same kind, with the same default. A field added to one and not the other fails here.
 */
import { type FieldInfo, fieldsOf, keyValueInput, startRaceInputSchema, writerInputSchema } from '@racelab/contracts';
import { type GraphQLInputType, getNamedType, isInputObjectType, isListType, isNonNullType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../src/graphql/schema';

const KINDS: Record<string, FieldInfo['kind']> = {
  String: 'text',
  Int: 'integer',
  Float: 'number',
  Boolean: 'boolean',
};

/** A list of objects (`list`) or of text (`texts`). */
const listKind = (list: GraphQLInputType): FieldInfo['kind'] =>
  isInputObjectType(getNamedType(list)) ? 'list' : 'texts';

/** An input type's fields as the schema's facts say them. */
function graphqlFields(name: string): FieldInfo[] {
  const type = schema.getType(name);
  if (!isInputObjectType(type)) throw new Error(`${name} is not an input type`);
  return Object.values(type.getFields()).map((f) => {
    const inner: GraphQLInputType = isNonNullType(f.type) ? f.type.ofType : f.type;
    return {
      key: f.name,
      kind: isListType(inner) ? listKind(inner) : (KINDS[getNamedType(inner).name] ?? 'text'),
      required: isNonNullType(f.type),
      ...(f.defaultValue !== undefined && { defaultValue: f.defaultValue }),
      ...(f.description != null && { description: f.description }),
    };
  });
}

describe('the race input types of the GraphQL schema', () => {
  it.each([
    ['StartRaceInput', startRaceInputSchema],
    ['WriterInput', writerInputSchema],
    ['KeyValueInput', keyValueInput],
  ] as const)('%s has exactly the fields of the schema', (name, contract) => {
    const byKey = (a: FieldInfo, b: FieldInfo) => a.key.localeCompare(b.key);
    expect(graphqlFields(name).sort(byKey)).toEqual(fieldsOf(contract).sort(byKey));
  });

  it('lists of writers and of key/value pairs are of the contract’s input types', () => {
    const listOf = (type: string, field: string) => {
      const t = schema.getType(type);
      return isInputObjectType(t) ? getNamedType(t.getFields()[field]?.type as GraphQLInputType).name : null;
    };
    expect([listOf('StartRaceInput', 'writers'), listOf('StartRaceInput', 'tableProperties')]).toEqual([
      'WriterInput',
      'KeyValueInput',
    ]);
    expect([listOf('WriterInput', 'set'), listOf('PredictConflictInput', 'first')]).toEqual([
      'KeyValueInput',
      'WriterInput',
    ]);
  });
});
