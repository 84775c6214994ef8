/**
 * Live progress for subscribers: one LISTEN connection per API process wakes the subscribers of a
 * race when its worker, on any host, stores an event. Events are read from the table, so a
 * subscriber gets them all, in order, even those stored before it subscribed or while it was busy.
 */
import pg from 'pg';
import type { Db } from '../db/prisma';
import { PROGRESS_CHANNEL, TERMINAL } from './store';

type Wake = () => void;

export class ProgressHub {
  private readonly waiting = new Map<string, Set<Wake>>();
  private client: pg.Client | null = null;
  private closed = false;

  constructor(private readonly url: string) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (n) => n.payload && this.wake(n.payload));
    client.on('error', (e) => {
      console.error(`progress listener: ${e.message}; reconnecting`);
      this.client = null;
      this.wakeAll(); // subscribers re-read the table, so nothing stored meanwhile is missed
      if (!this.closed) setTimeout(() => void this.start().catch(() => {}), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${PROGRESS_CHANNEL}`);
    this.client = client;
  }

  get stopped(): boolean {
    return this.closed;
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.wakeAll();
    await this.client?.end();
  }

  private wake(raceId: string) {
    for (const w of this.waiting.get(raceId) ?? []) w();
  }

  private wakeAll() {
    for (const id of this.waiting.keys()) this.wake(id);
  }

  /** A latch for one subscriber: `wait()` resolves at once if a notification came since the last wait. */
  watch(raceId: string) {
    let pending = false;
    let resolve: (() => void) | null = null;
    const wake: Wake = () => {
      pending = true;
      resolve?.();
    };
    const set = this.waiting.get(raceId) ?? new Set();
    set.add(wake);
    this.waiting.set(raceId, set);
    return {
      wait: () =>
        new Promise<void>((r) => {
          if (pending || this.closed) r();
          else resolve = r;
        }).then(() => {
          pending = false;
          resolve = null;
        }),
      close: () => {
        set.delete(wake);
        if (set.size === 0) this.waiting.delete(raceId);
      },
    };
  }
}

export interface RaceEventRow {
  id: number;
  raceId: string;
  runIndex: number | null;
  status: (typeof TERMINAL)[number] | 'QUEUED' | 'RUNNING';
  message: string;
  createdAt: Date;
}

/** Every event of the race in order, then live ones, until the race ends (or the hub stops). */
export async function* raceEvents(db: Db, hub: ProgressHub, raceId: string): AsyncGenerator<RaceEventRow> {
  const watch = hub.watch(raceId);
  let last = 0;
  try {
    for (;;) {
      const events = await db.raceEvent.findMany({ where: { raceId, id: { gt: last } }, orderBy: { id: 'asc' } });
      for (const e of events) {
        last = e.id;
        yield e;
        if (TERMINAL.includes(e.status)) return;
      }
      await watch.wait();
      if (hub.stopped) return;
    }
  } finally {
    watch.close();
  }
}
