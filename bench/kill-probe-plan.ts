/**
 * bench/kill-probe's shared terms: the ids writers append and the offset an UPDATE adds to an id. Both the parent
 * (kill delays) and its writers (which operation next) draw from the engine's seededRandom, so a run repeats by seed.
 */

/** What an UPDATE adds to the id it updates: far above every id a writer appends. */
export const UPDATE_OFFSET = 100_000_000;

/** Ids below this are the table's own rows from before the probe; writers append above it. */
export const FIRST_WRITER_ID = 1_000;

/** The ids of one writer: it never appends this many within a life of at most a few hundred milliseconds. */
export const IDS_PER_WRITER = 1_000;
