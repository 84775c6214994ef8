/**
 * The writers' steps on shared processors (ContentionModel.cpus), shared as an ideal multi-tasking processor:
 * `virtual` is the work one running step has received since the release, advancing at min(1, cpus / running) per
 * ms, so a step of `ms` started at virtual time v ends when it reaches v + ms, whoever starts or ends meanwhile.
 * Without `cpus` a step is a plain wait: every writer runs at once at full speed.
 */
import { EventQueue } from './event-queue';

export class SharedCpus {
  private readonly running = new EventQueue();
  private virtual = 0;
  private lastMs = 0;

  constructor(
    private readonly cpus: number | undefined,
    /** The timed events (arrivals, pauses, steps not on the processors). */
    private readonly queue: EventQueue,
  ) {}

  /** Whether any event is left, timed or running. */
  get pending(): boolean {
    return this.queue.size > 0 || this.running.size > 0;
  }

  /** A step of `ms` from `now` for writer `id`: its end time, or null when the processors will say (nextEvent). */
  run(id: number, now: number, ms: number): number | null {
    if (this.cpus === undefined) return now + ms;
    this.advanceTo(now);
    this.running.push(this.virtual + ms, id);
    return null;
  }

  /** The next event: a step on the processors ending, or a timed one, whichever comes first: [time, writer]. */
  nextEvent(): [number, number] {
    if (this.running.size > 0) {
      const ends = this.lastMs + (this.running.peekTime() - this.virtual) / this.speed();
      if (this.queue.size === 0 || ends < this.queue.peekTime()) {
        const [v, id] = this.running.pop();
        this.virtual = v;
        this.lastMs = ends;
        return [ends, id];
      }
    }
    return this.queue.pop();
  }

  private speed(): number {
    return this.cpus === undefined || this.running.size <= this.cpus ? 1 : this.cpus / this.running.size;
  }

  private advanceTo(t: number): void {
    this.virtual += (t - this.lastMs) * this.speed();
    this.lastMs = t;
  }
}
