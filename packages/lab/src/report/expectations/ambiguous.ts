/**
 * G1–G3: a commit whose put landed but whose answer was lost (docs/lab-cases.md, "Ambiguous commits").
 *
 * G1: the answer lost as a closed connection, which object_store resends; the resend is told "already exists".
 * delta-rs's default (`default`) goes round its loop, judges its own entry as a winner and writes the same bytes
 * at the next version: the entry is in the log twice (versions 1 and 2), the data once (the second entry re-adds
 * the same file). This engine's option (`own-bytes`) reads the taken version, finds its own bytes: once (version 3).
 * G2: the answer lost as a timeout, the error reaches the job, which is run again without a txn: Feb 14 twice.
 * G3: the same job with txn (appId, version): the retry finds its batch committed and skips it: Feb 14 once.
 */

import {
  type CaseSpec,
  expectCommitted,
  expectDays,
  expectDistinct,
  expectJanuaryPlus,
  expectRows,
  expectTableVersion,
  expectTips,
  expectVendorsKept,
} from './common';
import { ANSWER_LOST } from './messages';
import { fmt, type RunCheck } from './run-check';

/** What the writers' warnings say of the fault and of the ways out of it (formats/delta/writer-store.ts, formats/delta/writer.ts). */
const RESENT = 'was lost (connection closed); resent, it was told "already exists"';
const TIMED_OUT = 'was lost (timeout); the writer got an error although the put landed';
const OWN_BYTES = "was found taken by this commit's own bytes";
const SKIPPED = 'batch already committed';

const JOB = ['job'] as const;
const DAY = '2025-02-14';

function expectWarning(c: RunCheck, name: string, words: string, present = true): void {
  const warnings = c.writer(name)?.warnings ?? [];
  if (warnings.some((w) => w.includes(words)) !== present) {
    c.fail(`${name}'s warnings ${present ? 'lack' : 'include'} ${fmt(words)}: ${fmt(warnings)}`);
  }
}

function expectCommitOrder(c: RunCheck, expected: readonly string[]): void {
  if (c.run.commitOrder !== undefined) c.equal('commitOrder', expected.join(', '), c.run.commitOrder.join(', '));
}

/** G2/G3: the job's first try lost its answer (an error, its commit at version 1), its second reopened version 1. */
function expectRetriedJob(c: RunCheck): void {
  const w = c.writer('job');
  if (!w) return;
  c.equal("job's attempt count", 2, w.attempts, 'the lost answer, then the rerun');
  const e = w.attemptErrors[0];
  if (e) {
    c.equal("job's attempt 1 error class", ANSWER_LOST, e.errorClass);
    if (e.readVersion !== undefined && e.readVersion !== null) c.equal("job's attempt 1 readVersion", 0, e.readVersion);
  }
  if (w.readVersion !== undefined && w.readVersion !== null) {
    c.equal("job's final readVersion", 1, w.readVersion, 'it reopened the table its first try had committed to');
  }
  expectWarning(c, 'job', TIMED_OUT);
}

/** January plus Feb 14 `copies` times (the trips once each in distinct ids), tips as they were. */
function expectFeb14(c: RunCheck, copies: number, version: number): void {
  const f14 = c.fig.feb14;
  expectRows(c, c.fig.january + copies * f14, copies === 1 ? 'January + Feb 14' : 'January + Feb 14 twice');
  expectDistinct(c, c.fig.january + f14, true, copies === 1 ? 'each trip once' : 'every Feb 14 trip twice');
  expectDays(c, { '2025-01-15': c.fig.jan15, '2025-02-01': 0, '2025-02-02': 0, [DAY]: copies * f14 }, [DAY]);
  expectVendorsKept(c);
  expectTips(c, {}, [], null);
  expectTableVersion(c, version);
}

export const ambiguousCases: CaseSpec[] = [
  {
    id: 'G1',
    format: 'delta',
    writers: ['default', 'own-bytes'],
    suite: 'ambiguous-commits',
    commitsMayRepeat: true,
    check(c) {
      if (expectCommitted(c, 'default', 2)) {
        c.equal("default's commitRetries", 1, c.writer('default')?.commitRetries, 'its own entry at version 1');
      }
      if (expectCommitted(c, 'own-bytes', 3)) {
        // It opened version 0 before the barrier, like every writer, and moved past default's two entries.
        c.equal("own-bytes' commitRetries", 2, c.writer('own-bytes')?.commitRetries, "default's versions 1 and 2");
      }
      for (const n of ['default', 'own-bytes']) {
        c.equal(`${n}'s attempt count`, 1, c.writer(n)?.attempts, 'the library, not the application, met the loss');
        expectWarning(c, n, RESENT);
      }
      expectWarning(c, 'own-bytes', OWN_BYTES);
      expectWarning(c, 'default', OWN_BYTES, false);
      expectCommitOrder(c, ['default', 'default', 'own-bytes']);
      // The second entry re-adds the file the first added: one file, its rows once, as the log's replay counts them.
      expectJanuaryPlus(c, c.fig.feb01 + c.fig.feb02, 'January + Feb 1 + Feb 2, each once', true);
      expectDays(c, { '2025-01-15': c.fig.jan15, '2025-02-01': c.fig.feb01, '2025-02-02': c.fig.feb02, [DAY]: 0 }, [
        '2025-02-01',
        '2025-02-02',
      ]);
      expectTips(c, {}, [], null);
      expectTableVersion(c, 3);
    },
  },
  {
    id: 'G2',
    format: 'delta',
    writers: JOB,
    suite: 'ambiguous-commits',
    commitsMayRepeat: true,
    check(c) {
      expectCommitted(c, 'job', 2);
      expectRetriedJob(c);
      expectCommitOrder(c, ['job', 'job']);
      expectFeb14(c, 2, 2);
    },
    // Replayed, the job runs once: every Feb 14 trip of the raced table is one copy too many (round(158,575·S)).
    verdict: (c) => ({
      status: 'not-serializable',
      rowsDuplicated: c.fig.feb14,
      how: 'each Feb 14 trip once too often',
    }),
  },
  {
    id: 'G3',
    format: 'delta',
    writers: JOB,
    suite: 'ambiguous-commits',
    check(c) {
      if (expectCommitted(c, 'job', 1)) {
        c.equal("job's commitRetries", null, c.writer('job')?.commitRetries, 'it skipped, committing nothing');
      }
      expectRetriedJob(c);
      expectWarning(c, 'job', SKIPPED);
      expectCommitOrder(c, ['job']);
      expectFeb14(c, 1, 1);
    },
  },
];
