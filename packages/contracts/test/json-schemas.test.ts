/**
 * The JSON Schemas committed in contracts/ are the ones the code generates, and each keeps the published contract
 * (`contracts/published/*.schema.json`, the baseline users rely on): every property, type, enum value and
 * required-ness there is here too. The repository's own example documents pass the published schema, the generated
 * one and the code's check alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  checkCodeAudit,
  checkJobsManifest,
  checkLabResults,
  NOTHING_TO_COMMIT,
  nothingToCommitWords,
  writerOutcomeOf,
} from '../src/index';
import { CONTRACTS, CONTRACTS_FOLDER, type ContractFile, contractText, jsonSchemaOf } from '../src/json-schemas';

const REPO = join(import.meta.dirname, '..', '..', '..');
/** The published contracts: what the generated schemas must keep accepting. */
const PUBLISHED = join(REPO, 'contracts', 'published');

type Node = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: Node[];
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: Node | boolean;
  items?: Node;
};

const published = (file: string): Node => JSON.parse(readFileSync(join(PUBLISHED, file), 'utf8'));

/** The JSON types a node accepts ('any' for no constraint), its enum values, its object and array parts. */
function branches(node: Node): Node[] {
  return node.anyOf ? node.anyOf.flatMap(branches) : [node];
}
function typesOf(node: Node): string[] {
  return branches(node).flatMap((b) => {
    if (b.type) return Array.isArray(b.type) ? b.type : [b.type];
    if (b.enum) return b.enum.map((e) => (e === null ? 'null' : Number.isInteger(e) ? 'integer' : typeof e));
    return ['any'];
  });
}
const accepts = (ours: string[], type: string) =>
  ours.includes('any') || ours.includes(type) || (type === 'integer' && ours.includes('number'));
const part = (node: Node, key: 'properties' | 'items' | 'additionalProperties') =>
  branches(node).find((b) => b[key] !== undefined)?.[key];

/**
 * What `ours` does not keep of `theirs`, in words naming the place: a property, a type, an enum value, or a
 * required-ness it changed. Bounds on values (a minimum, a pattern) are the product's own and not compared.
 */
function notKept(theirs: Node, ours: Node, at = '(root)'): string[] {
  const lost: string[] = [];
  const ourTypes = typesOf(ours);
  for (const type of typesOf(theirs)) if (!accepts(ourTypes, type)) lost.push(`${at}: ${type} not accepted`);
  const ourEnum = branches(ours).flatMap((b) => b.enum ?? []);
  for (const value of theirs.enum ?? []) {
    if (ourEnum.length > 0 && !ourEnum.includes(value)) lost.push(`${at}: ${JSON.stringify(value)} not accepted`);
  }
  const ourProperties = (part(ours, 'properties') ?? {}) as Record<string, Node>;
  const ourRequired = branches(ours).flatMap((b) => b.required ?? []);
  for (const [key, node] of Object.entries(theirs.properties ?? {})) {
    const mine = ourProperties[key];
    if (!mine) lost.push(`${at}.${key}: missing`);
    else lost.push(...notKept(node, mine, `${at}.${key}`));
    const required = theirs.required?.includes(key) ?? false;
    if (mine && required !== ourRequired.includes(key)) {
      lost.push(`${at}.${key}: ${required ? 'required there, optional here' : 'optional there, required here'}`);
    }
  }
  const theirItems = theirs.items;
  const ourItems = part(ours, 'items') as Node | undefined;
  if (theirItems) lost.push(...(ourItems ? notKept(theirItems, ourItems, `${at}[]`) : [`${at}[]: items missing`]));
  const theirValues = theirs.additionalProperties;
  const ourValues = part(ours, 'additionalProperties');
  if (typeof theirValues === 'object') {
    lost.push(
      ...(typeof ourValues === 'object' ? notKept(theirValues, ourValues, `${at}{}`) : [`${at}{}: values missing`]),
    );
  }
  return lost;
}

