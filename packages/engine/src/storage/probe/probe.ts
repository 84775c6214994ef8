/**
 * Is this object store safe for concurrent Delta writers? `probeStore('s3://bucket/prefix')` runs
 * the four checks a Delta commit relies on (put-if-absent refused on an existing key, one winner
 * among concurrent writers, a refused put changes nothing, a new key listed and readable at once),
 * two informational ones and the latency of each call kind, all under a fresh sub-prefix of the
 * given prefix that it removes afterwards, also when a check fails or the probe is stopped.
 *
 * Its work is bounded before the first request (`PROBE_LIMITS`), so an API caller cannot make it
 * run for long; a bad location or bad numbers throw `ProbeInputError` without touching the store.
 */
import { randomUUID } from 'node:crypto';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { parseS3Url, s3ConfigFromEnv } from '../s3-store';
import { ProbeCalls, ProbeStopped } from './calls';
import {
  conditionalMultipart,
  existingKeyRefused,
  ifMatch,
  notRun,
  oneWinnerCheck,
  race,
  readAfterWrite,
  refusedKeepsBytesCheck,
} from './checks';
import { removeScratch } from './cleanup';
import {
  DECIDING_CHECKS,
  type DecidingCheck,
  INFO_TEXT,
  INFORMATIONAL_CHECKS,
  type InformationalCheck,
  LatencyLog,
  type ProbeReport,
  verdictOf,
} from './report';

export const PROBE_DEFAULTS = { writers: 8, rounds: 200, readAfterWrite: 20 } as const;
/** The most any caller may ask for: 1,000 rounds of 32 writers is ~32,000 puts. */
export const PROBE_LIMITS = {
  writers: { min: 2, max: 32 },
  rounds: { min: 1, max: 1000 },
  readAfterWrite: { min: 1, max: 200 },
} as const;

/** How long one call may wait for its answer; then it counts as no answer. */
export const CALL_TIMEOUT_MS = 10_000;

export class ProbeInputError extends Error {
  override name = 'ProbeInputError';
}

export interface ProbeOptions {
  writers?: number;
  rounds?: number;
  readAfterWrite?: number;
  /** Client settings over `s3ConfigFromEnv()` (e.g. another endpoint); `maxAttempts` is always 1. */
  s3?: S3ClientConfig;
  /** Lines for a terminal or a log, as the probe goes. */
  onProgress?: (line: string) => void;
  /** How long one call may wait for its answer (default CALL_TIMEOUT_MS). */
  callTimeoutMs?: number;
  /** Stops between calls; the scratch prefix is still removed. */
  signal?: AbortSignal;
}

function bounded(name: keyof typeof PROBE_LIMITS, value: number | undefined): number {
  const v = value ?? PROBE_DEFAULTS[name];
  const { min, max } = PROBE_LIMITS[name];
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new ProbeInputError(`${name} must be a whole number from ${min} to ${max}, got ${v}`);
  }
  return v;
}

/** Checks the location and the numbers; throws `ProbeInputError`, touching nothing. */
export function probeSettings(location: string, options: Pick<ProbeOptions, 'writers' | 'rounds' | 'readAfterWrite'>) {
  let parsed: ReturnType<typeof parseS3Url>;
  try {
    parsed = parseS3Url(location);
  } catch (e) {
    throw new ProbeInputError((e as Error).message);
  }
  return {
    ...parsed,
    writers: bounded('writers', options.writers),
    rounds: bounded('rounds', options.rounds),
    readAfterWrite: bounded('readAfterWrite', options.readAfterWrite),
  };
}

