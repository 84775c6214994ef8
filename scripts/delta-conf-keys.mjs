#!/usr/bin/env node
/**
 * Regenerates packages/lab/src/audit/code/data/delta-sql-conf.json: the Spark conf keys Delta Spark reads, taken
 * from the Scala sources of a delta-io/delta checkout at a named release, so the code audit can tell a conf key
 * that exists from one that only looks like it. Plain Node, no dependencies; it reads the Scala text as data (the
 * string arguments of the conf builders), it runs nothing from the checkout.
 *
 * What it reads, at the release:
 * - DeltaSQLConf.scala: every `buildConf("…")` / `buildStaticConf("…")`, prefixed the way that file's own
 *   `def buildConf`/`def buildStaticConf` form the key (`s"$SQL_CONF_PREFIX.$key"`, SQL_CONF_PREFIX read from the
 *   file), and every `SQLConf.buildConf("full.key")` as written.
 * - DeltaConfig.scala: every table property `buildConfig[…]("key", …)` (`delta.key`), and the prefix
 *   (`sqlConfPrefix`) under which a session conf sets a property's default for new tables.
 * - TableFeatureSupport.scala: the prefix under which a session conf turns a table feature on for new tables.
 * - LogStore.scala: the `spark.delta.logStore.…` keys and key patterns.
 * Comments are dropped before reading (a key in a comment is not a key).
 *
 * The Databricks-only confs (named by Databricks' documentation, not in the Delta repository) are kept by hand in
 * the JSON's `databricks` and `databricksTableProperties` lists, each with the page that names it; this script
 * carries them over unchanged.
 *
 *   node scripts/delta-conf-keys.mjs CHECKOUT [--tag TAG] [--earlier TAG] [--out FILE]
 *
 * CHECKOUT is a git work tree or bare repository. With --tag the files are read at that tag (git show), else from
 * the work tree (the version then comes from version.sbt). --earlier TAG adds the keys an earlier release has and
 * the main one no longer does, so code written for it is not flagged. Prints the counts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const DEFAULT_OUT = join(here, '..', 'packages', 'lab', 'src', 'audit', 'code', 'data', 'delta-sql-conf.json');
const REPOSITORY = 'https://github.com/delta-io/delta';
const FILES = {
  sqlConf: 'spark/src/main/scala/org/apache/spark/sql/delta/sources/DeltaSQLConf.scala',
  tableConfig: 'spark/src/main/scala/org/apache/spark/sql/delta/DeltaConfig.scala',
  features: 'spark/src/main/scala/org/apache/spark/sql/delta/actions/TableFeatureSupport.scala',
  logStore: 'spark/src/main/scala/org/apache/spark/sql/delta/storage/LogStore.scala',
};

function args(argv) {
  const out = { checkout: null, tag: null, earlier: null, out: DEFAULT_OUT };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--tag' || a === '--earlier' || a === '--out') {
      const v = argv[++i];
      if (!v) throw new Error(`${a} needs a value`);
      out[a.slice(2)] = a === '--out' ? resolve(v) : v;
    } else if (!out.checkout) out.checkout = resolve(a);
    else throw new Error(`unexpected argument ${a}`);
  }
  if (!out.checkout)
    throw new Error('usage: node scripts/delta-conf-keys.mjs CHECKOUT [--tag TAG] [--earlier TAG] [--out FILE]');
  return out;
}

function git(checkout, ...rest) {
  return execFileSync('git', ['-C', checkout, ...rest], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** A reader of the checkout's files at `tag`, or in the work tree when `tag` is null. */
function reader(checkout, tag) {
  if (tag) return (path) => git(checkout, 'show', `${tag}:${path}`);
  return (path) => readFileSync(join(checkout, path), 'utf8');
}

