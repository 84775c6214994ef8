/**
 * The code audit as the API shows it: a stored audit (`CodeAuditResult`) holding the lab's result in the
 * contract's shape (contracts/code-audit.schema.json: settings, findings, files), each place a finding names
 * with the text of its code line (`snippet`), read from the scanned files while they were there.
 */
import type { CodeAudit, CodeSetting, FileProblem, SkippedFile } from '@racelab/lab';
import type { FindingWithSnippets, PlaceWithSnippet, StoredCodeAudit } from '../code-audit/snippets';
import type { CodeAudit as CodeAuditRow } from '../db/prisma';
import { ActorType, storedActorOf } from './actor-types';
import { builder } from './builder';

const SettingType = builder.objectRef<CodeSetting>('CodeSetting').implement({
  description: 'a setting that decides how concurrent commits behave, where its value is written',
  fields: (t) => ({
    file: t.exposeString('file', { description: 'relative to the scanned folder, with /' }),
    line: t.exposeInt('line', { description: "1-based, the value's first character" }),
    column: t.exposeInt('column'),
    endColumn: t.exposeInt('endColumn', { description: "just past the value's last character, on its last line" }),
    endLine: t.int({ nullable: true, resolve: (s) => s.endLine ?? null }),
    keyLine: t.int({
      nullable: true,
      description: 'where the key is, when on another line than the value',
      resolve: (s) => s.keyLine ?? null,
    }),
    key: t.exposeString('key'),
    value: t.exposeString('value', { nullable: true, description: 'null when the value is not a constant' }),
    raw: t.exposeString('raw', { description: 'the value exactly as written, quotes included' }),
    constant: t.exposeBoolean('constant'),
    kind: t.exposeString('kind', {
      description: 'table-property, commit-isolation, commit-retries, blind-append or spark-conf',
    }),
    via: t.exposeString('via'),
    language: t.exposeString('language'),
    table: t.string({ nullable: true, resolve: (s) => s.table ?? null }),
    writer: t.string({ nullable: true, description: 'delta-rs, spark, or null', resolve: (s) => s.writer }),
  }),
});

const PlaceType = builder.objectRef<PlaceWithSnippet>('CodePlace').implement({
  fields: (t) => ({
    file: t.exposeString('file'),
    line: t.exposeInt('line'),
    column: t.exposeInt('column'),
    endColumn: t.int({ nullable: true, resolve: (p) => p.endColumn ?? null }),
    message: t.string({ nullable: true, resolve: (p) => p.message ?? null }),
    snippet: t.string({
      nullable: true,
      description: "the code line's text (at most 400 characters); null when the file could not be read there",
      resolve: (p) => p.snippet ?? null,
    }),
  }),
});

const FindingType = builder.objectRef<FindingWithSnippets>('CodeFinding').implement({
  fields: (t) => ({
    rule: t.exposeString('rule'),
    severity: t.exposeString('severity', { description: 'error, warning or note' }),
    at: t.field({ type: PlaceType, resolve: (f) => f.at }),
    related: t.field({ type: [PlaceType], resolve: (f) => f.related }),
    table: t.string({ nullable: true, resolve: (f) => f.table ?? null }),
    evidence: t.exposeString('evidence'),
    fix: t.exposeString('fix'),
  }),
});

const SkippedType = builder.objectRef<SkippedFile>('CodeSkippedFile').implement({
  fields: (t) => ({ file: t.exposeString('file'), reason: t.exposeString('reason') }),
});

const ProblemType = builder.objectRef<FileProblem>('CodeFileProblem').implement({
  description: 'a file, or a part of one, that could not be read as its kind',
  fields: (t) => ({
    file: t.exposeString('file'),
    line: t.exposeInt('line'),
    column: t.exposeInt('column'),
    message: t.exposeString('message'),
  }),
});

const FilesType = builder.objectRef<CodeAudit['files']>('CodeAuditFiles').implement({
  fields: (t) => ({
    scanned: t.exposeInt('scanned', { description: 'files read' }),
    skipped: t.field({ type: [SkippedType], resolve: (f) => f.skipped }),
    unparseable: t.field({ type: [ProblemType], resolve: (f) => f.unparseable }),
  }),
});

const resultOf = (row: CodeAuditRow) => row.result as unknown as StoredCodeAudit;

export const CodeAuditResultType = builder.objectRef<CodeAuditRow>('CodeAuditResult').implement({
  description: 'one code audit, stored: the settings and findings read from a folder or an uploaded archive',
  fields: (t) => ({
    id: t.exposeID('id'),
    auditedAt: t.string({ resolve: (a) => a.createdAt.toISOString() }),
    source: t.exposeString('source', { description: 'the path as given, or "upload <name>"' }),
    failed: t.exposeBoolean('failed', { description: 'some finding is an error' }),
    startedBy: t.field({ type: ActorType, nullable: true, resolve: (r) => storedActorOf(r.startedBy) }),
    settings: t.field({ type: [SettingType], resolve: (a) => resultOf(a).settings }),
    findings: t.field({ type: [FindingType], resolve: (a) => resultOf(a).findings }),
    files: t.field({ type: FilesType, resolve: (a) => resultOf(a).files }),
  }),
});
