/**
 * The contention simulation's only data structure: a binary heap of events (a time and the writer it is for),
 * earliest first, ties in scheduling order, so the same seed always replays the same interleaving.
 */
export class EventQueue {
  private times: number[] = [];
  private seqs: number[] = [];
  private writers: number[] = [];
  private seq = 0;

  get size(): number {
    return this.times.length;
  }

  push(time: number, writer: number): void {
    this.times.push(time);
    this.seqs.push(this.seq++);
    this.writers.push(writer);
    let i = this.times.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** The earliest event's time (the queue is not empty). */
  peekTime(): number {
    return this.times[0] as number;
  }

  /** The earliest event: [time, writer]. */
  pop(): [number, number] {
    const top: [number, number] = [this.times[0] as number, this.writers[0] as number];
    const last = this.times.length - 1;
    this.swap(0, last);
    this.times.pop();
    this.seqs.pop();
    this.writers.pop();
    let i = 0;
    for (;;) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let m = i;
      if (l < this.times.length && this.before(l, m)) m = l;
      if (r < this.times.length && this.before(r, m)) m = r;
      if (m === i) return top;
      this.swap(i, m);
      i = m;
    }
  }

  private before(a: number, b: number): boolean {
    const [ta, tb] = [this.times[a] as number, this.times[b] as number];
    return ta < tb || (ta === tb && (this.seqs[a] as number) < (this.seqs[b] as number));
  }

  private swap(a: number, b: number): void {
    for (const xs of [this.times, this.seqs, this.writers]) {
      const t = xs[a] as number;
      xs[a] = xs[b] as number;
      xs[b] = t;
    }
  }
}
