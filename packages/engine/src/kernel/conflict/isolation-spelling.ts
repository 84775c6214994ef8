/**
 * The one spelling of `delta.isolationLevel` to recommend, for the level a team means and the
 * engines that write its table. Reading at commit decides every conflict, so the recommendation is
 * the camelCase spelling when every one of those engines reads it as that level when it commits;
 * setting the value is done once, so an engine that cannot set it (Delta Spark's DDL sets only
 * Serializable spellings) gets a note naming an engine that can, never a flag. An unset level is
 * each engine's own default, which differ (Databricks: WriteSerializable). Pure: it asks only each
 * engine's reading (isolation.ts), so what it recommends no reading flags.
 */
import {
  camelCaseSpelling,
  ISOLATION_LEVEL_KEY,
  type IsolationLevel,
  type LibraryReading,
  readIsolationLevel,
} from './isolation';
import { WRITER_LIBRARIES, type WriterLibrary } from './writer-libraries';

export interface SpellingRecommendation {
  level: IsolationLevel;
  /** The spelling to write; null when some engine asked about reads `candidate` otherwise at commit. */
  value: string | null;
  /** The camelCase spelling judged: the recommendation, when `value` is set. */
  candidate: string;
  /** Each engine's reading of `candidate`, in WRITER_LIBRARIES order; none is flagged when `value` is set. */
  readings: LibraryReading[];
  /** Engines that commit at another level with `candidate`, or not at all (empty when `value` is set). */
  readDifferently: WriterLibrary[];
  /** Engines that read `candidate` as meant but cannot set it themselves. */
  cannotSet: WriterLibrary[];
  /** Where to set it from: the engines asked about that can, or, when none of them can, every engine that can. */
  setFrom: WriterLibrary[];
}

/** The engines, each once, in the order the readings list them. */
const inOrder = (engines: Iterable<WriterLibrary>) => {
  const asked = new Set(engines);
  return WRITER_LIBRARIES.filter((e) => asked.has(e));
};

/** The spelling of `level` every one of `engines` reads as `level` at commit, with what each makes of it. */
export function recommendSpelling(level: IsolationLevel, engines: Iterable<WriterLibrary>): SpellingRecommendation {
  const candidate = camelCaseSpelling(level);
  const readings = inOrder(engines).map((e) => readIsolationLevel(candidate, e));
  const readDifferently = readings.filter((r) => r.effective !== level).map((r) => r.library);
  const here = readings.filter((r) => r.settable).map((r) => r.library);
  return {
    level,
    value: readDifferently.length === 0 ? candidate : null,
    candidate,
    readings,
    readDifferently,
    cannotSet: readings.filter((r) => r.effective === level && !r.settable).map((r) => r.library),
    setFrom: here.length > 0 ? here : WRITER_LIBRARIES.filter((e) => readIsolationLevel(candidate, e).settable),
  };
}

export interface UnsetLevel {
  /** Each engine's default, in WRITER_LIBRARIES order. */
  defaults: { engine: WriterLibrary; level: IsolationLevel }[];
  /** The defaults differ among the engines asked about: with nothing set, their commits use different levels. */
  flagged: boolean;
}

/** What an unset `delta.isolationLevel` means to each of `engines`. */
export function readUnset(engines: Iterable<WriterLibrary>): UnsetLevel {
  const defaults = inOrder(engines).map((engine) => ({
    engine,
    level: readIsolationLevel(null, engine).effective as IsolationLevel,
  }));
  return { defaults, flagged: new Set(defaults.map((d) => d.level)).size > 1 };
}

/** Names an engine in a sentence: its label, or, for the audit, the jobs that run on it. */
export type LibraryNamer = (engine: WriterLibrary) => string;

export const libraryLabel: LibraryNamer = (engine) => readIsolationLevel(null, engine).label;

const joined = (items: string[], word: 'and' | 'or') =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)}`;

/** What an engine that reads no level from a value does with it. */
const WITHOUT_LEVEL: Partial<Record<LibraryReading['status'], string>> = {
  commitFails: 'fails every commit with it',
  rejected: 'does not accept it',
};

/**
 * The recommendation in one sentence, e.g. "set delta.isolationLevel = 'writeSerializable': every
 * engine here reads it as WriteSerializable at commit (Delta Spark's DDL cannot set it: set it from
 * delta-rs 1.2–1.6.x)"; when no spelling works, what the engines that read it differently do with it.
 * `name` names each engine mentioned (the audit names the jobs that run on it).
 */
export function spellingAdvice(rec: SpellingRecommendation, name: LibraryNamer = libraryLabel): string {
  const { level, candidate, readings } = rec;
  if (rec.value === null) {
    const others = readings
      .filter((r) => rec.readDifferently.includes(r.library))
      .map((r) => `${name(r.library)} ${r.effective ? `reads it as ${r.effective}` : WITHOUT_LEVEL[r.status]}`);
    return `no spelling of ${level} is read as ${level} at commit by every engine here: with '${candidate}', ${others.join('; ')}`;
  }
  const [only] = readings;
  const who = readings.length === 1 && only ? `${name(only.library)} reads` : 'every engine here reads';
  const note =
    rec.cannotSet.length === 0
      ? ''
      : ` (${joined(
          rec.cannotSet.map((e) => `${name(e)}'s DDL`),
          'and',
        )} cannot set it: set it from ${joined(rec.setFrom.map(name), 'or')})`;
  return `set ${ISOLATION_LEVEL_KEY} = '${rec.value}': ${who} it as ${level} at commit${note}`;
}

/** Each engine's default, grouped by level, e.g. "unset: A and B commit at Serializable; C commits at WriteSerializable". */
export function describeUnset(unset: UnsetLevel, name: LibraryNamer = libraryLabel): string {
  const byLevel = new Map<IsolationLevel, string[]>();
  for (const d of unset.defaults) byLevel.set(d.level, [...(byLevel.get(d.level) ?? []), name(d.engine)]);
  const uses = [...byLevel].map(
    ([level, who]) => `${joined(who, 'and')} ${who.length > 1 ? 'commit' : 'commits'} at ${level}`,
  );
  return `unset: ${uses.join('; ')}`;
}

/** When the defaults differ: the spellings, one per default in play, that make every engine commit at one level. */
export function unsetFix(unset: UnsetLevel): string | null {
  if (!unset.flagged) return null;
  const engines = unset.defaults.map((d) => d.engine);
  const levels = new Set(unset.defaults.map((d) => d.level));
  const spellings = [...levels].flatMap((level) => recommendSpelling(level, engines).value ?? []);
  return `set ${ISOLATION_LEVEL_KEY} to the level you mean, ${joined(
    spellings.map((s) => `'${s}'`),
    'or',
  )}, so that every engine commits at one level`;
}
