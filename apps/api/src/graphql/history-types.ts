/**
 * A table's history as the API shows it, field for field the lab's TableHistory (contracts/table-history.schema.json):
 * each commit as evidence (its writer, what it was concurrent with and how that is known), the concurrent commits
 * re-judged under every writer library and isolation level, keys present more than once, the findings and the
 * summary's figures. Timestamps are milliseconds since the epoch, as the log records them (Float: past Int's range).
 */
import type {
  DuplicateKey,
  HistoryCommit,
  HistoryFinding,
  HistorySummary,
  HistoryVerdict,
  HistoryWriter,
  Rejudgement,
  TableHistory,
} from '@racelab/lab';
import { builder } from './builder';

const HistoryWriterType = builder.objectRef<HistoryWriter>('HistoryWriter').implement({
  description: 'who made a commit, as its commitInfo and txn actions say',
  fields: (t) => ({
    library: t.exposeString('library', {
      nullable: true,
      description: 'delta-rs, delta-spark or databricks when commitInfo names one; else null',
    }),
    version: t.exposeString('version', { nullable: true }),
    engineInfo: t.exposeString('engineInfo', { nullable: true }),
    appId: t.exposeString('appId', { nullable: true, description: "a txn action's appId, or the job's ids" }),
    userMetadata: t.exposeString('userMetadata', { nullable: true }),
  }),
});

const HistoryCommitType = builder.objectRef<HistoryCommit>('HistoryCommit').implement({
  fields: (t) => ({
    version: t.exposeInt('version'),
    timestamp: t.exposeFloat('timestamp', { nullable: true, description: 'ms since the epoch' }),
    startedAt: t.exposeFloat('startedAt', {
      nullable: true,
      description: 'timestamp − operationMetrics.execution_time_ms, when both are recorded',
    }),
    operation: t.exposeString('operation', { nullable: true }),
    predicate: t.exposeString('predicate', { nullable: true }),
    readVersion: t.exposeInt('readVersion', { nullable: true }),
    isolationLevel: t.exposeString('isolationLevel', { nullable: true, description: "commitInfo's, as recorded" }),
    isBlindAppend: t.exposeBoolean('isBlindAppend', { nullable: true }),
    isolationProperty: t.exposeString('isolationProperty', {
      nullable: true,
      description: "the table's delta.isolationLevel in force when the commit was made",
    }),
    writer: t.field({ type: HistoryWriterType, resolve: (c) => c.writer }),
    concurrentWith: t.exposeIntList('concurrentWith', {
      description: "the versions that landed between the commit's read and its own landing",
    }),
    evidence: t.exposeString('evidence', { description: 'recorded, inferred or unknown' }),
    adds: t.exposeInt('adds'),
    removes: t.exposeInt('removes'),
  }),
});

const HistorySummaryType = builder.objectRef<HistorySummary>('HistorySummary').implement({
  fields: (t) => ({
    commits: t.exposeInt('commits'),
    writers: t.exposeInt('writers'),
    concurrentCommits: t.exposeInt('concurrentCommits', { description: 'recorded and inferred' }),
    inferredConcurrentCommits: t.exposeInt('inferredConcurrentCommits'),
    unknownConcurrency: t.exposeInt('unknownConcurrency'),
    duplicateKeys: t.exposeInt('duplicateKeys', { description: 'distinct keys present more than once' }),
    longestConcurrentChain: t.exposeInt('longestConcurrentChain'),
    commitsPerHour: t.exposeFloat('commitsPerHour', { nullable: true }),
    busiestHour: t.exposeString('busiestHour', {
      nullable: true,
      description: 'the start of the hour with the most concurrent commits, ISO 8601',
    }),
  }),
});

const HistoryVerdictType = builder.objectRef<HistoryVerdict>('HistoryVerdict').implement({
  description: 'what one writer library under one isolation level would have done with the commit',
  fields: (t) => ({
    library: t.exposeString('library'),
    isolationLevel: t.exposeString('isolationLevel'),
    outcome: t.exposeString('outcome', { description: 'commits, conflicts or cannot-judge' }),
    conflict: t.exposeString('conflict', { nullable: true, description: 'the conflict kind, when it conflicts' }),
    message: t.exposeString('message', { nullable: true }),
  }),
});

const RejudgementType = builder.objectRef<Rejudgement>('HistoryRejudgement').implement({
  fields: (t) => ({
    version: t.exposeInt('version'),
    verdicts: t.field({ type: [HistoryVerdictType], resolve: (r) => r.verdicts }),
    cannotJudge: t.exposeString('cannotJudge', { nullable: true, description: 'what the log lacks to judge it' }),
  }),
});

const DuplicateKeyType = builder.objectRef<DuplicateKey>('HistoryDuplicateKey').implement({
  fields: (t) => ({
    key: t.field({
      type: ['String'],
      nullable: { list: false, items: true },
      description: "the key's values, in the key columns' order, as text",
      resolve: (d) => d.key,
    }),
    rows: t.exposeInt('rows'),
    versions: t.exposeIntList('versions', { description: 'the commits that added its rows' }),
    concurrent: t.exposeBoolean('concurrent', { description: 'those commits were concurrent with one another' }),
  }),
});

const HistoryFindingType = builder.objectRef<HistoryFinding>('HistoryFinding').implement({
  fields: (t) => ({
    rule: t.exposeString('rule'),
    severity: t.exposeString('severity', { description: 'error, warning or info' }),
    versions: t.exposeIntList('versions'),
    evidence: t.exposeString('evidence'),
    fix: t.exposeString('fix'),
  }),
});

export const TableHistoryType = builder.objectRef<TableHistory>('TableHistory').implement({
  description: "what a table's own log says happened: docs/history.md",
  fields: (t) => ({
    location: t.exposeString('location'),
    fromVersion: t.exposeInt('fromVersion', { nullable: true }),
    toVersion: t.exposeInt('toVersion', { nullable: true }),
    key: t.exposeStringList('key'),
    commits: t.field({ type: [HistoryCommitType], resolve: (h) => h.commits }),
    summary: t.field({ type: HistorySummaryType, resolve: (h) => h.summary }),
    rejudgements: t.field({ type: [RejudgementType], resolve: (h) => h.rejudgements }),
    duplicates: t.field({ type: [DuplicateKeyType], resolve: (h) => h.duplicates }),
    findings: t.field({ type: [HistoryFindingType], resolve: (h) => h.findings }),
    notes: t.exposeStringList('notes', { description: 'what was not read and why' }),
    failed: t.exposeBoolean('failed', { description: 'some finding is an error' }),
  }),
});