describe('contracts/*.schema.json', () => {
  for (const file of Object.keys(CONTRACTS) as ContractFile[]) {
    it(`${file} is the schema the code generates`, () => {
      const committed = readFileSync(new URL(file, CONTRACTS_FOLDER), 'utf8');
      expect(committed, `contracts/${file} is out of date: run npm run contracts -w @racelab/contracts`).toBe(
        contractText(file),
      );
    });
  }

  for (const file of ['jobs-manifest.schema.json', 'lab-results.schema.json'] as const) {
    it(`${file} keeps everything of the published contract`, () => {
      expect(notKept(published(file), jsonSchemaOf(file) as Node)).toEqual([]);
    });
  }

  it('the superset check names what a schema drops or narrows', () => {
    const theirs: Node = {
      type: 'object',
      required: ['a'],
      properties: { a: { enum: ['x', 'y'] }, b: { type: ['integer', 'null'] }, c: { type: 'string' } },
    };
    const ours: Node = {
      type: 'object',
      required: ['a', 'c'],
      properties: { a: { type: 'string', enum: ['x'] }, b: { anyOf: [{ type: 'number' }] }, c: { type: 'string' } },
    };
    expect(notKept(theirs, ours)).toEqual([
      '(root).a: "y" not accepted',
      '(root).b: null not accepted',
      '(root).c: optional there, required here',
    ]);
  });
});

