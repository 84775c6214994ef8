/**
 * startRace with command writers (jobs of one's own) on a server that names LAB_JOB_ROOTS: the commands travel
 * through GraphQL as lists of text and are checked against the roots before anything is stored; a job outside
 * them, or code on the command line, is refused with every problem. (Without LAB_JOB_ROOTS the refusal is
 * JOB_COMMANDS_OFF: inputs.test.ts.)
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from './helpers/client';
import { type Stack, startStack } from './helpers/stack';

const START = `mutation($input: StartRaceInput!) { startRace(input: $input) { id } }`;
const jobs = resolve(import.meta.dirname, '../../../var/tmp', `racelab-api-jobs-${process.pid}`);

let stack: Stack;
beforeAll(async () => {
  mkdirSync(jobs, { recursive: true });
  writeFileSync(join(jobs, 'job.sh'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  stack = await startStack({ LAB_JOB_ROOTS: jobs });
});
afterAll(async () => {
  await stack?.stop();
  rmSync(jobs, { recursive: true, force: true });
});

describe('startRace with jobs of your own', () => {
  it('refuses a command outside LAB_JOB_ROOTS and code on the command line, every problem named, nothing stored', async () => {
    const input = {
      runs: 1,
      scale: 0.01,
      writers: [
        { name: 'job1', command: ['/bin/sh', '-c', 'exit 0'], cwd: jobs },
        { name: 'job2', command: ['job.sh'], cwd: '.' },
      ],
    };
    const r = await gql(stack.apiUrl, START, { input }, stack.token);
    expect(r.data).toBeNull();
    expect(r.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      problems: [
        "writer job1: the program '/bin/sh' lies outside LAB_JOB_ROOTS (its real path must be under a job root)",
        "writer job2: cwd '.' must be an absolute path",
      ],
    });
    const races = await stack.sql<{ n: string }>('SELECT count(*)::text AS n FROM "Race"');
    expect(races[0]?.n).toBe('0');
  });
});
