/**
 * How /metrics bounds the database work a flood of scrapes causes (metrics/coalesced.ts): one read at a time,
 * shared by whoever asked while one ran, and never an answer read before the request came.
 */
import { describe, expect, it } from 'vitest';
import { coalesced } from '../src/metrics/coalesced';

/** Work whose runs end when the test says: `runs` counts them, `finish(i, outcome)` ends run i. */
function controlled() {
  const ends: { resolve: (n: number) => void; reject: (e: Error) => void }[] = [];
  const work = () =>
    new Promise<number>((resolve, reject) => {
      ends.push({ resolve, reject });
    });
  return {
    work,
    runs: () => ends.length,
    finish: (i: number, outcome: number | Error) => {
      const end = ends[i];
      if (!end) throw new Error(`run ${i} never started`);
      if (outcome instanceof Error) end.reject(outcome);
      else end.resolve(outcome);
    },
  };
}

describe('coalesced', () => {
  it('runs once at a time; whoever asks during a run shares the next one, started after it ends', async () => {
    const c = controlled();
    const ask = coalesced(c.work);
    const first = ask();
    const during = [ask(), ask(), ask()];
    expect(c.runs()).toBe(1);
    expect(during[1]).toBe(during[0]);
    c.finish(0, 10);
    expect(await first).toBe(10);
    // The second run started once the first ended, for all three who asked during it.
    expect(c.runs()).toBe(2);
    const later = ask();
    expect(c.runs()).toBe(2);
    c.finish(1, 20);
    expect(await Promise.all(during)).toEqual([20, 20, 20]);
    expect(c.runs()).toBe(3);
    c.finish(2, 30);
    expect(await later).toBe(30);
    // Idle again: the next one asking starts a run at once.
    const alone = ask();
    expect(c.runs()).toBe(4);
    c.finish(3, 40);
    expect(await alone).toBe(40);
  });

  it('a failed run fails only those who shared it; the next one runs', async () => {
    const c = controlled();
    const ask = coalesced(c.work);
    const first = ask();
    const second = ask();
    c.finish(0, new Error('database gone'));
    await expect(first).rejects.toThrow('database gone');
    c.finish(1, 2);
    expect(await second).toBe(2);
  });
});
