/**
 * A manifest job tied to its code: the settings the code makes fill what the job leaves out, a setting the
 * manifest gives otherwise is a code-drift warning naming the code's file and line (relative to the manifest's
 * folder), a setting of another table is not the job's, and a job whose code is not there makes the manifest
 * unusable. The code is read with a test extractor (the real ones have tests of their own).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Extraction, Extractor } from '../src/audit/code/setting';
import { ManifestError } from '../src/audit/manifest';
import type { Job } from '../src/audit/types';
import { tempDir } from './helpers/small-base';

/** Reads `.fake` files: each line `KEY = VALUE [on TABLE]` is a setting at the value's place. */
const fakeExtractor: Extractor = {
  name: 'fake',
  accepts: (file) => file.endsWith('.fake'),
  async extract(file, text): Promise<Extraction> {
    const settings = text.split('\n').flatMap((line, i) => {
      const m = /^([\w.]+) = (\S+)(?: on (\S+))?/.exec(line);
      if (!m?.[1] || !m[2]) return [];
      const key = m[1];
      const kind = key === 'max_commit_retries' ? ('commit-retries' as const) : ('table-property' as const);
      return [
        {
          file,
          line: i + 1,
          column: line.indexOf(m[2]) + 1,
          endColumn: line.indexOf(m[2]) + 1 + m[2].length,
          key,
          value: m[2].replace(/'/g, ''),
          raw: m[2],
          constant: true,
          kind,
          via: 'test',
          language: 'python' as const,
          writer: 'delta-rs' as const,
          ...(m[3] !== undefined && { table: m[3] }),
        },
      ];
    });
    return { settings, problems: [] };
  },
};

vi.mock('../src/audit/code-scan/extractors', () => ({
  EXTRACTORS: [fakeExtractor],
  extractorFor: (file: string) => (fakeExtractor.accepts(file) ? fakeExtractor : undefined),
}));

const { jobsWithCode } = await import('../src/audit/job-code');

const dir = tempDir('job-code');
mkdirSync(join(dir, 'jobs'));
writeFileSync(
  join(dir, 'jobs', 'load.fake'),
  [
    '# isolationLevel TBLPROPERTIES',
    "delta.isolationLevel = 'writeSerializable'",
    'max_commit_retries = 0',
    "delta.appendOnly = 'true' on s3://lake/other",
    '',
  ].join('\n'),
);

const job = (parts: Partial<Job>): Job => ({
  name: 'load',
  table: 's3://lake/trips',
  engine: 'delta-rs 1.6.6',
  operation: 'append',
  code: 'jobs/load.fake',
  ...parts,
});

describe('a job tied to its code', () => {
  it('takes the settings it leaves out from its code, and only those of its table', async () => {
    const { jobs, findings } = await jobsWithCode([job({})], dir);
    expect(findings).toEqual([]);
    expect(jobs[0]?.tableProperties).toEqual({ 'delta.isolationLevel': 'writeSerializable' });
    expect(jobs[0]?.commitProperties).toEqual({ maxCommitRetries: 0 });
  });

  it('is a code-drift warning where the manifest says otherwise, at the code line', async () => {
    const said = job({
      tableProperties: { 'delta.isolationLevel': 'WriteSerializable' },
      commitProperties: { maxCommitRetries: 0 },
    });
    const { jobs, findings } = await jobsWithCode([said, job({ name: 'plain', code: undefined })], dir);
    expect(findings.map((f) => [f.rule, f.severity, f.jobs])).toEqual([['code-drift', 'warning', ['load']]]);
    expect(findings[0]?.evidence).toContain(
      `manifest says tableProperties['delta.isolationLevel'] = "WriteSerializable", and its code sets delta.isolationLevel = 'writeSerializable' at jobs/load.fake:2`,
    );
    // The manifest's own value stays: the finding says the two differ, the rules judge what the manifest says.
    expect(jobs[0]?.tableProperties).toEqual({ 'delta.isolationLevel': 'WriteSerializable' });
    expect(jobs[1]).toEqual(job({ name: 'plain', code: undefined }));
  });

  it('whose code is not there makes the manifest unusable, naming the job', async () => {
    const run = jobsWithCode([job({ code: 'jobs/gone.py' })], dir);
    await expect(run).rejects.toBeInstanceOf(ManifestError);
    await expect(run).rejects.toThrow("job 'load': code: no such file or folder jobs/gone.py");
  });
});