/** Scala text without its comments: block comments, and lines that are a line comment. */
function withoutComments(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .split('\n')
    .map((line) => (/^\s*\/\//.test(line) ? '' : line))
    .join('\n');
}

/** The string value of `val NAME = "…"` (or `val NAME: String = "…"`). */
function stringVal(text, name) {
  const m = new RegExp(`val\\s+${name}(?:\\s*:\\s*String)?\\s*=\\s*"([^"]+)"`).exec(text);
  if (!m) throw new Error(`no val ${name}`);
  return m[1];
}

/** How `def NAME(key: String)` forms the full key: the s-string it passes on, with `$key` left as `{}`. */
function keyTemplate(text, def, vals) {
  const m = new RegExp(
    `def\\s+${def}\\s*\\(\\s*key\\s*:\\s*String\\s*\\)[^=]*=\\s*SQLConf\\.\\w+\\(\\s*s"([^"]+)"`,
  ).exec(text);
  if (!m) throw new Error(`no def ${def}(key: String)`);
  return m[1].replace(/\$\{?(\w+)\}?/g, (_, name) => (name === 'key' ? '{}' : (vals[name] ?? `$${name}`)));
}

function sqlConfKeys(text) {
  const vals = { SQL_CONF_PREFIX: stringVal(text, 'SQL_CONF_PREFIX') };
  const templates = {
    buildConf: keyTemplate(text, 'buildConf', vals),
    buildStaticConf: keyTemplate(text, 'buildStaticConf', vals),
  };
  for (const [def, t] of Object.entries(templates)) {
    if (t.includes('$')) throw new Error(`${def} forms its key from something this script does not know: ${t}`);
  }
  const keys = new Set();
  // A call of the file's own builders (not SQLConf's): the key is the template with the argument in it.
  for (const m of text.matchAll(/(?<![\w.])(buildConf|buildStaticConf)\(\s*"([^"]+)"\s*\)/g)) {
    keys.add(templates[m[1]].replace('{}', m[2]));
  }
  // Spark's own builder called with a full key.
  for (const m of text.matchAll(/SQLConf\.(?:buildConf|buildStaticConf)\(\s*"([^"]+)"\s*\)/g)) keys.add(m[1]);
  return { keys, prefix: vals.SQL_CONF_PREFIX };
}

function tableProperties(text) {
  const names = new Set();
  for (const m of text.matchAll(/buildConfig\s*\[[^()"]*?\]\s*\(\s*(?:key\s*=\s*)?"([^"]+)"/g))
    names.add(`delta.${m[1]}`);
  return { names, defaultsPrefix: stringVal(text, 'sqlConfPrefix') };
}

function logStoreKeys(text) {
  const keys = new Set();
  const patterns = new Set();
  for (const m of text.matchAll(/val\s+\w+\s*:\s*String\s*=\s*"(spark\.delta\.[^"]+)"/g)) keys.add(m[1]);
  for (const m of text.matchAll(/def\s+\w+\s*\([^)]*\)\s*:\s*String\s*=\s*s"(spark\.delta\.[^"]+)"/g)) {
    patterns.add(m[1].replace(/\$\{?\w+\}?/g, '*'));
  }
  return { keys, patterns };
}

function release(checkout, tag) {
  const read = reader(checkout, tag);
  const text = (path) => withoutComments(read(path));
  const sql = sqlConfKeys(text(FILES.sqlConf));
  const table = tableProperties(text(FILES.tableConfig));
  const featurePrefix = stringVal(text(FILES.features), 'DEFAULT_FEATURE_PROP_PREFIX');
  const logStore = logStoreKeys(text(FILES.logStore));
  const commit = git(checkout, 'rev-parse', `${tag ?? 'HEAD'}^{commit}`).trim();
  const versionSbt = read('version.sbt');
  const version = /version\s*:=\s*"([^"]+)"/.exec(versionSbt)?.[1] ?? null;
  return {
    tag,
    commit,
    version,
    keys: new Set([...sql.keys, ...logStore.keys]),
    tableProperties: table.names,
    prefixes: [table.defaultsPrefix, featurePrefix],
    patterns: [...logStore.patterns],
  };
}

const sorted = (set) => [...set].sort();

function main() {
  const opts = args(process.argv.slice(2));
  if (!existsSync(opts.checkout)) throw new Error(`no checkout at ${opts.checkout}`);
  const main = release(opts.checkout, opts.tag);
  const kept = existsSync(opts.out) ? JSON.parse(readFileSync(opts.out, 'utf8')) : {};
  const data = {
    source: {
      repository: REPOSITORY,
      ...(main.tag ? { tag: main.tag } : {}),
      version: main.version,
      commit: main.commit,
      files: Object.values(FILES),
    },
    keys: sorted(main.keys),
    /** Key patterns: `*` stands for one name without dots (a storage scheme). */
    patterns: sorted(new Set(main.patterns)),
    /** A conf under one of these prefixes sets a default for new tables: the rest names a table property (without `delta.`) or, under `…feature.`, a table feature. */
    defaultsPrefix: main.prefixes[0],
    featureDefaultsPrefix: main.prefixes[1],
    tableProperties: sorted(main.tableProperties),
  };
  if (opts.earlier) {
    const earlier = release(opts.checkout, opts.earlier);
    data.earlier = {
      tag: earlier.tag,
      version: earlier.version,
      commit: earlier.commit,
      keys: sorted(new Set([...earlier.keys].filter((k) => !main.keys.has(k)))),
      tableProperties: sorted(new Set([...earlier.tableProperties].filter((k) => !main.tableProperties.has(k)))),
    };
  }
  data.databricks = kept.databricks ?? [];
  data.databricksTableProperties = kept.databricksTableProperties ?? [];
  writeFileSync(opts.out, `${JSON.stringify(data, null, 2)}\n`);
  const e = data.earlier;
  console.log(
    `${main.tag ?? main.version} (${main.commit.slice(0, 10)}): ${data.keys.length} keys, ${data.patterns.length} patterns, ` +
      `${data.tableProperties.length} table properties` +
      (e ? `; ${e.tag}: ${e.keys.length} keys and ${e.tableProperties.length} table properties gone since` : '') +
      `; Databricks: ${data.databricks.length} confs, ${data.databricksTableProperties.length} table properties`,
  );
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
