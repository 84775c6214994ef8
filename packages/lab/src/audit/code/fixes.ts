/**
 * The fixes the jobs audit and the code audit both give, written once: the one spelling of an isolation level
 * the product recommends for the engines that write a table (the engine's recommendSpelling), and the actions
 * for commit metadata isolation, retries turned off and a blind append that reads.
 */
import {
  ISOLATION_LEVEL_KEY,
  ISOLATION_LEVELS,
  intendedLevel,
  type LibraryNamer,
  libraryLabel,
  recommendSpelling,
  spellingAdvice,
  type WriterLibrary,
} from '@racelab/engine';

/**
 * The fix for a table whose writers on `engines` set `value`: the one spelling of the level it names that every
 * one of them reads that way at commit, or, when none does, what the engines that read it differently do with
 * it (`name` names them); for a value that names no level, the spellings to choose from.
 */
export function isolationFix(
  value: string,
  engines: Iterable<WriterLibrary>,
  name: LibraryNamer = libraryLabel,
): string {
  const asked = [...engines];
  const meant = intendedLevel(value);
  if (meant === null) {
    const levels = ISOLATION_LEVELS.flatMap((level) => recommendSpelling(level, asked).value ?? []);
    return `remove ${ISOLATION_LEVEL_KEY}, or set the level you mean: ${levels.map((v) => `'${v}'`).join(', ')}`;
  }
  const rec = recommendSpelling(meant, asked);
  return rec.value === null ? spellingAdvice(rec, name) : spellingAdvice(rec);
}

export const COMMIT_METADATA_FIX = `remove it from the commit properties and set the table property ${ISOLATION_LEVEL_KEY} (camelCase for delta-rs, e.g. 'writeSerializable')`;

export const RETRIES_OFF_FIX =
  "keep delta-rs's default of 15 retries; the conflict checker still refuses what truly conflicts";

export const BLIND_APPEND_FIX = 'drop isBlindAppend: only a pure append that reads nothing may claim it';
