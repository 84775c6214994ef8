/**
 * The terminal progress lines of `npm start` and the lab CLI: counts, a bar and the time each step took;
 * redrawn in place on a terminal, a few plain lines anywhere else.
 */
import { describe, expect, it } from 'vitest';
import { drawBar, ProgressBoard, progressBar } from '../src/terminal/progress-board';

/** An output that records what was written, as a terminal (isTTY) or a pipe. */
function output(isTTY: boolean) {
  const written: string[] = [];
  return { written, out: { isTTY, columns: 200, write: (t: string) => written.push(t) } };
}

/** A clock the test moves by hand. */
function clock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('drawBar', () => {
  it('fills in proportion, rounds, clamps and leaves an unknown total empty', () => {
    expect(drawBar(0, 10, 10)).toBe('[----------]');
    expect(drawBar(5, 10, 10)).toBe('[#####-----]');
    expect(drawBar(10, 10, 10)).toBe('[##########]');
    expect(drawBar(15, 10, 10)).toBe('[##########]');
    expect(drawBar(3, 0, 4)).toBe('[----]');
  });
});

describe('ProgressBoard on a pipe', () => {
  it('prints a step when it starts, at each quarter once, and when it ends with its time', () => {
    const { written, out } = output(false);
    const c = clock();
    const board = new ProgressBoard(out, c.now);
    const t = board.task('data set', 1000, 'rows');
    for (let done = 0; done <= 1000; done += 50) t.update(done, 'writing');
    c.advance(2_500);
    t.finish('4 files');
    expect(written).toEqual([
      '… data set 0/1,000 rows [--------------------] 0%  0.0 s\n',
      '… data set 250/1,000 rows [#####---------------] 25%  writing  0.0 s\n',
      '… data set 500/1,000 rows [##########----------] 50%  writing  0.0 s\n',
      '… data set 750/1,000 rows [###############-----] 75%  writing  0.0 s\n',
      '✓ data set: 4 files (2.5 s)\n',
    ]);
  });

  it('says when a step failed, and ignores anything the step reports after it ended', () => {
    const { written, out } = output(false);
    const board = new ProgressBoard(out, clock().now);
    const t = board.task('building the dashboard', 5, 'phases');
    t.fail('exit 1');
    t.update(5);
    t.finish();
    expect(written.at(-1)).toBe('✗ building the dashboard: exit 1 (0.0 s)\n');
    expect(written).toHaveLength(2);
  });
});

describe('ProgressBoard on a terminal', () => {
  it('redraws the running steps in place and prints other output above them', () => {
    const { written, out } = output(true);
    const board = new ProgressBoard(out, clock().now);
    const a = board.task('Postgres');
    board.task('data set', 10, 'rows');
    expect(written.join('')).toContain('… Postgres');
    written.length = 0;
    board.log('[api] API on http://127.0.0.1:4000/graphql');
    // Erase the two live lines, print the log line, draw them again below it.
    expect(written[0]).toBe('\x1b[2A\x1b[0J');
    expect(written[1]).toBe('[api] API on http://127.0.0.1:4000/graphql\n');
    expect(written.slice(2).map((l) => l.slice(0, 10))).toEqual(['… Postgres', '… data set']);
    written.length = 0;
    a.finish('6 migration(s) applied');
    // The ended step leaves the live block: it is printed once, above the one still running.
    expect(written[0]).toBe('\x1b[2A\x1b[0J');
    expect(written[1]).toBe('✓ Postgres: 6 migration(s) applied (0.0 s)\n');
    expect(written.slice(2).map((l) => l.slice(0, 10))).toEqual(['… data set']);
    board.close();
  });
});

describe('progressBar (the lab CLI)', () => {
  it('prints one line per change on a pipe, a full bar when there is nothing to do', () => {
    const written: string[] = [];
    const bar = progressBar({ isTTY: false, write: (t: string) => written.push(t) } as unknown as NodeJS.WriteStream);
    bar.update(1, 4, 'A1 run 1/4');
    bar.update(1, 4, 'A1 run 1/4');
    bar.update(0, 0, 'nothing');
    expect(written).toEqual([
      '[########----------------------] 1/4 A1 run 1/4\n',
      '[##############################] 0/0 nothing\n',
    ]);
  });
});
