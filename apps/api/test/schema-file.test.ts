/**
 * The committed schema, `apps/api/schema.graphql`, is the schema the code builds, and it keeps the
 * published contract (`contracts/published/api.graphql`, the baseline users rely on): every type, field,
 * argument, enum value and input field there is here with a compatible type, and the contract's
 * defaults are kept. Extending is allowed; renaming or removing is not.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildSchema,
  DangerousChangeType,
  findBreakingChanges,
  findDangerousChanges,
  type GraphQLSchema,
  isInputObjectType,
  printSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { printedSchema, REGENERATE, SCHEMA_FILE } from '../src/schema-sdl';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CONTRACT = join(REPO, 'contracts', 'published', 'api.graphql');

const committed = readFileSync(SCHEMA_FILE, 'utf8');

/** Everything of `contract` that `schema` lacks or changed incompatibly, in words naming the place. */
function contractBreaks(contract: GraphQLSchema, schema: GraphQLSchema): string[] {
  const breaks = findBreakingChanges(contract, schema).map((c) => c.description);
  const argDefaults = findDangerousChanges(contract, schema)
    .filter((c) => c.type === DangerousChangeType.ARG_DEFAULT_VALUE_CHANGE)
    .map((c) => c.description);
  // graphql-js compares the defaults of arguments only; the contract's input fields have some too.
  const inputDefaults: string[] = [];
  for (const type of Object.values(contract.getTypeMap())) {
    const ours = schema.getType(type.name);
    if (!isInputObjectType(type) || !isInputObjectType(ours)) continue;
    for (const field of Object.values(type.getFields())) {
      const mine = ours.getFields()[field.name]?.defaultValue;
      if (field.defaultValue !== undefined && mine !== field.defaultValue) {
        inputDefaults.push(`${type.name}.${field.name} defaults to ${mine} instead of ${field.defaultValue}.`);
      }
    }
  }
  return [...breaks, ...argDefaults, ...inputDefaults];
}

describe('apps/api/schema.graphql', () => {
  it('is the schema the code builds', () => {
    expect(printSchema(buildSchema(committed)), `schema.graphql is out of date: run \`${REGENERATE}\``).toBe(
      printedSchema(),
    );
  });

  it('keeps everything of the public contract, extended, never renamed', () => {
    const contract = buildSchema(readFileSync(CONTRACT, 'utf8'));
    expect(contractBreaks(contract, buildSchema(committed))).toEqual([]);
  });

  it('the contract check names a renamed field, a removed enum value and a changed default', () => {
    const contract = buildSchema(readFileSync(CONTRACT, 'utf8'));
    const drifted = committed
      .replace('distinctTripIds: Int', 'distinctTrips: Int')
      .replace(/\n {2}CANCELLED\n/, '\n')
      .replace('runs: Int = 5', 'runs: Int = 3');
    expect(contractBreaks(contract, buildSchema(drifted))).toEqual([
      'CANCELLED was removed from enum type RaceStatus.',
      'TableCheck.distinctTripIds was removed.',
      'StartRaceInput.runs defaults to 3 instead of 5.',
    ]);
  });
});
