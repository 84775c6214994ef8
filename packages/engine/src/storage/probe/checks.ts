/**
 * The probe's checks. Each takes the scratch folder and reports what it saw; none knows which store
 * it talks to: the outcome comes from the answers and the bytes read back.
 */
import type { ProbeCalls } from './calls';
import {
  CHECK_TEXT,
  type DecidingCheck,
  type DecidingCheckId,
  INFO_TEXT,
  type InformationalCheck,
  type InformationalCheckId,
} from './report';

const says = (status: number) =>
  status === 0 ? 'no answer (connection lost)' : status === 200 ? '200 (written)' : `HTTP ${status}`;
const chainText = (chain: number[]) => chain.map((s) => (s === 0 ? 'no answer' : String(s))).join(' → ');

function check(id: DecidingCheckId, tries: number, failures: number, detail: string): DecidingCheck {
  return { id, ...CHECK_TEXT[id], outcome: failures === 0 ? 'passed' : 'failed', detail, tries, failures };
}

export function notRun(id: DecidingCheckId): DecidingCheck {
  return {
    id,
    ...CHECK_TEXT[id],
    outcome: 'not-run',
    detail: 'the probe stopped before this check',
    tries: 0,
    failures: 0,
  };
}

const info = (
  id: InformationalCheckId,
  outcome: InformationalCheck['outcome'],
  detail: string,
): InformationalCheck => ({
  id,
  title: INFO_TEXT[id],
  outcome,
  detail,
});

/**
 * Check 1, and the first half of check 3: a key written plainly, then a conditional put of other
 * bytes over it. It must be refused, and the key must still hold the first bytes.
 */
export async function existingKeyRefused(calls: ProbeCalls, scratch: string) {
  const key = `${scratch}/existing`;
  await calls.put(key, 'first writer');
  const answer = await calls.putIfAbsent(key, 'second writer');
  const holds = await calls.get(key);
  const refused = answer.status === 412;
  const kept = holds === 'first writer';
  return {
    refused: check(
      'existing-key-refused',
      1,
      refused ? 0 : 1,
      refused
        ? `refused: ${chainText(answer.chain)}`
        : `a conditional PUT over an existing key got ${says(answer.status)} (answers: ${chainText(answer.chain)})`,
    ),
    kept: { tries: 1, failures: kept ? 0 : 1, what: kept ? '' : `the key then held ${describeHolder(holds)}` },
  };
}

const describeHolder = (holds: string | null) => (holds === null ? 'nothing' : `'${holds.slice(0, 40)}'`);

export interface RaceTally {
  rounds: number;
  oneWinner: number;
  noWinner: number;
  severalWinners: number;
  maxWinners: number;
  /** Puts that got no answer, or an answer other than 200/412 after the 409 retries. */
  unanswered: number;
  /** Rounds whose key held a refused writer's bytes. */
  refusedBytes: number;
  /** Rounds other than: one writer told 200, every other told 412, the key holding the winner's bytes. */
  badRounds: number;
  firstBad?: string;
  /** Why the rounds stopped before the count asked for, when the store stopped answering. */
  cutShort?: string;
}

/** Rounds in a row without a single answer after which the race stops: the store is not deciding anything. */
export const SILENT_ROUNDS = 3;

/**
 * Check 2, and the second half of check 3: `rounds` rounds of `writers` conditional puts of
 * different bytes to one new key, all sent together; then the key read back.
 */
export async function race(
  calls: ProbeCalls,
  scratch: string,
  writers: number,
  rounds: number,
  progress: (done: number) => void,
  aborted: () => boolean,
): Promise<RaceTally> {
  const t: RaceTally = {
    rounds: 0,
    oneWinner: 0,
    noWinner: 0,
    severalWinners: 0,
    maxWinners: 0,
    unanswered: 0,
    refusedBytes: 0,
    badRounds: 0,
  };
  let silent = 0;
  for (let r = 0; r < rounds && !aborted(); r++) {
    const key = `${scratch}/race/${String(r).padStart(4, '0')}`;
    const bodies = Array.from({ length: writers }, (_, w) => `round ${r} writer ${w}`);
    const answers = await Promise.all(bodies.map((b) => calls.putIfAbsent(key, b)));
    const holds = await calls.get(key);
    const winners = answers.flatMap((a, w) => (a.status === 200 ? [w] : []));
    const refused = answers.flatMap((a, w) => (a.status === 412 ? [w] : []));
    const holder = holds === null ? -1 : bodies.indexOf(holds);
    t.rounds++;
    t.maxWinners = Math.max(t.maxWinners, winners.length);
    t.unanswered += writers - winners.length - refused.length;
    if (winners.length === 1) t.oneWinner++;
    else if (winners.length === 0) t.noWinner++;
    else t.severalWinners++;
    if (refused.includes(holder)) t.refusedBytes++;
    const clean = winners.length === 1 && refused.length === writers - 1 && holder === winners[0];
    if (!clean) {
      t.badRounds++;
      t.firstBad ??=
        `round ${r + 1}: ${winners.length} of ${writers} writers were told they won, ${refused.length} refused, ` +
        `${writers - winners.length - refused.length} other answers (${answers.map((a) => chainText(a.chain)).join(', ')}); ` +
        `the key held ${holder >= 0 ? `writer ${holder}'s bytes` : describeHolder(holds)}`;
    }
    progress(r + 1);
    silent = winners.length + refused.length === 0 ? silent + 1 : 0;
    if (silent === SILENT_ROUNDS) {
      t.cutShort = `stopped after ${r + 1} rounds: ${SILENT_ROUNDS} rounds in a row had no 200 or 412 at all`;
      break;
    }
  }
  return t;
}

