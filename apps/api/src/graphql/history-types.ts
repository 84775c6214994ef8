/**
 * A table's history as the API shows it, field for field the lab's TableHistory (contracts/table-history.schema.json):
 * each commit as evidence (its writer, what it was concurrent with and how that is known), the concurrent commits
 * re-judged under every writer library and isolation level, keys present more than once, the findings and the
 * summary's figures. Timestamps are milliseconds since the epoch, as the log records them (Float: past Int's range).
 */
import type { TableHistory } from '@racelab/lab';
import { builder } from './builder';
import { KeyValue, pairs } from './key-value-types';

type HistoryCommit = TableHistory['commits'][number];
type HistoryWriter = HistoryCommit['writer'];
type HistorySummary = TableHistory['summary'];
type BusiestHour = NonNullable<HistorySummary['busiestHour']>;
type Rejudgement = TableHistory['rejudgements'][number];
type LibraryJudgement = Rejudgement['judgements'][number];
type DuplicateKeys = NonNullable<TableHistory['duplicates']>;
type DuplicateKey = DuplicateKeys['keys'][number];
type DuplicateSource = DuplicateKey['addedBy'][number];
type HistoryFinding = TableHistory['findings'][number];
type HistoryRange = TableHistory['range'];

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

const BusiestHourType = builder.objectRef<BusiestHour>('HistoryBusiestHour').implement({
  description: 'the hour (UTC) with the most concurrent commits',
  fields: (t) => ({
    start: t.exposeString('start', { description: "the hour's start, ISO 8601" }),
    commits: t.exposeInt('commits'),
    concurrentCommits: t.exposeInt('concurrentCommits'),
  }),
});

const HistorySummaryType = builder.objectRef<HistorySummary>('HistorySummary').implement({
  fields: (t) => ({
    commits: t.exposeInt('commits', { description: 'commits read' }),
    writers: t.exposeInt('writers', { description: 'distinct writers (library, version and app id)' }),
    concurrentCommits: t.exposeInt('concurrentCommits', { description: 'recorded and inferred' }),
    inferredConcurrentCommits: t.exposeInt('inferredConcurrentCommits'),
    unknownConcurrency: t.exposeInt('unknownConcurrency', { description: 'not known to be safe' }),
    longestConcurrentChain: t.exposeInt('longestConcurrentChain'),
    commitsPerHour: t.exposeFloat('commitsPerHour', { nullable: true }),
    busiestHour: t.field({ type: BusiestHourType, nullable: true, resolve: (s) => s.busiestHour }),
    duplicateKeys: t.exposeInt('duplicateKeys', {
      nullable: true,
      description: 'distinct keys present more than once; null without key',
    }),
  }),
});

const LibraryJudgementType = builder.objectRef<LibraryJudgement>('HistoryJudgement').implement({
  description: 'what one writer library under one isolation level would have done with the commit',
  fields: (t) => ({
    library: t.exposeString('library', { description: 'delta-rs, delta-rs-legacy, delta-spark or databricks' }),
    level: t.exposeString('level', { description: 'Serializable, WriteSerializable or SnapshotIsolation' }),
    outcome: t.exposeString('outcome', { description: 'commit, conflict or cannot-judge' }),
    conflict: t.exposeString('conflict', {
      nullable: true,
      description: "the conflict's kind, or why it cannot be judged",
    }),
    message: t.exposeString('message', { nullable: true }),
  }),
});

const RejudgementType = builder.objectRef<Rejudgement>('HistoryRejudgement').implement({
  fields: (t) => ({
    version: t.exposeInt('version'),
    judgements: t.field({ type: [LibraryJudgementType], resolve: (r) => r.judgements }),
    cannotJudge: t.exposeString('cannotJudge', { nullable: true, description: 'what the log lacks to judge it' }),
  }),
});

const DuplicateSourceType = builder.objectRef<DuplicateSource>('HistoryDuplicateSource').implement({
  description: 'a commit that added rows of a duplicated key',
  fields: (t) => ({
    version: t.exposeInt('version'),
    rows: t.exposeInt('rows'),
    writer: t.field({ type: HistoryWriterType, resolve: (s) => s.writer }),
    concurrent: t.exposeBoolean('concurrent', {
      description: 'concurrent with another commit that added the same key',
    }),
  }),
});

const DuplicateKeyType = builder.objectRef<DuplicateKey>('HistoryDuplicateKey').implement({
  fields: (t) => ({
    values: t.field({
      type: [KeyValue],
      description: "the key's values by column, as text",
      resolve: (d) => pairs(d.values),
    }),
    count: t.exposeInt('count', { description: 'rows holding it' }),
    addedBy: t.field({ type: [DuplicateSourceType], resolve: (d) => d.addedBy }),
  }),
});

const DuplicateKeysType = builder.objectRef<DuplicateKeys>('HistoryDuplicateKeys').implement({
  description: 'keys present more than once in the snapshot read (the latest, or atVersion)',
  fields: (t) => ({
    key: t.exposeStringList('key'),
    atVersion: t.exposeInt('atVersion'),
    distinct: t.exposeInt('distinct', { description: 'distinct keys present more than once' }),
    keys: t.field({ type: [DuplicateKeyType], description: 'the first ones, up to the bound', resolve: (d) => d.keys }),
    truncated: t.exposeBoolean('truncated', { description: 'more keys were found than are listed' }),
  }),
});

const HistoryFindingType = builder.objectRef<HistoryFinding>('HistoryFinding').implement({
  fields: (t) => ({
    rule: t.exposeString('rule'),
    severity: t.exposeString('severity', { description: 'error, warning or info' }),
    versions: t.exposeIntList('versions', { description: 'empty when it is about the log as a whole' }),
    evidence: t.exposeString('evidence'),
    fix: t.exposeString('fix'),
  }),
});

const HistoryRangeType = builder.objectRef<HistoryRange>('HistoryRange').implement({
  fields: (t) => ({
    fromVersion: t.exposeInt('fromVersion', { description: 'the oldest version read' }),
    latestVersion: t.exposeInt('latestVersion'),
    oldestKept: t.exposeInt('oldestKept', { description: 'the oldest commit file the log keeps' }),
    since: t.exposeString('since', { nullable: true }),
  }),
});

export const TableHistoryType = builder.objectRef<TableHistory>('TableHistory').implement({
  description: "what a table's own log says happened: docs/history.md",
  fields: (t) => ({
    location: t.exposeString('location'),
    range: t.field({ type: HistoryRangeType, resolve: (h) => h.range }),
    commits: t.field({ type: [HistoryCommitType], resolve: (h) => h.commits }),
    rejudgements: t.field({ type: [RejudgementType], resolve: (h) => h.rejudgements }),
    duplicates: t.field({ type: DuplicateKeysType, nullable: true, resolve: (h) => h.duplicates }),
    findings: t.field({ type: [HistoryFindingType], resolve: (h) => h.findings }),
    summary: t.field({ type: HistorySummaryType, resolve: (h) => h.summary }),
    failed: t.exposeBoolean('failed', { description: 'some finding is an error' }),
  }),
});
