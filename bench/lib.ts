/** Small helpers shared by the bench scripts: timing, medians, child-process peak RSS, the raw version claim. */
import { spawnSync } from 'node:child_process';
import { closeSync, linkSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandSpec } from '@racelab/lab';

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/**
 * Runs `script mode ...args` in a fresh node process and returns what it printed as JSON on its
 * last line, plus its peak RSS: each variant gets its own process so peaks don't mix.
 */
export function inChild(script: string, args: string[]): { result: Record<string, number>; peakRssMb: number } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${script} ${args.join(' ')} failed: ${r.stderr}`);
  const last = r.stdout.trim().split('\n').pop() as string;
  const parsed = JSON.parse(last) as Record<string, number> & { maxRssKb: number };
  return { result: parsed, peakRssMb: Math.round(parsed.maxRssKb / 1024) };
}

export function maxRssKb(): number {
  return process.resourceUsage().maxRSS;
}

/**
 * The claim alone, the physical limit of a local commit: find the next free version, write a staging file, link()
 * it into place, go on to the next version on EEXIST. Writer `w` claims `n` versions in `dir`; returns its attempts.
 */
export function rawClaims(dir: string, w: number, n: number): number {
  let attempts = 0;
  let next = 0;
  for (let i = 0; i < n; i++) {
    for (;;) {
      attempts++;
      const target = join(dir, `${String(next).padStart(20, '0')}.json`);
      const staging = `${target}#${w}-${i}`;
      const fd = openSync(staging, 'wx');
      writeSync(fd, `{"writer":${w},"seq":${i}}`);
      closeSync(fd);
      try {
        linkSync(staging, target);
        unlinkSync(staging);
        next++;
        break;
      } catch {
        unlinkSync(staging);
        next++;
      }
    }
  }
  return attempts;
}

/**
 * `--help`, `-h` and `--version` for a bench that loads no lab of its own (its file is also the child process it
 * measures, or it measures its own process): answered as every racelab command answers them (the lab's
 * terminal/command-line.ts), which is loaded only when one of them is typed.
 */
export async function answerHelp(spec: CommandSpec): Promise<void> {
  const argv = process.argv.slice(2);
  if (!argv.some((a) => a === '--help' || a === '-h' || a === '--version')) return;
  (await import('@racelab/lab')).answerAndExit(argv, spec);
}
