/** The store probe's GraphQL documents and the shapes derived from them (the Store page). */
import { graphql, type ResultOf } from './gql';

/** A probe as the page draws it: a fresh one and a stored one read the same. */
const STORE_PROBE_FIELDS = graphql(`fragment StoreProbeFields on StoreProbe {
  id location verdict summary probedAt durationMs writers rounds leftover startedBy { description }
  checks { id title outcome detail onDelta tries failures }
  informational { id title outcome detail }
  latency { call count p50Ms p99Ms maxMs } }`);

export const PROBE_STORE_MUTATION = graphql(
  `mutation ProbeStore($location: String!, $rounds: Int, $writers: Int) {
    probeStore(location: $location, rounds: $rounds, writers: $writers) { ...StoreProbeFields } }`,
  [STORE_PROBE_FIELDS],
);

/** The kept probes, newest first, under a react-query key a new probe invalidates; the API gives at most 50. */
export const STORE_PROBES_KEY = 'store-probes';
export const STORE_PROBES_QUERY = graphql(
  'query StoreProbes($first: Int!) { storeProbes(first: $first) { ...StoreProbeFields } }',
  [STORE_PROBE_FIELDS],
);

/** The buckets the API may use (LAB_S3_BUCKETS): none, and the form has nothing it could probe. */
export const STORE_BUCKETS_QUERY = graphql('query StoreBuckets { storeBuckets }');

/** Why the probe form cannot be used, or null when it can: no bucket configured, or not known yet. */
export function probeFormBlocked(buckets: readonly string[] | undefined): string | null {
  if (buckets === undefined) return 'reading the configured buckets…';
  if (buckets.length === 0) {
    return 'No S3 bucket is configured on the API: set LAB_S3_BUCKETS (and the S3 endpoint and credentials, docs/s3.md) and restart it to probe a store.';
  }
  return null;
}

export type StoreProbeView = ResultOf<typeof STORE_PROBE_FIELDS>;
export type ProbeLatencyView = StoreProbeView['latency'][number];

/** The API's bounds (apps/api/src/graphql/probe.ts), so the form refuses what the API would. */
export const PROBE_FORM_LIMITS = { rounds: { min: 1, max: 200 }, writers: { min: 2, max: 16 } } as const;

export const VERDICT_WORDS: Record<string, { text: string; tone: 'ok' | 'bad' | 'warn' }> = {
  safe: { text: 'safe', tone: 'ok' },
  unsafe: { text: 'unsafe', tone: 'bad' },
  'could-not-run': { text: 'could not run', tone: 'warn' },
};

/** Call kinds in words, for the latency picture. */
export const CALL_WORDS: Record<string, string> = {
  put: 'PUT',
  'conditional-put-won': 'conditional PUT, won',
  'conditional-put-refused': 'conditional PUT, refused',
  get: 'GET',
  list: 'LIST',
  delete: 'DELETE',
  multipart: 'multipart calls',
};

/** Where a latency falls on the picture's axis, from 0 to 1: linear up to the slowest p99 of the probe. */
export function latencyScale(latency: readonly ProbeLatencyView[]): { at: (ms: number) => number; top: number } {
  const top = Math.max(1, ...latency.map((l) => l.p99Ms));
  return { at: (ms: number) => Math.min(1, Math.max(0, ms / top)), top };
}
