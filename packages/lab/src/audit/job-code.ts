/**
 * A manifest job tied to its code (`code:`, a file or folder relative to the manifest's folder): the code audit
 * reads the settings that code makes, and what the manifest says is compared with them. Where the manifest
 * gives a setting and the code sets it otherwise, a code-drift warning names both (the code is what runs);
 * where the manifest leaves a setting out, the job takes it from its code, so the other rules judge what runs.
 * A setting applies to the job when it names no table, or names the job's table.
 */
import { stat } from 'node:fs/promises';
import { posix, resolve } from 'node:path';
import type { CodeSetting } from './code/setting';
import { auditCode } from './code-scan/index';
import { ManifestError } from './manifest';
import type { Finding, Job } from './types';

/** A job's field a code setting fills: where it stands in the job, and the value the manifest gives it. */
interface Field {
  /** As the manifest names it: `tableProperties['delta.isolationLevel']`, `commitProperties.maxCommitRetries`. */
  name: string;
  get(job: Job): string | number | boolean | undefined;
  set(job: Job, value: string | number | boolean): void;
  /** The code's value as the manifest would write it. */
  valueOf(s: CodeSetting): string | number | boolean | undefined;
}

const commitField = (key: 'isolationLevel' | 'maxCommitRetries' | 'isBlindAppend', codeValue: Field['valueOf']) => ({
  name: `commitProperties.${key}`,
  get: (job: Job) => job.commitProperties?.[key],
  set: (job: Job, value: string | number | boolean) => {
    job.commitProperties = { ...job.commitProperties, [key]: value };
  },
  valueOf: codeValue,
});

function fieldOf(s: CodeSetting): Field | null {
  switch (s.kind) {
    case 'table-property':
      return {
        name: `tableProperties['${s.key}']`,
        get: (job) => job.tableProperties?.[s.key],
        set: (job, value) => {
          job.tableProperties = { ...job.tableProperties, [s.key]: String(value) };
        },
        valueOf: (x) => x.value ?? undefined,
      };
    case 'commit-isolation':
      return commitField('isolationLevel', (x) => x.value ?? undefined);
    case 'commit-retries':
      return commitField('maxCommitRetries', (x) =>
        x.value !== null && /^\d+$/.test(x.value) ? Number(x.value) : undefined,
      );
    case 'blind-append':
      return commitField('isBlindAppend', (x) => (x.value === null ? undefined : /^true$/i.test(x.value)));
    default:
      return null;
  }
}

/** A table as a location or a name, to compare: quotes, case and a trailing '/' aside. */
const tableKey = (t: string) => t.replace(/[`"']/g, '').replace(/\/+$/, '').toLowerCase();

function appliesTo(s: CodeSetting, job: Job): boolean {
  if (s.table === undefined) return true;
  const mine = tableKey(job.table);
  const theirs = tableKey(s.table);
  return mine === theirs || mine.endsWith(`/${theirs}`) || theirs.endsWith(`/${mine}`);
}

/**
 * The jobs with the settings their code makes filled in, and a code-drift finding for each setting the manifest
 * gives otherwise. Throws ManifestError naming every job whose code is not there.
 */
export async function jobsWithCode(jobs: Job[], manifestDir: string): Promise<{ jobs: Job[]; findings: Finding[] }> {
  const missing: string[] = [];
  const findings: Finding[] = [];
  const out: Job[] = [];
  for (const job of jobs) {
    if (job.code === undefined) {
      out.push(job);
      continue;
    }
    const path = resolve(manifestDir, job.code);
    const info = await stat(path).catch(() => null);
    if (info === null) {
      missing.push(`job '${job.name}': code: no such file or folder ${job.code}`);
      continue;
    }
    const folder = info.isDirectory() ? job.code : posix.dirname(job.code);
    const named = (s: CodeSetting) => `${posix.join(folder, s.file)}:${s.line}`;
    const filled: Job = { ...job };
    const given = new Set<string>();
    for (const s of (await auditCode([path])).settings) {
      const field = fieldOf(s);
      const value = field?.valueOf(s);
      if (!field || value === undefined || !appliesTo(s, job) || given.has(field.name)) continue;
      given.add(field.name);
      const said = field.get(job);
      if (said === undefined) field.set(filled, value);
      else if (said !== value) {
        findings.push({
          rule: 'code-drift',
          severity: 'warning',
          jobs: [job.name],
          table: job.table,
          evidence: `${job.name}'s manifest says ${field.name} = ${JSON.stringify(said)}, and its code sets ${s.key} = ${s.raw} at ${named(s)}`,
          fix: `make the manifest say what the code does (${field.name} = ${JSON.stringify(value)}), or change the code: the code is what runs`,
        });
      }
    }
    out.push(filled);
  }
  if (missing.length > 0) throw new ManifestError(missing);
  return { jobs: out, findings };
}
