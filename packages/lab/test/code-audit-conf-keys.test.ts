/**
 * The Spark conf keys the code audit knows: the data's provenance (a named Delta release, 3.2 or later, its
 * commit and files), which keys are known and to whom (Delta Spark, Databricks only, the per-table default and
 * feature prefixes, the LogStore key patterns), the nearest real key for a slip, and the script that regenerates
 * the data, run on a small git checkout made here (keys in comments are not keys; the prefix is the one the Scala
 * file forms).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONF_KEYS_SOURCE, isDeltaConfKey, knownConfKey, nearestConfKey } from '../src/audit/code/conf-keys';
import data from '../src/audit/code/data/delta-sql-conf.json' with { type: 'json' };

const REPO = join(import.meta.dirname, '..', '..', '..');

describe('the conf key data', () => {
  it('names the Delta release it was read from: a tag of 3.2 or later, its commit and files', () => {
    expect(CONF_KEYS_SOURCE.repository).toBe('https://github.com/delta-io/delta');
    const [major, minor] = (CONF_KEYS_SOURCE.version.match(/^(\d+)\.(\d+)/) ?? []).slice(1).map(Number);
    expect((major ?? 0) * 100 + (minor ?? 0)).toBeGreaterThanOrEqual(302);
    expect(CONF_KEYS_SOURCE.tag).toBe(`v${CONF_KEYS_SOURCE.version}`);
    expect(CONF_KEYS_SOURCE.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(CONF_KEYS_SOURCE.files.some((f) => f.endsWith('/DeltaSQLConf.scala'))).toBe(true);
  });

  it('holds the keys sorted, once each, and hundreds of them', () => {
    expect(data.keys.length).toBeGreaterThan(300);
    expect([...data.keys].sort()).toEqual(data.keys);
    expect(new Set(data.keys).size).toBe(data.keys.length);
    expect(data.tableProperties).toContain('delta.isolationLevel');
  });

  it('gives each Databricks-only entry the page that names it, and none Delta Spark has', () => {
    for (const entry of [...data.databricks, ...data.databricksTableProperties]) {
      expect(entry.page).toMatch(/^https:\/\/(docs\.databricks\.com|www\.databricks\.com|learn\.microsoft\.com)\//);
      expect(data.keys).not.toContain(entry.key);
      expect(data.tableProperties).not.toContain(entry.key);
    }
  });
});

describe('knownConfKey', () => {
  it.each([
    ['spark.databricks.delta.retentionDurationCheck.enabled', 'delta-spark'],
    ['spark.databricks.delta.optimizeWrite.enabled', 'delta-spark'],
    ['spark.databricks.delta.autoCompact.enabled', 'delta-spark'],
    ['spark.databricks.delta.maxCommitAttempts', 'delta-spark'],
    ['spark.databricks.delta.properties.defaults.isolationLevel', 'delta-spark'],
    ['spark.databricks.delta.properties.defaults.feature.deletionVectors', 'delta-spark'],
    ['spark.delta.logStore.class', 'delta-spark'],
    ['spark.delta.logStore.s3a.impl', 'delta-spark'],
    ['spark.databricks.delta.merge.enableLowShuffle', 'databricks'],
    ['spark.databricks.delta.properties.defaults.targetFileSize', 'databricks'],
  ])('%s is read by %s', (key, where) => {
    expect(knownConfKey(key)).toEqual({ known: true, where });
  });

  it('knows a key of the earlier release that the main one dropped', () => {
    const dropped = data.earlier.keys[0];
    expect(dropped).toBeDefined();
    expect(knownConfKey(dropped as string)).toEqual({ known: true, where: 'delta-spark' });
  });

  it.each([
    'spark.databricks.delta.write.isolationLevel',
    'spark.databricks.delta.isolationLevel',
    'spark.databricks.delta.retentionDurationCheck.enable',
    'spark.databricks.delta.RetentionDurationCheck.enabled',
    'spark.delta.retentionDurationCheck.enabled',
    'spark.databricks.delta.properties.defaults.isolationLvl',
    'spark.delta.logStore.a.b.impl',
  ])('%s is not a key', (key) => {
    expect(knownConfKey(key)).toEqual({ known: false });
  });

  it('tells the prefixes the audit reports', () => {
    expect(
      ['spark.databricks.delta.x', 'spark.delta.x', 'spark.sql.x', 'spark.databricks.delta.'].map(isDeltaConfKey),
    ).toEqual([true, true, false, false]);
  });
});

describe('nearestConfKey', () => {
  it.each([
    ['spark.databricks.delta.retentionDurationCheck.enable', 'spark.databricks.delta.retentionDurationCheck.enabled'],
    ['spark.databricks.delta.RetentionDurationCheck.enabled', 'spark.databricks.delta.retentionDurationCheck.enabled'],
    ['spark.delta.retentionDurationCheck.enabled', 'spark.databricks.delta.retentionDurationCheck.enabled'],
    ['spark.databricks.delta.maxCommitAttempt', 'spark.databricks.delta.maxCommitAttempts'],
    [
      'spark.databricks.delta.properties.defaults.isolationLvl',
      'spark.databricks.delta.properties.defaults.isolationLevel',
    ],
    // Nothing is a few edits away: the conf that sets the isolation level's default for new tables is.
    ['spark.databricks.delta.write.isolationLevel', 'spark.databricks.delta.properties.defaults.isolationLevel'],
    ['spark.databricks.delta.optimizeWrite.enabled', 'spark.databricks.delta.optimizeWrite.enabled'],
  ])('%s → %s', (key, nearest) => {
    expect(nearestConfKey(key)).toBe(nearest);
  });

  it('gives null when nothing is close, and for keys outside the Delta prefixes', () => {
    expect(nearestConfKey('spark.databricks.delta.fooBarBaz')).toBeNull();
    expect(nearestConfKey('spark.sql.shuffle.partitions')).toBeNull();
  });
});

describe('scripts/delta-conf-keys.mjs', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'delta-conf-keys-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  function write(path: string, text: string): void {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), text);
  }

  it('reads the keys of a tagged checkout as its Scala forms them, not those in comments', () => {
    const spark = 'spark/src/main/scala/org/apache/spark/sql/delta';
    write(
      `${spark}/sources/DeltaSQLConf.scala`,
      [
        'trait DeltaSQLConfBase {',
        '  val SQL_CONF_PREFIX = "spark.databricks.delta"',
        '  def buildConf(key: String): ConfigBuilder = SQLConf.buildConf(s"$SQL_CONF_PREFIX.$key")',
        '  def buildStaticConf(key: String): ConfigBuilder =',
        '    SQLConf.buildStaticConf(s"spark.databricks.delta.$key")',
        '  val A = buildConf("alpha.enabled").booleanConf.createWithDefault(true)',
        '  val B =',
        '    buildStaticConf(',
        '      "beta.size")',
        '  // val C = buildConf("commented.out")',
        '  /* val D = buildConf("blocked.out") */',
        '  val E = SQLConf.buildConf("spark.databricks.io.skipping.x")',
        '}',
      ].join('\n'),
    );
    write(
      `${spark}/DeltaConfig.scala`,
      'object DeltaConfigs {\n  val sqlConfPrefix = "spark.databricks.delta.properties.defaults."\n' +
        '  val ISOLATION_LEVEL = buildConfig[IsolationLevel](\n    "isolationLevel",\n    "WriteSerializable")\n' +
        '  val LOG_RETENTION = buildConfig[Option[CalendarInterval]](key = "logRetentionDuration", "")\n}\n',
    );
    write(
      `${spark}/actions/TableFeatureSupport.scala`,
      '  val DEFAULT_FEATURE_PROP_PREFIX = "spark.databricks.delta.properties.defaults.feature."\n',
    );
    write(
      `${spark}/storage/LogStore.scala`,
      '  val logStoreClassConfKey: String = "spark.delta.logStore.class"\n' +
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Scala's interpolation, as the Scala file writes it
        '  def logStoreSchemeConfKey(scheme: String): String = s"spark.delta.logStore.${scheme}.impl"\n',
    );
    write('version.sbt', 'ThisBuild / version := "9.9.0"\n');
    const git = (...args: string[]) => execFileSync('git', ['-C', scratch, ...args], { encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'fake release');
    git('tag', 'v9.9.0');
    const out = join(scratch, 'out.json');
    execFileSync('node', [join(REPO, 'scripts', 'delta-conf-keys.mjs'), scratch, '--tag', 'v9.9.0', '--out', out]);
    const result = JSON.parse(readFileSync(out, 'utf8'));
    expect(result.source).toMatchObject({ tag: 'v9.9.0', version: '9.9.0', commit: git('rev-parse', 'HEAD').trim() });
    expect(result.keys).toEqual([
      'spark.databricks.delta.alpha.enabled',
      'spark.databricks.delta.beta.size',
      'spark.databricks.io.skipping.x',
      'spark.delta.logStore.class',
    ]);
    expect(result.patterns).toEqual(['spark.delta.logStore.*.impl']);
    expect(result.tableProperties).toEqual(['delta.isolationLevel', 'delta.logRetentionDuration']);
    expect(result.defaultsPrefix).toBe('spark.databricks.delta.properties.defaults.');
    expect(result.featureDefaultsPrefix).toBe('spark.databricks.delta.properties.defaults.feature.');
    expect(result.databricks).toEqual([]);
  });
});
