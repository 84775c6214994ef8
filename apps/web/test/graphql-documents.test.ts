/**
 * The dashboard's GraphQL against the API's committed schema (`apps/api/schema.graphql`): its typing
 * is generated from that file, and every document it sends is valid there. The type check proves the
 * fields a document selects; this proves the rest (arguments, their types), as the API will see it.
 */
import { readFileSync } from 'node:fs';
import { buildSchema, type DocumentNode, print, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import * as codeAudit from '../lib/code-audit';
import * as history from '../lib/history';
import * as isolation from '../lib/isolation';
import * as jobs from '../lib/jobs';
import * as labTables from '../lib/playground/lab-tables';
import * as measured from '../lib/playground/measured';
import * as yourTable from '../lib/playground/your-table';
import * as races from '../lib/races';
import * as sweeps from '../lib/sweeps';
import { GRAPHQL_ENV_FILE, graphqlEnv, SCHEMA_SDL_FILE } from '../scripts/graphql-env';

const sdl = readFileSync(SCHEMA_SDL_FILE, 'utf8');
const schema = buildSchema(sdl);

const isDocument = (value: unknown): value is DocumentNode =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Document';

/** Every document the lib modules export, by name. */
const documents = Object.entries({
  ...codeAudit,
  ...history,
  ...isolation,
  ...jobs,
  ...labTables,
  ...measured,
  ...races,
  ...sweeps,
  ...yourTable,
}).filter((entry): entry is [string, DocumentNode] => isDocument(entry[1]));

describe('the dashboard against schema.graphql', () => {
  it('lib/graphql/graphql-env.d.ts is generated from it', () => {
    expect(readFileSync(GRAPHQL_ENV_FILE, 'utf8'), 'run `npm run schema -w @racelab/api`').toBe(graphqlEnv(sdl));
  });

  it('finds the documents of every page', () => {
    expect(documents.map(([name]) => name).sort()).toEqual([
      'ADVICE_QUERY',
      'AUDITS_QUERY',
      'AUDIT_CODE',
      'AUDIT_JOBS',
      'AUDIT_TABLES_MUTATION',
      'CANCEL_RACE',
      'CASES',
      'CODE_AUDITS_QUERY',
      'CODE_AUDIT_QUERY',
      'JOB_AUDITS_QUERY',
      'JOB_AUDIT_QUERY',
      'MATRIX_QUERY',
      'MEASURED_QUERY',
      'PROGRESS',
      'RACE',
      'RACES',
      'REAL_LIBRARIES',
      'START_RACE',
      'START_SWEEP',
      'SWEEPS_QUERY',
      'SWEEP_PROGRESS',
      'SWEEP_QUERY',
      'TABLE_HISTORY_QUERY',
      'TABLE_LAYOUT_QUERY',
      'YOUR_FORECAST_QUERY',
      'YOUR_LAYOUT_QUERY',
    ]);
  });

  it.each(documents)('%s is valid', (_, document) => {
    expect(validate(schema, document).map((e) => e.message)).toEqual([]);
  });

  it('the readings of many values are one valid query, one alias and one variable per value', () => {
    const document = isolation.interpretationsQuery(3) as DocumentNode;
    expect(validate(schema, document).map((e) => e.message)).toEqual([]);
    const text = print(document);
    expect(text).toContain('query Interpretations($v0: String!, $v1: String!, $v2: String!)');
    for (const v of ['v0', 'v1', 'v2']) {
      expect(text).toContain(`${v}: isolationLevelInterpretation(value: $${v}) {`);
    }
  });
});
