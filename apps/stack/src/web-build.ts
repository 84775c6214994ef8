/**
 * `npm start`'s dashboard build: `turbo run build` for @racelab/web, so an unchanged dashboard is not built
 * again (turbo's cache hit takes well under a second) and `npm run build` shares the same cache. Next's
 * own output says which phase it is in; it becomes a progress line here, and is printed in full only
 * when the build fails.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { ProgressTask } from '@racelab/lab';

/** Next 16's build phases, in order, and the line that starts each (its output, not an API: checked by a test). */
export const NEXT_PHASES: readonly { name: string; starts: RegExp }[] = [
  { name: 'compiling', starts: /Creating an optimized production build/ },
  { name: 'types skipped', starts: /Skipping validation of types|Running TypeScript/ },
  { name: 'collecting page data', starts: /Collecting page data/ },
  { name: 'generating static pages', starts: /Generating static pages/ },
  { name: 'finalizing', starts: /Finalizing page optimization/ },
];

export interface BuildPhase {
  /** Phases begun so far, 1-based. */
  phase: number;
  detail: string;
}

/** The phase a line of Next's output starts, with the pages counted so far when it says; null for other lines. */
export function buildPhaseOf(line: string): BuildPhase | null {
  const i = NEXT_PHASES.findIndex((p) => p.starts.test(line));
  if (i < 0) return null;
  const name = NEXT_PHASES[i]?.name ?? '';
  const pages = /\((\d+)\/(\d+)\)/.exec(line);
  return { phase: i + 1, detail: pages ? `${name} ${pages[1]}/${pages[2]}` : name };
}

/** turbo's summary of a run whose one task came from its cache. */
const CACHE_HIT = /Cached:\s+1 cached, 1 total/;

/**
 * Builds the dashboard if its sources changed; resolves, when it is ready, with what was done (built, or found
 * unchanged) and rejects with Next's output if not. `task` hears the phases; ending it is the caller's.
 */
export async function buildDashboard(repoRoot: string, task: ProgressTask, signal?: AbortSignal): Promise<string> {
  const turbo = join(repoRoot, 'node_modules/.bin/turbo');
  const child = spawn(
    turbo,
    ['run', 'build', '--filter=@racelab/web', '--output-logs=new-only', '--log-prefix=none', '--log-order=stream'],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', NEXT_TELEMETRY_DISABLED: '1' },
    },
  );
  // Stopping `npm start` mid-build stops turbo, which stops Next; the build ends only once turbo has exited,
  // so the launcher never leaves a build running behind it.
  const stop = () => child.kill('SIGTERM');
  signal?.addEventListener('abort', stop, { once: true });
  const output: string[] = [];
  let phase = 0;
  let pending = '';
  const onData = (b: Buffer) => {
    pending += b.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      output.push(line);
      const p = buildPhaseOf(line);
      if (p && p.phase >= phase) {
        phase = p.phase;
        task.update(p.phase - 1, p.detail, NEXT_PHASES.length);
      }
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => resolve(c));
  }).finally(() => signal?.removeEventListener('abort', stop));
  if (signal?.aborted) throw new Error('stopped before it was done');
  if (code !== 0) throw new Error(`building the dashboard failed (exit ${code}):\n${output.join('\n')}${pending}`);
  return output.some((l) => CACHE_HIT.test(l)) ? 'unchanged since the last build (turbo cache)' : 'built';
}
