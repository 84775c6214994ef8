/**
 * The Delta Spark model against the 42 scenarios of fixtures/spark-conflict-scenarios.json (36 from
 * Delta Spark's own conflict tests at v4.4.0, 6 derived for the levels its DDL cannot set; delta-rs
 * 1.6.x's checker runs on each too, for contrast), then the one entry every forecast uses,
 * `checkerFor`, on the situations the three engines judge apart. Modelled, not measured: Spark does
 * not run here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type Action,
  type Add,
  CHECKED_LIBRARIES,
  type CheckedLibrary,
  checkConflicts,
  checkerFor,
  checkSparkConflicts,
  checkSparkWinner,
  effectiveIsolationLevel,
  filesMatchingPredicate,
  type LibraryTransaction,
  type Metadata,
  parsePredicate,
  type SparkTransaction,
  type StructType,
  sparkCommitInfoJson,
  sparkCommitIsolationLevel,
  sparkIsBlindAppend,
  sparkIsolationLevel,
  type TransactionReads,
} from '../src/conflict';
import { type Json, logAction, schemaOf } from './helpers/scenario-json';

const fixture: Json = JSON.parse(
  readFileSync(new URL('./fixtures/spark-conflict-scenarios.json', import.meta.url), 'utf8'),
);
const scenarios: Json[] = fixture.scenarios;

function sparkTxnOf(s: Json): SparkTransaction {
  const t = s.transaction;
  const values = new Map(s.table.files.map((f: Json) => [f.path, f.partitionValues]));
  return {
    protocol: s.table.protocol,
    metadata: s.table.metaData as Metadata,
    readPredicates: t.readPredicates.map((p: Json) => (p.partition ? parsePredicate(p.partition, schemaOf(s)) : null)),
    readFiles: t.readFiles.map((path: string) => ({ path, partitionValues: values.get(path) ?? null })),
    readWholeTable: t.readWholeTable,
    readAppIds: t.readAppIds,
    actions: t.actions.map(logAction),
    operation: t.operation,
    operationChangesData: t.operationChangesData,
  };
}

/**
 * The same transaction as delta-rs sees it: one read predicate, the OR of the scans' (partition AND
 * data) parts, and the files it could see; `deltaRs.as` overrides where the scenario assumes a mapping.
 */
function deltaRsReads(s: Json): TransactionReads {
  const t = s.transaction;
  const as = s.deltaRs.as ?? {};
  const scans: string[] = t.readPredicates.map(
    (p: Json) => [p.partition, p.data].flatMap((x) => (x ? [`(${x})`] : [])).join(' AND ') || 'TRUE',
  );
  const text: string | null =
    'readPredicate' in as ? as.readPredicate : scans.length > 0 ? scans.map((x) => `(${x})`).join(' OR ') : null;
  const predicate = text === null ? null : parsePredicate(text, schemaOf(s));
  const files = s.table.files.map((f: Json) => (logAction({ add: f }) as { add: Add }).add);
  return {
    readVersion: s.table.readVersion,
    protocol: s.table.protocol,
    readPredicate: predicate,
    readWholeTable: t.readWholeTable,
    readFiles: new Set(filesMatchingPredicate(files, predicate).map((f) => f.path)),
    actions: t.actions.map(logAction),
    operation: 'operation' in as ? as.operation : t.operation,
    operationChangesData: t.operationChangesData,
  };
}

const winnersOf = (s: Json) => s.winners.map((w: Json) => ({ version: w.version, actions: w.actions.map(logAction) }));
const simpleName = (exceptionClass: string) => exceptionClass.slice(exceptionClass.lastIndexOf('.') + 1);

