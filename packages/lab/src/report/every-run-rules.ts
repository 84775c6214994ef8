/**
 * Rules every stored run obeys whatever its case: writer names, outcome fields, attempts; and where its format
 * numbers commits as table versions (Delta), the versions.
 */
import { formatById } from '../formats/registry';
import type { WriterResult } from '../results/types';
import type { CaseSpec } from './expectations/index';
import { finalReadVersion } from './expectations/retry';
import { fmt, type RunCheck } from './expectations/run-check';

export function checkEveryRun(c: RunCheck, spec: CaseSpec): void {
  const names = c.run.writers.map((w) => w.name);
  const expected = [...spec.writers];
  const missing = expected.filter((n) => !names.includes(n));
  const extra = names.filter((n) => !expected.includes(n));
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (missing.length || extra.length || twice.length) {
    c.fail(
      `writers differ: expected ${expected.join(', ')}, got ${names.join(', ') || 'none'}${twice.length ? ` (${twice.join(', ')} twice)` : ''}`,
    );
  }

  for (const w of c.run.writers) {
    if (w.committed && (w.errorClass !== null || w.errorMessage !== null)) {
      c.fail(`${w.name} committed but carries an error: ${fmt(w.errorClass)} ${fmt(w.errorMessage)}`);
    }
    if (!w.committed && (w.errorClass === null || w.errorMessage === null)) {
      c.fail(`${w.name} failed but its errorClass or errorMessage is null`);
    }
    if (w.attempts !== w.attemptErrors.length + 1) {
      c.fail(
        `${w.name}'s attempt count differs: expected ${w.attemptErrors.length + 1} (one more than its attemptErrors), got ${w.attempts}`,
      );
    }
    w.attemptErrors.forEach((e, i) => {
      if (e.attempt !== i + 1) c.equal(`${w.name}'s attemptErrors[${i}].attempt`, i + 1, e.attempt);
    });
  }

  if (!formatById(spec.format).numbersCommits) return;

  for (const w of c.run.writers) {
    if (w.committed && (w.version === null || w.version < 1)) c.fail(`${w.name} committed without a version`);
    if (!w.committed && w.version !== null) c.fail(`${w.name} failed but has version ${w.version}`);
    const first = w.attemptErrors[0]?.readVersion ?? (w.attemptErrors.length === 0 ? w.readVersion : null);
    if (first !== undefined && first !== null && first !== 0) {
      c.fail(`${w.name}'s first attempt read version ${first}; every writer opens the fresh table at version 0`);
    }
    if (w.committed && w.version !== null && w.commitRetries !== null) {
      const read = finalReadVersion(w);
      if (read !== null) {
        c.equal(
          `${w.name}'s commitRetries`,
          w.version - read - 1,
          w.commitRetries,
          `version − readVersion ${read} − 1`,
        );
      }
    }
  }
  const committed = c.run.writers.filter((w) => w.committed && w.version !== null);
  if (spec.commitsMayRepeat) {
    checkRepeatedCommits(c, committed);
    return;
  }
  const byVersion = committed.slice().sort((a, b) => (a.version ?? 0) - (b.version ?? 0));
  const versions = byVersion.map((w) => w.version);
  if (versions.some((v, i) => v !== i + 1)) {
    c.fail(
      `committed versions differ: expected ${byVersion.map((_, i) => i + 1).join(', ')}, got ${versions.join(', ')}`,
    );
  }
  const order = c.run.commitOrder;
  if (order !== undefined) {
    const want = byVersion.map((w) => w.name);
    if (order.join('\u0000') !== want.join('\u0000')) {
      c.fail(`commitOrder differs from the writers' versions: expected ${want.join(', ')}, got ${order.join(', ')}`);
    }
  }
}

/**
 * A case whose commits may land twice: each committed writer's version must be its own entry in the log, the log
 * names only the case's writers, and the table's version is the log's last.
 */
function checkRepeatedCommits(c: RunCheck, committed: readonly WriterResult[]): void {
  const order = c.run.commitOrder;
  if (order === undefined) return;
  for (const w of committed) {
    const holder = order[(w.version ?? 0) - 1];
    if (holder !== w.name) c.fail(`${w.name} reports version ${w.version}, but the log gives it to ${fmt(holder)}`);
  }
  const names = new Set(c.run.writers.map((w) => w.name));
  const strangers = [...new Set(order.filter((n) => !names.has(n)))];
  if (strangers.length) c.fail(`commitOrder names ${strangers.join(', ')}, not writers of the case`);
  if (c.table.version !== null) c.equal('table version', order.length, c.table.version, 'one version per commit');
}
