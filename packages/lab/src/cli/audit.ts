/**
 * npm run audit -- FILE [--json OUT]
 *
 * Audits the jobs in a manifest (YAML or JSON): findings with their evidence and fix, then, per
 * table, the forecast for every pair of jobs in both orders. Exits 1 when a finding is an error
 * (a CI gate), 2 when the manifest itself is unusable.
 */
import { writeFile } from 'node:fs/promises';
import { auditJobs } from '../audit/index';
import { ManifestError, readManifest } from '../audit/manifest';
import { locationConfigFromEnv } from '../locations';
import { parseArgs, REPO, UsageError, userPath } from './args';

const MARK = { error: 'ERROR  ', warning: 'WARNING', info: 'INFO   ' } as const;

async function main(): Promise<number> {
  const { positionals, options } = parseArgs(process.argv.slice(2), { options: ['json'], flags: [] });
  const file = positionals[0];
  if (!file || positionals.length > 1) {
    console.error('usage: npm run audit -- FILE [--json OUT]');
    return 2;
  }
  let manifest: Awaited<ReturnType<typeof readManifest>>;
  try {
    manifest = await readManifest(userPath(file));
  } catch (e) {
    if (e instanceof ManifestError) {
      console.error(`${file}: the manifest is not usable:\n${e.problems.map((p) => `  - ${p}`).join('\n')}`);
      return 2;
    }
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      console.error(`${file}: no such file`);
      return 2;
    }
    throw e;
  }
  const audit = await auditJobs(manifest, locationConfigFromEnv(REPO));
  console.log(`${manifest.jobs.length} jobs, ${audit.findings.length} findings\n`);
  for (const f of audit.findings) {
    console.log(`${MARK[f.severity]} ${f.rule}  [${f.jobs.join(', ')}]  ${f.table}`);
    console.log(`         seen: ${f.evidence}`);
    console.log(`         fix:  ${f.fix}\n`);
  }
  for (const table of new Set(audit.pairs.map((p) => p.table))) {
    console.log(`Forecast on ${table}: FIRST commits, then SECOND`);
    for (const p of audit.pairs.filter((x) => x.table === table)) {
      const verdict =
        p.secondCommits === null
          ? `not forecast (${p.skipped})`
          : p.secondCommits
            ? 'commits'
            : `fails: ${p.failedCheck}`;
      console.log(`  ${p.first} → ${p.second}: ${verdict}`);
    }
    console.log('');
  }
  for (const s of audit.skipped) console.log(`NOT CHECKED ${s.check}: ${s.note}`);
  if (options.json) await writeFile(userPath(options.json), `${JSON.stringify(audit, null, 2)}\n`);
  return audit.failed ? 1 : 0;
}

process.exitCode = await main().catch((e: unknown) => {
  if (!(e instanceof UsageError)) throw e;
  console.error(e.message);
  return 2;
});