it('is labelled modelled, not measured, and names the commits it was read from', () => {
  expect(fixture.modelled).toMatch(/^not measured/);
  expect(fixture.read['delta-spark']).toContain('88c008d55b38fb8f49a9a80982004cb5b06a2b59');
  expect(scenarios).toHaveLength(42);
  expect(scenarios.filter((s) => s.origin.kind === 'delta-spark-test')).toHaveLength(36);
  for (const s of scenarios.filter((x) => x.origin.kind === 'delta-spark-test')) {
    expect(s.origin.file).toMatch(/^spark\/src\/test\/scala\/.+(Suite|Tests)\.scala$/);
    expect(s.origin.line).toBeGreaterThan(0);
    expect(s.origin.test).toBeTruthy();
  }
});

describe.each(scenarios.map((s) => [s.id, s]))('scenario %s', (_id, s: Json) => {
  const e = s.expected;
  const txn = sparkTxnOf(s);

  it('reads the isolation level as Spark does', () => {
    const read = sparkIsolationLevel(s.table.configuration);
    expect('level' in read ? read.level : null).toBe(e.effectiveIsolationLevel);
    if ('level' in read) expect(sparkCommitIsolationLevel(txn, read.level)).toBe(e.commitIsolationLevel);
  });

  if (e.currentIsBlindAppend !== null) {
    it(`computes isBlindAppend = ${e.currentIsBlindAppend}`, () => {
      expect(sparkIsBlindAppend(txn)).toBe(e.currentIsBlindAppend);
    });
  }

  it(`ends ${e.outcome}`, () => {
    const c = checkSparkConflicts(txn, winnersOf(s), { tableName: '<tableName>' });
    expect(c ? simpleName(c.exceptionClass) : 'OK').toBe(e.outcome);
    expect(c?.check ?? null).toBe(e.decidedBy);
    expect(c?.winnerVersion ?? null).toBe(e.failingWinnerVersion);
    if (!c) return;
    expect(c.exceptionClass).toBe(e.exceptionClass);
    expect(c.errorClass).toBe(e.errorClass);
    const winner = s.winners.find((w: Json) => w.version === e.failingWinnerVersion);
    const info = winner?.actions.find((a: Json) => a.commitInfo)?.commitInfo;
    const quoted = info ? sparkCommitInfoJson(info, winner.version) : '';
    expect(c.message).toBe(e.message.replace('<winner commitInfo JSON>', quoted));
  });

  it(`delta-rs 1.6.x, for contrast, says ${s.deltaRs.outcome}`, () => {
    const c = checkConflicts(deltaRsReads(s), winnersOf(s), effectiveIsolationLevel(s.table.configuration));
    expect(c?.kind ?? 'OK').toBe(s.deltaRs.outcome);
  });
});

