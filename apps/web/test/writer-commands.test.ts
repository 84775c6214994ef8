/**
 * How the race page says a command writer (a job of a team's own): the program by its name and the script by its
 * name in its job root, from the spec as the API shows it (server paths already under `…/` or a setting's name),
 * never an absolute path; writers with an operation are not in it.
 */
import { describe, expect, it } from 'vitest';
import { writerCommands } from '../lib/writer-commands';

const spec = (writers: unknown[]) => JSON.stringify({ case: { id: 'custom', writers }, runs: 1, scale: 0.01 });

describe('writerCommands', () => {
  it('shows a command writer as program name and script name with its arguments, and no operation writer', () => {
    const command = ['…/python3.12', '…/check_then_append.py', '--day', '2025-02-14', '--rows', '../feb-14.parquet'];
    const words = writerCommands(
      spec([
        { name: 'job1', operation: { kind: 'command', command, cwd: '…/jobs' } },
        { name: 'more', operation: { kind: 'append', day: '2025-02-14' } },
      ]),
    );
    expect([...words]).toEqual([['job1', 'python3.12 check_then_append.py --day 2025-02-14 --rows ../feb-14.parquet']]);
  });

  it('never shows an absolute path, even one the spec holds as such', () => {
    const words = writerCommands(
      spec([{ name: 'job1', operation: { kind: 'command', command: ['/opt/venv/bin/python3', '/srv/jobs/load.py'] } }]),
    );
    expect(words.get('job1')).toBe('python3 load.py');
  });

  it('is empty for a spec that is not JSON or names no writers', () => {
    expect(writerCommands('not json').size).toBe(0);
    expect(writerCommands(JSON.stringify({ case: { id: 'A1' } })).size).toBe(0);
  });
});
