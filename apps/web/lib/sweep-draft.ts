/**
 * The sweep form's draft, pure (no React): its fields as typed, what it starts as, and the check that turns it into
 * startSweep's input with the contracts' checkSweepInput (the same the API and the CLI use), so a sweep beyond the
 * bounds is refused in the API's own words before it is sent.
 */
import {
  checkSweepInput,
  DEFAULT_SWEEP_APPEND_RATE,
  DEFAULT_SWEEP_COMMITS,
  DEFAULT_SWEEP_WRITERS,
} from '@racelab/contracts';
import type { VariablesOf } from './gql';
import type { START_SWEEP } from './sweeps';

export type StartInput = VariablesOf<typeof START_SWEEP>['input'];

export interface SweepDraft {
  tableFormat: string;
  catalog: string;
  writers: string;
  commits: string;
  operation: string;
  appendRate: string;
  policy: string;
  maxCommitRetries: string;
  appTries: string;
  backoffBaseMs: string;
  backoffCapMs: string;
  jitter: string;
}

export const EMPTY_DRAFT: SweepDraft = {
  tableFormat: 'delta',
  catalog: 'sqlite',
  writers: DEFAULT_SWEEP_WRITERS.join(','),
  commits: String(DEFAULT_SWEEP_COMMITS),
  operation: 'append-row',
  appendRate: String(DEFAULT_SWEEP_APPEND_RATE),
  policy: 'delta-rs',
  maxCommitRetries: '15',
  appTries: '3',
  backoffBaseMs: '',
  backoffCapMs: '',
  jitter: 'full',
};

/** A field as typed: a number when it reads as one, else the text itself, so the check names what was given. */
const numberOr = (text: string): number | string =>
  text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;

/** The draft as the sweep's input (what checkSweepInput and, reshaped, the API take). */
export function draftInput(d: SweepDraft): Record<string, unknown> {
  const custom = d.policy === 'custom';
  const backoff =
    d.backoffBaseMs.trim() === '' && d.backoffCapMs.trim() === ''
      ? null
      : { baseMs: numberOr(d.backoffBaseMs), capMs: numberOr(d.backoffCapMs), jitter: d.jitter };
  return {
    writers: d.writers
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .map(numberOr),
    commitsPerWriter: numberOr(d.commits),
    operation: d.operation,
    ...(d.operation === 'compaction' && { appendRatePerSec: numberOr(d.appendRate) }),
    // The catalog is Iceberg's: a Delta sweep names none.
    ...(d.tableFormat !== 'delta' && { tableFormat: d.tableFormat, catalog: d.catalog }),
    policy: custom
      ? { name: 'custom', maxCommitRetries: numberOr(d.maxCommitRetries), appTries: numberOr(d.appTries), backoff }
      : d.policy,
  };
}

/** The draft's problems in the API's words, or the GraphQL input to send. */
export function checkDraft(d: SweepDraft): { problems: string[] } | { input: StartInput } {
  const given = draftInput(d);
  const checked = checkSweepInput(given);
  if (!checked.ok) return { problems: checked.problems };
  const v = checked.value;
  return {
    input: {
      writers: v.writers,
      commitsPerWriter: v.commitsPerWriter,
      operation: v.operation,
      ...(v.appendRatePerSec !== undefined && { appendRatePerSec: v.appendRatePerSec }),
      ...(v.tableFormat !== undefined && { tableFormat: v.tableFormat }),
      ...(v.catalog !== undefined && { catalog: v.catalog }),
      policy:
        v.policy.name === 'custom'
          ? {
              name: 'custom',
              maxCommitRetries: v.policy.maxCommitRetries,
              appTries: v.policy.appTries,
              backoff: v.policy.backoff,
            }
          : { name: v.policy.name },
    },
  };
}