describe('the parts the scenarios leave open', () => {
  const s = scenarios.find((x) => x.id === 'spark-ots-schema-change');
  const table = { configuration: {}, metaData: s.table.metaData as Metadata };
  const blindTxn = (actions: Action[]): SparkTransaction => ({
    ...sparkTxnOf(s),
    readPredicates: [],
    readFiles: [],
    actions,
  });

  it("quotes the winner's commitInfo in Spark's field order, version first, fields it does not know dropped", () => {
    const json = sparkCommitInfoJson(
      { clientVersion: 'delta-rs.0.26', isBlindAppend: true, operation: 'WRITE', timestamp: 7, tags: { n: 1 } },
      3,
    );
    expect(json).toBe('{"version":3,"timestamp":7,"operation":"WRITE","isBlindAppend":true,"tags":{"n":"1"}}');
  });

  it('reads delta.isolationLevel by its exact key and any case of the value; unset is the engine default', () => {
    expect(sparkIsolationLevel({ 'delta.isolationLevel': 'wRiTeSeRiAlIzAbLe' })).toEqual({
      level: 'WriteSerializable',
    });
    expect(sparkIsolationLevel({ 'delta.isolationlevel': 'WriteSerializable' })).toEqual({ level: 'Serializable' });
    expect(sparkIsolationLevel({}, 'WriteSerializable')).toEqual({ level: 'WriteSerializable' });
    expect(sparkIsolationLevel({ 'delta.isolationLevel': ' Serializable' })).toEqual({ invalid: ' Serializable' });
    expect(sparkIsolationLevel({ 'delta.isolationLevel': null })).toEqual({ invalid: null });
  });

  it('reads the level from the metadata the transaction itself commits', () => {
    const own = { ...table.metaData, configuration: { 'delta.isolationLevel': 'nonsense' } };
    const c = checkSparkConflicts(blindTxn([{ metaData: own }]), []);
    expect(c).toMatchObject({ kind: 'InvalidIsolationLevel', winnerVersion: null });
    expect(c?.message).toBe("[DELTA_INVALID_ISOLATION_LEVEL] invalid isolation level 'nonsense'");
  });

  it('fails on a domain both transactions write, once the protocol supports domain metadata', () => {
    const domain = { domainMetadata: { domain: 'team.watermark', configuration: '{}', removed: false } };
    const winner = { version: 2, actions: [{ commitInfo: { operation: 'WRITE' } }, domain] };
    const txn = blindTxn([domain]);
    expect(checkSparkWinner(txn, winner)).toBeNull();
    const supported = {
      ...txn,
      protocol: { minReaderVersion: 1, minWriterVersion: 7, writerFeatures: ['domainMetadata'] },
    };
    expect(checkSparkWinner(supported, winner)).toMatchObject({
      kind: 'ConcurrentTransaction',
      check: 'domainMetadata',
      exceptionClass: 'io.delta.exceptions.ConcurrentTransactionException',
      errorClass: null,
      message: 'A conflicting metadata domain team.watermark is added.',
    });
    const rowTracking = { domainMetadata: { domain: 'delta.rowTracking', configuration: '{}', removed: false } };
    expect(
      checkSparkWinner({ ...supported, actions: [rowTracking] }, { version: 2, actions: [rowTracking] }),
    ).toBeNull();
  });

  it('adopts a protocol upgrade, and judges the next winner with its features', () => {
    const dv = {
      minReaderVersion: 3,
      minWriterVersion: 7,
      readerFeatures: ['deletionVectors'],
      writerFeatures: ['deletionVectors'],
    };
    const enable = { ...table.metaData, configuration: { 'delta.enableDeletionVectors': 'true' } };
    const txn = blindTxn([{ add: { path: 'n', partitionValues: {}, size: 0, modificationTime: 0, dataChange: true } }]);
    // Enabling DVs without the feature in the protocol is not on the allow-list's terms.
    expect(checkSparkWinner(txn, { version: 2, actions: [{ metaData: enable }] })?.kind).toBe('MetadataChanged');
    expect(
      checkSparkConflicts(txn, [
        { version: 2, actions: [{ protocol: { ...dv, minReaderVersion: 3 } }] },
        { version: 3, actions: [{ metaData: enable }] },
      ]),
    ).toBeNull();
    // A winner dropping a feature the read protocol had fails it.
    expect(
      checkSparkWinner(
        { ...txn, protocol: dv },
        {
          version: 2,
          actions: [{ protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: [], writerFeatures: [] } }],
        },
      )?.kind,
    ).toBe('ProtocolChanged');
  });

  it('judges each winner against the metadata the previous one left', () => {
    const enabled = { ...table.metaData, configuration: { 'delta.columnMapping.maxColumnId': '5' } };
    const txn = blindTxn([]);
    expect(checkSparkWinner(txn, { version: 2, actions: [{ metaData: enabled }] })).toBeNull();
    // After adopting the first, the second winner's (the read metadata again) unsets a property.
    expect(
      checkSparkConflicts(txn, [
        { version: 2, actions: [{ metaData: enabled }] },
        { version: 3, actions: [{ metaData: table.metaData }] },
      ]),
    ).toMatchObject({ kind: 'MetadataChanged', winnerVersion: 3 });
  });

  it('a transaction that removes without reading sees every added file of an unpartitioned table only', () => {
    const remove: Action = { remove: { path: 'a', dataChange: true } };
    const winner = {
      version: 2,
      actions: [{ add: { path: 'n', partitionValues: { x: '1' }, size: 0, modificationTime: 0, dataChange: true } }],
    };
    const flatTable = blindTxn([remove]);
    expect(sparkIsBlindAppend(flatTable)).toBe(false);
    expect(flatTable.metadata.partitionColumns).toEqual([]);
    expect(checkSparkWinner(flatTable, winner)?.kind).toBe('ConcurrentAppend');
    const x = scenarios.find((s) => s.id === 'spark-ots-add-read-write');
    const onPartitions = { ...sparkTxnOf(x), readPredicates: [], actions: [remove] };
    expect(checkSparkWinner(onPartitions, winner)).toBeNull();
  });

  it('Databricks mode fails every winning protocol or metaData, identity high-water marks included', () => {
    const id = scenarios.find((x) => x.id === 'spark-identity-insert-vs-generated-id');
    expect(checkSparkConflicts(sparkTxnOf(id), winnersOf(id))).toBeNull();
    expect(checkSparkConflicts(sparkTxnOf(id), winnersOf(id), { tableChanges: 'failAll' })?.kind).toBe(
      'MetadataChanged',
    );
    const fe = scenarios.find((x) => x.id === 'spark-fe-dv-enable-vs-delete');
    expect(checkSparkConflicts(sparkTxnOf(fe), winnersOf(fe), { tableChanges: 'failAll' })?.kind).toBe(
      'ProtocolChanged',
    );
  });
});

