/**
 * The writer libraries a team's jobs commit with, named once. "Engine" is this package; a case's table
 * format is the lab's word; the library that writes a Delta table is this one. Every reading of
 * `delta.isolationLevel` is per library, and the conflict checkers exist for all but delta-rs's legacy
 * versions, which differ from delta-rs 1.2+ only in how they read the level, never in what they check.
 */

export type WriterLibrary = 'delta-rs' | 'delta-rs-legacy' | 'delta-spark' | 'databricks';

/** Every library the isolation diagnostic reads for, in the order it lists them (delta-rs, the one races run, first). */
export const WRITER_LIBRARIES: readonly WriterLibrary[] = ['delta-rs', 'delta-rs-legacy', 'delta-spark', 'databricks'];

/** The libraries with a conflict checker of their own. */
export type CheckedLibrary = Exclude<WriterLibrary, 'delta-rs-legacy'>;

export const CHECKED_LIBRARIES: readonly CheckedLibrary[] = ['delta-rs', 'delta-spark', 'databricks'];
