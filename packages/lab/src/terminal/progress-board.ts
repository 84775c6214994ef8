/**
 * Progress on a terminal for steps that take more than a second (building the dashboard, migrating,
 * generating the data set, building base tables): one line per step with its counts, a bar and the time
 * it has taken. Several steps can run at once. On a terminal the lines are redrawn in place, and other
 * output is printed above them. Anywhere else (a pipe, a log file, CI) a step prints a line when it
 * starts, at every quarter, and when it ends, so the log stays short.
 *
 * Hand-written: cli-progress (6 packages, 296 KB) draws bars and a log above them on a terminal, but
 * off a terminal it reprints every bar on a timer (every 2 s by default) rather than at quarters, and
 * has no failed step, whose line must say why.
 */

export interface ProgressOutput {
  write(text: string): unknown;
  /** Only a TTY gets redrawn lines. */
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressTask {
  /** `done` of `total` (a total of 0 means not yet known), and optionally what is being done now. */
  update(done: number, detail?: string, total?: number): void;
  /** The step ended well; `summary` replaces the counts on its last line. */
  finish(summary?: string): void;
  /** The step failed; its line says so with `reason`. */
  fail(reason: string): void;
}

const BAR_WIDTH = 20;
/** How often live lines are redrawn: often enough for a moving clock, rarely enough to cost nothing. */
const REDRAW_MS = 200;

/** `[#####---------------]` for done/total; a total of 0 (unknown) gives an empty bar. */
export function drawBar(done: number, total: number, width = BAR_WIDTH): string {
  const filled = total > 0 ? Math.min(width, Math.max(0, Math.round((done / total) * width))) : 0;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}

/** The lab CLI's bar on stderr (one step at a time): redrawn in place on a terminal, one line per step otherwise. */
export function progressBar(stream: NodeJS.WriteStream = process.stderr) {
  const tty = stream.isTTY === true;
  let last = '';
  return {
    update(done: number, total: number, label: string) {
      // No work at all is complete work here: a full bar.
      const line = `${total === 0 ? drawBar(1, 1, 30) : drawBar(done, total, 30)} ${done}/${total} ${label}`;
      if (tty) stream.write(`\r${line.padEnd(last.length)}`);
      else if (line !== last) stream.write(`${line}\n`);
      last = line;
    },
    note(message: string) {
      if (tty && last) stream.write('\n');
      stream.write(`${message}\n`);
      last = '';
    },
    end() {
      if (tty && last) stream.write('\n');
      last = '';
    },
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const count = (n: number) => Math.round(n).toLocaleString('en-US');

export interface TaskState {
  label: string;
  unit: string;
  done: number;
  total: number;
  detail: string;
  startedAt: number;
  endedAt: number | null;
  outcome: 'running' | 'done' | 'failed';
  summary: string;
}

/** One step's line: `label  1,234/5,000 rows [####----] 24%  detail  3.2 s`, or its ending. */
export function progressLine(t: TaskState, now: number): string {
  const took = seconds((t.endedAt ?? now) - t.startedAt);
  if (t.outcome === 'done') return `✓ ${t.label}${t.summary ? `: ${t.summary}` : ''} (${took})`;
  if (t.outcome === 'failed') return `✗ ${t.label}: ${t.summary} (${took})`;
  const counts =
    t.total > 0
      ? `${count(t.done)}/${count(t.total)}${t.unit ? ` ${t.unit}` : ''} ${drawBar(t.done, t.total)} ${Math.floor((Math.min(t.done, t.total) / t.total) * 100)}%`
      : drawBar(0, 0);
  return `… ${t.label} ${counts}${t.detail ? `  ${t.detail}` : ''}  ${took}`;
}

export class ProgressBoard {
  private readonly tasks: TaskState[] = [];
  /** Lines of the live block now on screen (TTY only). */
  private drawn = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly live: boolean;

  constructor(
    private readonly out: ProgressOutput = process.stdout,
    private readonly clock: () => number = Date.now,
  ) {
    this.live = out.isTTY === true;
  }

  /** Starts a step: `total` of `unit` to do (0 when not known yet). */
  task(label: string, total = 0, unit = ''): ProgressTask {
    const t: TaskState = {
      label,
      unit,
      done: 0,
      total,
      detail: '',
      startedAt: this.clock(),
      endedAt: null,
      outcome: 'running',
      summary: '',
    };
    this.tasks.push(t);
    // Quarters already reported on a pipe, so a line is printed only when the next one is reached.
    let quarter = 0;
    if (this.live) this.redraw();
    else this.print(progressLine(t, this.clock()));
    const end = (outcome: 'done' | 'failed', summary: string) => {
      if (t.outcome !== 'running') return;
      t.outcome = outcome;
      t.summary = summary;
      t.endedAt = this.clock();
      // An ended step leaves the live block and stays above it as an ordinary line.
      this.tasks.splice(this.tasks.indexOf(t), 1);
      this.log(progressLine(t, this.clock()));
    };
    return {
      update: (done, detail, newTotal) => {
        if (t.outcome !== 'running') return;
        t.done = done;
        if (newTotal !== undefined) t.total = newTotal;
        if (detail !== undefined) t.detail = detail;
        if (this.live) return this.schedule();
        const reached = t.total > 0 ? Math.floor((Math.min(done, t.total) / t.total) * 4) : 0;
        if (reached > quarter && reached < 4) {
          quarter = reached;
          this.print(progressLine(t, this.clock()));
        }
      },
      finish: (summary = '') => end('done', summary),
      fail: (reason) => end('failed', reason),
    };
  }

  /** Prints `text` (one or more lines) above the live steps, on `stream` (stderr, say) or the board's own output. */
  log(text: string, stream: ProgressOutput = this.out): void {
    const line = text.endsWith('\n') ? text : `${text}\n`;
    if (!this.live) {
      stream.write(line);
      return;
    }
    this.erase();
    stream.write(line);
    this.draw();
  }

  /** Stops redrawing; running steps stay as last drawn. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private print(text: string): void {
    this.out.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.redraw();
    }, REDRAW_MS);
    this.timer.unref();
  }

  private redraw(): void {
    this.erase();
    this.draw();
    // Running steps keep their clocks moving even when no count changes.
    if (this.tasks.length > 0) this.schedule();
  }

  private erase(): void {
    if (this.drawn > 0) this.out.write(`\x1b[${this.drawn}A\x1b[0J`);
    this.drawn = 0;
  }

  private draw(): void {
    const now = this.clock();
    // A terminal that does not know its width says 0 columns.
    const width = Math.max(20, (this.out.columns || 100) - 1);
    for (const t of this.tasks) this.out.write(`${progressLine(t, now).slice(0, width)}\n`);
    this.drawn = this.tasks.length;
  }
}