describe("the repository's example documents", () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  const examples = [
    ...['lab-results.json', 'lab-results-iceberg.json'].map((name) => ({
      name,
      file: 'lab-results.schema.json' as const,
      document: JSON.parse(readFileSync(join(REPO, 'docs', name), 'utf8')) as unknown,
      check: (d: unknown) => checkLabResults(d, name),
    })),
    {
      name: 'jobs-manifest.example.yaml',
      file: 'jobs-manifest.schema.json' as const,
      document: parse(readFileSync(join(REPO, 'docs', 'jobs-manifest.example.yaml'), 'utf8')) as unknown,
      check: (d: unknown) => checkJobsManifest(d),
    },
  ];

  for (const { name, file, document, check } of examples) {
    it(`docs/${name} passes the published schema, the generated one and the code's check`, () => {
      const theirs = ajv.compile(published(file));
      expect(theirs(document), JSON.stringify(theirs.errors)).toBe(true);
      const ours = ajv.compile(jsonSchemaOf(file));
      expect(ours(document), JSON.stringify(ours.errors)).toBe(true);
      expect(check(document)).toMatchObject({ ok: true });
    });
  }

  it('the generated schemas refuse what the checks refuse: an unknown key of a job, a scale above 1', () => {
    const manifest = ajv.compile(jsonSchemaOf('jobs-manifest.schema.json'));
    const job = { name: 'a', table: 't', engine: 'e', operation: 'append' };
    expect(manifest({ jobs: [{ ...job, 'x-owner': 'me' }] })).toBe(true);
    expect(manifest({ jobs: [{ ...job, retries: 3 }] })).toBe(false);
    const results = ajv.compile(jsonSchemaOf('lab-results.schema.json'));
    const [lab] = examples;
    expect(results({ ...(lab?.document as object), scale: 1.5 })).toBe(false);
  });

  it("a writer's outcome and the verdict's nothing-to-commit writers: accepted by schema and check, an unknown outcome refused", () => {
    const results = ajv.compile(jsonSchemaOf('lab-results.schema.json'));
    const lab = examples[0]?.document as { cases: { runs: { writers: object[]; verdict?: object }[] }[] };
    const withRun = (writer: object, verdict: object) => ({
      ...lab,
      cases: [{ ...lab.cases[0], runs: [{ ...lab.cases[0]?.runs[0], writers: [writer], verdict }] }],
    });
    const run = lab.cases[0]?.runs[0] as { writers: object[]; verdict: object };
    const nothing = {
      ...run.writers[0],
      committed: false,
      outcome: 'nothing-to-commit',
      warnings: ['nothing to commit'],
    };
    const listed = {
      ...run.verdict,
      nothingToCommit: [{ name: 'a', summary: "a's delete matched no rows: nothing to commit" }],
    };
    const good = withRun(nothing, listed);
    expect(results(good), JSON.stringify(results.errors)).toBe(true);
    expect(checkLabResults(good, 'f')).toMatchObject({ ok: true });
    const bad = withRun({ ...nothing, outcome: 'skipped' }, listed);
    expect(results(bad)).toBe(false);
    expect(checkLabResults(bad, 'f')).toMatchObject({ ok: false });
  });

  it("a writer's library, its version, real or emulated, and a real writer's log: accepted; another run kind refused", () => {
    const results = ajv.compile(jsonSchemaOf('lab-results.schema.json'));
    const lab = examples[0]?.document as { cases: { runs: { writers: object[] }[] }[] };
    const run = lab.cases[0]?.runs[0] as { writers: object[] };
    const withWriters = (writers: object[]) => ({ ...lab, cases: [{ ...lab.cases[0], runs: [{ ...run, writers }] }] });
    const real = { ...run.writers[0], library: 'delta-rs', libraryVersion: '1.6.6', run: 'real', log: 'Traceback …' };
    const emulated = {
      ...run.writers[0],
      library: 'delta-rs',
      libraryVersion: 'racelab-engine:0.1.0',
      run: 'emulated',
    };
    const good = withWriters([real, emulated]);
    expect(results(good), JSON.stringify(results.errors)).toBe(true);
    const checked = checkLabResults(good, 'f');
    expect(checked).toMatchObject({ ok: true });
    // The check keeps the fields (it drops only what it does not know).
    expect(checked.ok && checked.value.cases[0]?.runs[0]?.writers[0]).toMatchObject({
      run: 'real',
      libraryVersion: '1.6.6',
    });
    const bad = withWriters([{ ...real, run: 'simulated' }]);
    expect(results(bad)).toBe(false);
    expect(checkLabResults(bad, 'f')).toMatchObject({ ok: false });
  });

  it('writerOutcomeOf reads a writer without an outcome field from committed, errorMessage and warnings', () => {
    expect(writerOutcomeOf({ committed: false, errorMessage: null, warnings: [NOTHING_TO_COMMIT] })).toBe(
      'nothing-to-commit',
    );
    expect(writerOutcomeOf({ committed: false, errorMessage: 'refused', warnings: [NOTHING_TO_COMMIT] })).toBe(
      'failed',
    );
    expect(writerOutcomeOf({ committed: false, errorMessage: null, warnings: [] })).toBe('failed');
    expect(writerOutcomeOf({ committed: true, errorMessage: null })).toBe('committed');
    expect(nothingToCommitWords('delete')).toBe('matched no rows: nothing to commit');
  });

  it('the code audit schema and its check agree on a result, and refuse a column of 0 and an unknown kind', () => {
    const audit = ajv.compile(jsonSchemaOf('code-audit.schema.json'));
    const setting = {
      file: 'jobs/a.py',
      line: 3,
      column: 10,
      endColumn: 29,
      key: 'delta.isolationLevel',
      value: 'WriteSerializable',
      raw: "'WriteSerializable'",
      constant: true,
      kind: 'table-property',
      via: 'write_deltalake(configuration=…)',
      language: 'python',
      writer: 'delta-rs',
    };
    const finding = {
      rule: 'isolation-not-parsed',
      severity: 'error',
      at: { file: 'jobs/a.py', line: 3, column: 10 },
      related: [],
      evidence: 'e',
      fix: 'f',
    };
    const document = {
      settings: [setting],
      findings: [finding],
      files: { scanned: 1, skipped: [{ file: 'big.sql', reason: 'larger than 2 MB' }], unparseable: [] },
      failed: true,
    };
    expect(audit(document), JSON.stringify(audit.errors)).toBe(true);
    expect(checkCodeAudit(document)).toMatchObject({ ok: true });
    for (const bad of [
      { ...setting, column: 0 },
      { ...setting, kind: 'table-propery' },
    ]) {
      expect(audit({ ...document, settings: [bad] })).toBe(false);
      expect(checkCodeAudit({ ...document, settings: [bad] })).toMatchObject({ ok: false });
    }
  });
});
