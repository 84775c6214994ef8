/**
 * bench/kill-probe's shared terms: the seeded random numbers both the parent (kill delays) and its writers
 * (which operation next) draw, so a run repeats with its seed, and the offset an UPDATE adds to an id.
 */

/** What an UPDATE adds to the id it updates: far above every id a writer appends. */
export const UPDATE_OFFSET = 100_000_000;

/** Ids below this are the table's own rows from before the probe; writers append above it. */
export const FIRST_WRITER_ID = 1_000;

/** The ids of one writer: it never appends this many within a life of at most a few hundred milliseconds. */
export const IDS_PER_WRITER = 1_000;

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
