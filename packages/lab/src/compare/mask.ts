/**
 * A loser's message with what differs from run to run masked: uuids (a staging file's, delta-rs's
 * `__delta_rs_write_insert_<uuid>`), data file names, long numbers (snapshot ids, epoch times) and paths (each run's
 * own table folder). Versions are kept: they say which commit a writer lost to.
 */

const MASKS: [RegExp, string][] = [
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>'],
  [/(?:\/[\w.@+<>-]+){2,}\/?/g, '<path>'],
  [/[\w.<>-]+\.parquet\b/g, '<file>'],
  [/\b\d{13,}\b/g, '<id>'],
];

export function maskIds(message: string): string {
  return MASKS.reduce((m, [re, by]) => m.replace(re, by), message);
}
