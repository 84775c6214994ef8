/**
 * The contracts as JSON Schema (draft 2020-12), for people and other tools: what `npm run contracts` writes into
 * the repository's contracts/ folder. Rules between fields and the checks that need a parser (expressions, cron)
 * have no JSON Schema form and are left out; where a schema names its JSON Schema form itself
 * (`v.metadata({ jsonSchema })`: an enum kept as text for GraphQL, extension keys, a whole row) that is used.
 */
import { type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { codeAuditSchema } from './code-audit';
import { jobsManifestSchema } from './jobs-manifest';
import { labResultsSchema } from './lab-results';
import { startRaceInputSchema } from './race-input';
import { startSweepInputSchema } from './sweep-input';
import { sweepResultsSchema } from './sweep-results';
import { tableHistorySchema } from './table-history';

/** The repository's contracts/ folder, where the files are committed. */
export const CONTRACTS_FOLDER = new URL('../../../contracts/', import.meta.url);

/** Each file of contracts/ and the schema it is generated from; the names are those of the shared contracts. */
export const CONTRACTS = {
  'race-input.schema.json': {
    title: "Race input: what the API's startRace takes and the dashboard's form sends",
    schema: startRaceInputSchema,
  },
  'jobs-manifest.schema.json': {
    title: "Jobs manifest read by `npm run audit -- FILE` and the API's auditJobs: the jobs that write shared tables",
    schema: jobsManifestSchema(),
  },
  'lab-results.schema.json': {
    title: 'Lab results file written by `npm run lab -- --json FILE` and read by `npm run lab:report FILE`',
    schema: labResultsSchema,
  },
  'sweep-input.schema.json': {
    title: "Sweep input: what `npm run lab -- sweep` and the API's startSweep take",
    schema: startSweepInputSchema,
  },
  'sweep-results.schema.json': {
    title: 'Sweep results file written by `npm run lab -- sweep --json FILE` and stored by the API',
    schema: sweepResultsSchema,
  },
  'code-audit.schema.json': {
    title: "Code audit written by `npm run audit -- code PATH… --json FILE` and returned by the API's auditCode",
    schema: codeAuditSchema,
  },
  'table-history.schema.json': {
    title:
      "Table history written by `npm run audit -- history LOCATION --json FILE` and returned by the API's tableHistory",
    schema: tableHistorySchema,
  },
} satisfies Record<string, { title: string; schema: v.GenericSchema }>;

export type ContractFile = keyof typeof CONTRACTS;

const metadataOf = (action: unknown): JsonSchema | undefined =>
  (action as { type: string; metadata?: { jsonSchema?: JsonSchema } }).type === 'metadata'
    ? (action as { metadata: { jsonSchema?: JsonSchema } }).metadata.jsonSchema
    : undefined;

export function jsonSchemaOf(file: ContractFile): JsonSchema {
  const { title, schema } = CONTRACTS[file];
  const json = toJsonSchema(schema, {
    target: 'draft-2020-12',
    // A pipe whose first schema only refuses a list (notList) is converted from its last schema: the object.
    typeMode: 'output',
    ignoreActions: ['check', 'raw_check', 'finite'],
    // A custom schema (a map that keeps every key, a whole row) says its form in its metadata.
    overrideSchema: ({ valibotSchema }) => (valibotSchema.type === 'custom' ? {} : undefined),
    overrideAction: ({ valibotAction, jsonSchema }) => {
      const own = metadataOf(valibotAction);
      return own ? { ...jsonSchema, ...own } : undefined;
    },
  });
  const { $schema, ...rest } = json;
  return { $schema, title, ...rest };
}

/** A file's text as committed: the schema as JSON, two-space indented, one trailing newline. */
export const contractText = (file: ContractFile) => `${JSON.stringify(jsonSchemaOf(file), null, 2)}\n`;