export async function probeStore(location: string, options: ProbeOptions = {}): Promise<ProbeReport> {
  const settings = probeSettings(location, options);
  const { bucket, prefix, writers, rounds } = settings;
  const say = options.onProgress ?? (() => {});
  const aborted = () => options.signal?.aborted === true;
  const config = { ...s3ConfigFromEnv(), ...options.s3 };
  const endpoint = String(config.endpoint ?? 'aws');
  // A name no earlier probe or table uses, so cleaning it can only remove the probe's own objects.
  const scratch = `${prefix === '' ? '' : `${prefix}/`}racelab-probe-${new Date().toISOString().replace(/[-:.]/g, '')}-${randomUUID().slice(0, 8)}`;
  const latency = new LatencyLog();
  // A store that accepts a connection and never answers must not hold the probe (or an API request) forever.
  const requestHandler = { requestTimeout: options.callTimeoutMs ?? CALL_TIMEOUT_MS, throwOnRequestTimeout: true };
  const client = new S3Client({ requestHandler, ...config, maxAttempts: 1 });
  const calls = new ProbeCalls(client, bucket, endpoint, latency);
  const started = Date.now();
  const checks: DecidingCheck[] = [];
  const informational: InformationalCheck[] = [];
  let stopped: string | undefined;
  let cleanup: ProbeReport['cleanup'] = { removed: 0, leftover: 0 };

  const step = <T>(run: () => Promise<T>) => {
    if (aborted()) throw new ProbeStopped('stopped by the user');
    return run();
  };
  try {
    say(`probing s3://${bucket}/${scratch}/ at ${endpoint}`);
    // Can we write, read and list at all? If not, nothing below could tell safe from unsafe.
    await step(() => calls.put(`${scratch}/hello`, 'racelab probe'));
    await step(() => calls.list(`${scratch}/`));

    say('1/4 conditional PUT on an existing key');
    const existing = await step(() => existingKeyRefused(calls, scratch));
    checks.push(existing.refused);
    say(`2/4 ${rounds} rounds of ${writers} concurrent conditional PUTs on one new key`);
    const every = Math.max(1, Math.round(rounds / 10));
    const tally = await step(() =>
      race(calls, scratch, writers, rounds, (done) => done % every === 0 && say(`  round ${done}/${rounds}`), aborted),
    );
    if (aborted()) throw new ProbeStopped('stopped by the user');
    checks.push(oneWinnerCheck(tally, writers));
    say('3/4 refused PUTs leave the winner\u2019s bytes');
    checks.push(refusedKeepsBytesCheck(existing.kept, tally));
    say(`4/4 ${settings.readAfterWrite} new keys listed and read right after their PUT`);
    checks.push(await step(() => readAfterWrite(calls, scratch, settings.readAfterWrite)));
    say('informational: If-Match, conditional multipart completion');
    informational.push(await step(() => ifMatch(calls, scratch)));
    informational.push(await step(() => conditionalMultipart(calls, scratch)));
  } catch (e) {
    if (!(e instanceof ProbeStopped)) throw e;
    stopped = e.message;
  } finally {
    say(`removing s3://${bucket}/${scratch}/`);
    // With the SDK's retries: a clean-up is not a measurement.
    cleanup = await removeScratch(
      new S3Client({ requestHandler, ...config }),
      bucket,
      `${scratch}/`,
      endpoint,
      latency,
    );
    client.destroy();
  }

  const all = DECIDING_CHECKS.map((id) => checks.find((c) => c.id === id) ?? notRun(id));
  const infos = INFORMATIONAL_CHECKS.map(
    (id) =>
      informational.find((c) => c.id === id) ?? {
        id,
        title: INFO_TEXT[id],
        outcome: 'not-run' as const,
        detail: 'the probe stopped before this check',
      },
  );
  const report: ProbeReport = {
    location: `s3://${bucket}/${prefix}`,
    scratch: `s3://${bucket}/${scratch}/`,
    endpoint,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    settings: { writers, rounds, readAfterWrite: settings.readAfterWrite },
    ...verdictOf(all, stopped),
    checks: all,
    informational: infos,
    latency: latency.stats(),
    cleanup,
  };
  return report;
}