describe('checkerFor: one signature, three engines', () => {
  const schema: StructType = {
    type: 'struct',
    fields: [
      { name: 'part', type: 'string', nullable: true, metadata: {} },
      { name: 'VendorID', type: 'integer', nullable: true, metadata: {} },
    ],
  };
  const file = (path: string, part: string | null, lo: number, hi: number): Add => ({
    path,
    partitionValues: part === null ? {} : { part },
    size: 0,
    modificationTime: 0,
    dataChange: true,
    stats: JSON.stringify({ numRecords: 10, minValues: { VendorID: lo }, maxValues: { VendorID: hi }, nullCount: {} }),
  });
  /** A loser with nothing read or written yet; each test says what differs. */
  const loserWith = (own: Partial<LibraryTransaction>): LibraryTransaction => ({
    readVersion: 0,
    protocol: { minReaderVersion: 1, minWriterVersion: 2 },
    readPredicate: null,
    readWholeTable: false,
    readFiles: new Set(),
    actions: [],
    operation: 'WRITE',
    operationChangesData: true,
    isBlindAppend: false,
    partitionColumns: [],
    ...own,
  });
  /** Version 1, written by `operation` with no isBlindAppend (as delta-rs writes it). */
  const commitBy = (operation: string, ...actions: Action[]) => ({
    version: 1,
    actions: [{ commitInfo: { operation } }, ...actions],
  });

  /** An UPDATE of `predicate` that rewrites every file it could see, as the simulation builds it. */
  function update(files: Add[], predicate: string, partitionColumns: string[]): LibraryTransaction {
    const parsed = parsePredicate(predicate, schema);
    const read = filesMatchingPredicate(files, parsed);
    return loserWith({
      readPredicate: parsed,
      readFiles: new Set(read.map((f) => f.path)),
      actions: [
        ...read.map((f) => ({ remove: { path: f.path, dataChange: true, partitionValues: f.partitionValues } })),
        { add: { ...file('new', read[0]?.partitionValues.part ?? null, 1, 7), path: 'new' } },
      ],
      operation: 'UPDATE',
      partitionColumns,
    });
  }
  const appendBy = (engine: CheckedLibrary, add: Add) => ({
    version: 1,
    actions: [
      { commitInfo: { operation: 'WRITE', ...(engine !== 'delta-rs' && { isBlindAppend: true }) } },
      { add },
    ] as Action[],
  });
  const verdicts = (loser: LibraryTransaction, winner: Json, configuration: Record<string, string>) =>
    Object.fromEntries(
      CHECKED_LIBRARIES.map((e) => [e, checkerFor(e)(loser, winner, configuration)?.kind ?? 'commits']),
    );

  const flat = [file('f1', null, 1, 7), file('f2', null, 1, 7)];

  it("the issue's daily-append → vendor2-tips: capital-W WriteSerializable lets Spark's update through, not delta-rs's", () => {
    const loser = update(flat, 'VendorID = 2', []);
    const sparkAppend = appendBy('delta-spark', file('a', null, 1, 7));
    expect(verdicts(loser, sparkAppend, { 'delta.isolationLevel': 'WriteSerializable' })).toEqual({
      'delta-rs': 'ConcurrentAppend',
      'delta-spark': 'commits',
      databricks: 'commits',
    });
    // Unset: only Databricks defaults to WriteSerializable.
    expect(verdicts(loser, sparkAppend, {})).toEqual({
      'delta-rs': 'ConcurrentAppend',
      'delta-spark': 'ConcurrentAppend',
      databricks: 'commits',
    });
    // A delta-rs append never says it is blind, so every engine counts it; Spark ignores the stats.
    expect(
      verdicts(loser, appendBy('delta-rs', file('a', null, 1, 1)), { 'delta.isolationLevel': 'writeSerializable' }),
    ).toEqual({
      'delta-rs': 'commits',
      'delta-spark': 'ConcurrentAppend',
      databricks: 'ConcurrentAppend',
    });
  });

  it('gives Spark conflicts their exception, error class and exact message, and delta-rs its error text', () => {
    const loser = update(flat, 'VendorID = 2', []);
    const winner = appendBy('delta-rs', file('a', null, 1, 7));
    expect(checkerFor('delta-spark')(loser, winner, {})).toEqual({
      kind: 'ConcurrentAppend',
      check: 'concurrentAppend',
      winnerVersion: 1,
      exceptionClass: 'io.delta.exceptions.ConcurrentAppendException',
      errorClass: 'DELTA_CONCURRENT_APPEND.WITHOUT_HINT',
      message:
        '[DELTA_CONCURRENT_APPEND.WITHOUT_HINT] Transaction conflict detected. a concurrent WRITE added data to table delta.`<table path>` committed at version 1. The concurrent operation modified data that should have been read by this operation. Please retry the operation. Refer to https://docs.delta.io/latest/concurrency-control.html for more information.',
      error:
        '[DELTA_CONCURRENT_APPEND.WITHOUT_HINT] Transaction conflict detected. a concurrent WRITE added data to table delta.`<table path>` committed at version 1. The concurrent operation modified data that should have been read by this operation. Please retry the operation. Refer to https://docs.delta.io/latest/concurrency-control.html for more information.',
    });
    const rs = checkerFor('delta-rs')(loser, winner, {});
    expect(rs).toMatchObject({ kind: 'ConcurrentAppend', exceptionClass: 'CommitFailedError', errorClass: null });
    expect(rs?.error).toBe(`Failed to commit transaction: ${rs?.message}`);
  });

  it('on a partitioned table Spark reads only the partition part of the predicate, and hints the partition', () => {
    const files = [file('p1', '1', 1, 7), file('p2', '2', 1, 7)];
    const loser = update(files, "part = '1' AND VendorID = 2", ['part']);
    const other = appendBy('delta-rs', file('a', '2', 2, 2));
    expect(verdicts(loser, other, {})).toEqual({
      'delta-rs': 'commits',
      'delta-spark': 'commits',
      databricks: 'commits',
    });
    // Same partition, stats that rule the predicate out: delta-rs prunes by stats, Spark never does.
    const same = appendBy('delta-rs', file('a', '1', 9, 9));
    expect(verdicts(loser, same, {})).toEqual({
      'delta-rs': 'commits',
      'delta-spark': 'ConcurrentAppend',
      databricks: 'ConcurrentAppend',
    });
    expect(checkerFor('delta-spark')(loser, same, {})?.message).toContain(
      'modified data in the partition [part=1] that',
    );
    // Its read file removed by the winner: the hint comes from the file's partition.
    const del = commitBy('DELETE', { remove: { path: 'p1', dataChange: true, partitionValues: { part: '1' } } });
    expect(checkerFor('delta-spark')(loser, del, {})?.errorClass).toBe(
      'DELTA_CONCURRENT_DELETE_READ.WITH_PARTITION_HINT',
    );
  });

  it('a Spark blind append reads nothing: a concurrent delete does not fail it, as it fails delta-rs', () => {
    const loser = loserWith({
      readFiles: new Set(flat.map((f) => f.path)),
      actions: [{ add: file('n', null, 1, 1) }],
      isBlindAppend: true,
    });
    const del = commitBy('DELETE', { remove: { path: 'f1', dataChange: true } });
    expect(verdicts(loser, del, {})).toEqual({
      'delta-rs': 'ConcurrentDeleteRead',
      'delta-spark': 'commits',
      databricks: 'commits',
    });
  });

  it('an unparseable level fails every Spark commit with no winner at all, and none of delta-rs', () => {
    const loser = update(flat, 'VendorID = 2', []);
    const conf = { 'delta.isolationLevel': 'write_serializable' };
    expect(checkerFor('delta-rs')(loser, null, conf)).toBeNull();
    for (const engine of ['delta-spark', 'databricks'] as const) {
      expect(checkerFor(engine)(loser, null, conf)).toMatchObject({
        kind: 'InvalidIsolationLevel',
        check: 'isolationLevel',
        winnerVersion: null,
        exceptionClass: 'org.apache.spark.sql.delta.DeltaIllegalArgumentException',
        message: "[DELTA_INVALID_ISOLATION_LEVEL] invalid isolation level 'write_serializable'",
      });
    }
    expect(checkerFor('delta-spark')(loser, null, {})).toBeNull();
  });

  it("Spark's OPTIMIZE reads only what it compacts and outlives a conflict that leaves those files", () => {
    const files = [...flat, file('f3', null, 1, 7)];
    const loser = loserWith({
      readFiles: new Set(files.map((f) => f.path)),
      actions: [
        { remove: { path: 'f1', dataChange: false } },
        { remove: { path: 'f2', dataChange: false } },
        { add: { ...file('c', null, 1, 7), dataChange: false } },
      ],
      operation: 'OPTIMIZE',
      operationChangesData: false,
    });
    const removing = (path: string) => commitBy('DELETE', { remove: { path, dataChange: true } });
    expect(verdicts(loser, removing('f3'), {})).toEqual({
      'delta-rs': 'ConcurrentDeleteRead',
      'delta-spark': 'commits',
      databricks: 'commits',
    });
    expect(verdicts(loser, removing('f1'), {})).toEqual({
      'delta-rs': 'ConcurrentDeleteRead',
      'delta-spark': 'ConcurrentDeleteRead',
      databricks: 'ConcurrentDeleteRead',
    });
    // A property change fails the Databricks check, but OPTIMIZE's own retry commits on the new snapshot.
    const alter = commitBy('SET TBLPROPERTIES', {
      metaData: {
        id: 'x',
        format: { provider: 'parquet', options: {} },
        schemaString: '',
        partitionColumns: [],
        configuration: { a: 'b' },
      },
    });
    expect(verdicts(loser, alter, {})).toEqual({
      'delta-rs': 'MetadataChanged',
      'delta-spark': 'commits',
      databricks: 'commits',
    });
    // Its retry cannot help when the level itself is unreadable.
    expect(checkerFor('delta-spark')(loser, removing('f3'), { 'delta.isolationLevel': 'ws' })?.kind).toBe(
      'InvalidIsolationLevel',
    );
  });
});