export function oneWinnerCheck(t: RaceTally, writers: number): DecidingCheck {
  const failures = t.badRounds;
  const detail =
    failures === 0
      ? `${t.rounds} rounds of ${writers} writers: one winner each time, the key holding its bytes`
      : `${failures} of ${t.rounds} rounds of ${writers} writers went wrong (${t.severalWinners} with several ` +
        `winners, at most ${t.maxWinners}; ${t.noWinner} with none; ${t.unanswered} puts without a 200/412 answer). ` +
        `First: ${t.firstBad}${t.cutShort ? `. ${t.cutShort}` : ''}`;
  return check('one-winner', t.rounds, failures, detail);
}

export function refusedKeepsBytesCheck(
  first: { tries: number; failures: number; what: string },
  t: RaceTally,
): DecidingCheck {
  const tries = first.tries + t.rounds;
  const failures = first.failures + t.refusedBytes;
  const parts = [
    first.failures > 0 ? `after a refused conditional PUT over an existing key, ${first.what}` : '',
    t.refusedBytes > 0 ? `in ${t.refusedBytes} of ${t.rounds} rounds the key held the bytes of a writer told 412` : '',
  ].filter(Boolean);
  return check(
    'refused-put-keeps-bytes',
    tries,
    failures,
    failures === 0 ? `no refused put changed the key (${tries} tries)` : parts.join('; '),
  );
}

/** Check 4: new keys, each listed and read back right after its put. */
export async function readAfterWrite(calls: ProbeCalls, scratch: string, times: number): Promise<DecidingCheck> {
  const folder = `${scratch}/listed/`;
  let failures = 0;
  let first = '';
  for (let i = 0; i < times; i++) {
    const key = `${folder}${String(i).padStart(4, '0')}`;
    const body = `entry ${i}`;
    await calls.put(key, body);
    const listed = (await calls.list(folder)).includes(key);
    const read = await calls.get(key);
    if (!listed || read !== body) {
      failures++;
      first ||= `key ${i + 1}: ${listed ? 'listed' : 'not listed'}, ${read === null ? 'not readable' : read === body ? 'readable' : 'read other bytes'} right after its PUT`;
    }
  }
  return check(
    'read-after-write',
    times,
    failures,
    failures === 0 ? `${times} new keys, each listed and read back at once` : `${failures} of ${times} keys: ${first}`,
  );
}

/** Informational: `If-Match` with a wrong ETag must be refused, with the right one accepted. */
export async function ifMatch(calls: ProbeCalls, scratch: string): Promise<InformationalCheck> {
  const key = `${scratch}/if-match`;
  const etag = await calls.put(key, 'version 1');
  const wrong = await calls.putWith(key, 'stale writer', { IfMatch: '"00000000000000000000000000000000"' });
  // Read before the next put: a 200 means the header was ignored, or a refusal was reported as a success.
  const staleReplaced = (await calls.get(key)) === 'stale writer';
  const right = await calls.putWith(key, 'version 2', { IfMatch: etag });
  const detail = `wrong ETag: ${says(wrong)}; current ETag as returned (${etag}): ${says(right)}`;
  if (wrong === 412 && right === 200) return info('if-match', 'honoured', detail);
  if (wrong === 200) {
    return staleReplaced
      ? info('if-match', 'ignored', `${detail}: a stale writer replaced the object`)
      : info('if-match', 'non-standard', `${detail}: the object was not replaced, yet the stale writer was told 200`);
  }
  if (wrong === 501 || wrong === 400) return info('if-match', 'not-supported', detail);
  if (wrong === 412 && right === 412) {
    // radosgw 16 compares the header with the ETag stripped of its quotes: the ETag exactly as S3
    // returns it never matches. Said so, since a writer using If-Match would be refused forever.
    const bare = await calls.putWith(key, 'version 2', { IfMatch: etag.replace(/"/g, '') });
    if (bare === 200) {
      return info('if-match', 'non-standard', `${detail}; the same ETag without quotes: ${says(bare)}`);
    }
  }
  return info('if-match', 'error', detail);
}

/**
 * Informational: a multipart upload completed with `If-None-Match: *` over an existing key. Delta
 * log entries are single-part puts (the engine never uses multipart for them), so this decides
 * nothing; it matters to writers that do.
 */
export async function conditionalMultipart(calls: ProbeCalls, scratch: string): Promise<InformationalCheck> {
  const key = `${scratch}/multipart`;
  await calls.put(key, 'first writer');
  const status = await calls.multipartIfAbsent(key, 'multipart writer');
  const holds = await calls.get(key);
  const detail = `completion answered ${says(status)}; the key then held ${describeHolder(holds)}`;
  if (status === 412 && holds === 'first writer') return info('conditional-multipart', 'honoured', detail);
  if (status === 200) return info('conditional-multipart', 'ignored', detail);
  if (status === 501 || status === 400) return info('conditional-multipart', 'not-supported', detail);
  return info('conditional-multipart', 'error', detail);
}
