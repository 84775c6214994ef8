/**
 * The barrier of a race whose writers run on several hosts, kept in Postgres instead of one
 * parent process: a row per writer (waiting → ready → committed → done), changed with NOTIFY.
 * Every writer releases itself: when all the race's writers are ready, or, for one that starts
 * after another, when that one has committed or given up. The coordinator only creates the rows
 * and waits for every writer to be done. Nothing is shared but Postgres (and the table's store).
 */
import pg from 'pg';

export const BARRIER_CHANNEL = 'lab_barrier';

export type BarrierState = 'waiting' | 'ready' | 'committed' | 'done';

export interface BarrierRow {
  writer: string;
  state: BarrierState;
  /** Who ran the writer: host:pid. */
  host: string | null;
  data: Record<string, unknown>;
}

/** What a writer needs to find its race's barrier. */
export interface BarrierRef {
  url: string;
  raceKey: string;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS lab_barrier (
  race_key text NOT NULL,
  writer text NOT NULL,
  state text NOT NULL DEFAULT 'waiting',
  host text,
  data jsonb NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (race_key, writer)
)`;

export class BarrierAbortedError extends Error {
  override name = 'BarrierAbortedError';
}

export class PgBarrier {
  private wake: (() => void) | null = null;
  private pending = false;

  private constructor(
    private readonly client: pg.Client,
    readonly raceKey: string,
  ) {}

  static async open(ref: BarrierRef): Promise<PgBarrier> {
    const client = new pg.Client({ connectionString: ref.url });
    // A dropped connection surfaces as the next query's error; without a listener it would crash the writer.
    client.on('error', () => undefined);
    await client.connect();
    const barrier = new PgBarrier(client, ref.raceKey);
    client.on('notification', (n) => {
      if (n.payload !== ref.raceKey) return;
      barrier.pending = true;
      barrier.wake?.();
    });
    await client.query(`LISTEN ${BARRIER_CHANNEL}`);
    return barrier;
  }

  /** The coordinator, before any writer is dispatched: the table if need be, one waiting row per writer. */
  async create(writers: string[]): Promise<void> {
    // Two coordinators creating the table at once: the loser's unique-violation is harmless.
    await this.client.query(SCHEMA).catch((e: { code?: string }) => {
      if (e.code !== '23505' && e.code !== '42P07') throw e;
    });
    await this.client.query(`INSERT INTO lab_barrier (race_key, writer) SELECT $1, unnest($2::text[])`, [
      this.raceKey,
      writers,
    ]);
  }

  async mark(writer: string, state: BarrierState, host: string, data: Record<string, unknown> = {}): Promise<void> {
    await this.client.query(
      `UPDATE lab_barrier SET state = $3, host = $4, data = data || $5::jsonb, updated_at = now()
       WHERE race_key = $1 AND writer = $2`,
      [this.raceKey, writer, state, host, JSON.stringify(data)],
    );
    await this.client.query('SELECT pg_notify($1, $2)', [BARRIER_CHANNEL, this.raceKey]);
  }

  async rows(): Promise<BarrierRow[]> {
    const r = await this.client.query<BarrierRow>(
      'SELECT writer, state, host, data FROM lab_barrier WHERE race_key = $1 ORDER BY writer',
      [this.raceKey],
    );
    return r.rows;
  }

  /** Re-reads the rows at every change until `done(rows)` holds; rejects when `signal` aborts. */
  async until(done: (rows: BarrierRow[]) => boolean, signal?: AbortSignal): Promise<BarrierRow[]> {
    for (;;) {
      this.pending = false;
      const rows = await this.rows();
      if (done(rows)) return rows;
      if (signal?.aborted) throw new BarrierAbortedError('the race was cancelled');
      await new Promise<void>((resolve) => {
        if (this.pending) return resolve();
        this.wake = resolve;
        signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      this.wake = null;
    }
  }

  async drop(): Promise<void> {
    await this.client.query('DELETE FROM lab_barrier WHERE race_key = $1', [this.raceKey]);
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

/** Whether a writer may go: everyone is past waiting, and its leader (if any) has committed or given up. */
export function released(rows: BarrierRow[], startAfter: string | undefined): boolean {
  if (rows.some((r) => r.state === 'waiting')) return false;
  if (startAfter === undefined) return true;
  const leader = rows.find((r) => r.writer === startAfter);
  return leader !== undefined && (leader.state === 'committed' || leader.state === 'done');
}
