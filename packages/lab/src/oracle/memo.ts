/**
 * Serial results kept across the runs of one case. A case's runs start from the same table with the same
 * writers, so the serial result of a given order is the same in every run: a run whose commit order (or an
 * order it tries) an earlier run replayed reads only its own raced side. A kept result is looked up by a key
 * naming everything its replay depends on (the formats build it: replayInputs in formats/delta/replay.ts and
 * formats/iceberg/replay.ts, the statements in formats/postgres/verdict.ts); a key that missed an input would give a wrong
 * verdict, so each names more than it needs rather than less.
 *
 * Bounded: at most MAX_KEPT_REPLAYS copies per case (least recently used go first, never one the verdict
 * under way uses; a replay beyond the bound lives only as long as its verdict), and MAX_FINGERPRINTS
 * fingerprints. dispose() removes every kept copy: runLab calls it when the case ends, whatever happened.
 */

/** Kept replay copies per case. A Delta one is hard links to the base table plus the files its writers wrote. */
export const MAX_KEPT_REPLAYS = 8;
/** Kept Postgres fingerprints per case (a few dozen bytes each). */
export const MAX_FINGERPRINTS = 256;

interface Kept {
  dir: string;
  serial: unknown;
  remove: (dir: string) => Promise<void>;
}

export interface MemoStats {
  /** Lookups served from the memo, and those that had to compute. */
  hits: number;
  misses: number;
  /** The copies kept now. */
  kept: string[];
}

export class VerdictMemo {
  private readonly replays = new Map<string, Kept>();
  private readonly fingerprints = new Map<string, string>();
  private made = 0;
  private hits = 0;
  private misses = 0;
  private disposed = false;

  /** `copyDir(n)`: a new folder (or s3:// prefix) for the case's n-th replay copy, which may outlive any run. */
  constructor(
    private readonly copyDir: (n: number) => string,
    private readonly maxKept = MAX_KEPT_REPLAYS,
  ) {}

  stats(): MemoStats {
    return { hits: this.hits, misses: this.misses, kept: [...this.replays.values()].map((k) => k.dir) };
  }

  /** One verdict's use of the memo: the copies it uses are not evicted before end(). */
  session(): ReplaySession {
    this.assertOpen();
    return new ReplaySession(this);
  }

  /** A fingerprint by its key: computed once per case. */
  async fingerprint(key: string, compute: () => Promise<string>): Promise<string> {
    this.assertOpen();
    const known = this.fingerprints.get(key);
    if (known !== undefined) {
      this.hits++;
      return known;
    }
    this.misses++;
    const value = await compute();
    if (this.fingerprints.size >= MAX_FINGERPRINTS)
      this.fingerprints.delete(this.fingerprints.keys().next().value as string);
    this.fingerprints.set(key, value);
    return value;
  }

  /** Removes every kept copy; the memo serves nothing afterwards. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const kept = [...this.replays.values()];
    this.replays.clear();
    this.fingerprints.clear();
    const removed = await Promise.allSettled(kept.map((k) => k.remove(k.dir)));
    const failed = removed.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private assertOpen() {
    if (this.disposed) throw new Error('the verdict memo was disposed');
  }

  /** @internal ReplaySession's lookups. */
  lookup(key: string): unknown {
    const kept = this.replays.get(key);
    if (!kept) return undefined;
    this.hits++;
    // Most recently used last: eviction takes the first.
    this.replays.delete(key);
    this.replays.set(key, kept);
    return kept.serial;
  }

  /** @internal */
  newDir(): string {
    this.misses++;
    return this.copyDir(this.made++);
  }

  /** @internal Keeps a copy if there is room (evicting one no verdict under way uses); false: the caller removes it. */
  async keep(key: string, kept: Kept, inUse: ReadonlySet<string>): Promise<boolean> {
    if (this.disposed) return false;
    while (this.replays.size >= this.maxKept) {
      const victim = [...this.replays.keys()].find((k) => !inUse.has(k));
      if (victim === undefined) return false;
      const old = this.replays.get(victim) as Kept;
      this.replays.delete(victim);
      await old.remove(old.dir);
    }
    this.replays.set(key, kept);
    return true;
  }
}

/** The replays of one verdict: kept ones from the memo, new ones kept there when there is room. */
export class ReplaySession {
  private readonly used = new Set<string>();
  private readonly temporary: Kept[] = [];

  constructor(private readonly memo: VerdictMemo) {}

  /** The serial result under `key`: the kept one, else `make` into a new folder (removed if `make` throws). */
  async replay<S>(key: string, make: (dir: string) => Promise<S>, remove: (dir: string) => Promise<void>): Promise<S> {
    this.used.add(key);
    const known = this.memo.lookup(key);
    if (known !== undefined) return known as S;
    const dir = this.memo.newDir();
    let serial: S;
    try {
      serial = await make(dir);
    } catch (e) {
      // The replay's own error is the one to report, even if its half-made copy will not go.
      await remove(dir).catch(() => undefined);
      throw e;
    }
    const kept = { dir, serial, remove };
    if (!(await this.memo.keep(key, kept, this.used))) this.temporary.push(kept);
    return serial;
  }

  /** Removes the copies that found no room in the memo. */
  async end(): Promise<void> {
    for (const t of this.temporary.splice(0)) await t.remove(t.dir);
  }
}
