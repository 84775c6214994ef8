/**
 * A sweep's scenario: its name fills in the writers, commits per writer and operation it fixes, the policy stays
 * the input's, and a field given otherwise is refused with the scenario's values named (every field at once).
 */
import { expect, it } from 'vitest';
import { checkSweepInput, RETRY_POLICIES, SWEEP_SCENARIOS } from '../src/index';

it('delta-rs-3736 fixes 10 appenders x 50 one-row appends; the policy is the input own', () => {
  const checked = checkSweepInput({ scenario: 'delta-rs-3736', policy: 'none' });
  expect(checked).toEqual({
    ok: true,
    value: {
      scenario: 'delta-rs-3736',
      writers: [10],
      commitsPerWriter: 50,
      operation: 'append-row',
      policy: RETRY_POLICIES.none,
      seed: 1,
    },
  });
  expect(SWEEP_SCENARIOS['delta-rs-3736'].writers[0]).toBe(10);
  // The same values given again are no conflict.
  const same = checkSweepInput({
    scenario: 'delta-rs-3736',
    writers: [10],
    commitsPerWriter: 50,
    operation: 'append-row',
  });
  expect(same.ok && same.value.policy).toEqual(RETRY_POLICIES['delta-rs']);
});

it('a scenario with conflicting writers, commits or operation is refused, naming each and what it fixes', () => {
  const checked = checkSweepInput({
    scenario: 'delta-rs-3736',
    writers: [2, 4],
    commitsPerWriter: 5,
    operation: 'update-overlap',
  });
  const fixes = 'scenario delta-rs-3736 fixes writers [10], commitsPerWriter 50, operation "append-row"';
  const rest = 'conflicts with it (leave it out, or run without the scenario)';
  expect(checked).toEqual({
    ok: false,
    problems: [
      `${fixes}: writers [2,4] ${rest}`,
      `${fixes}: commitsPerWriter 5 ${rest}`,
      `${fixes}: operation "update-overlap" ${rest}`,
    ],
  });
  expect(checkSweepInput({ scenario: 'nope' })).toMatchObject({
    ok: false,
    problems: ["scenario must be one of delta-rs-3736, got 'nope'", 'operation is required'],
  });
});
