/**
 * `delta.isolationLevel`: how delta-rs 1.6.x parses it for conflict checking, and, separately, what
 * each writer library makes of any string (the diagnostic the dashboard and the audit show). Pure.
 */
import { WRITER_LIBRARIES, type WriterLibrary } from './writer-libraries';

export type IsolationLevel = 'Serializable' | 'WriteSerializable' | 'SnapshotIsolation';

export const ISOLATION_LEVEL_KEY = 'delta.isolationLevel';

/**
 * delta-kernel's parser, which delta-rs ≥ 1.2 uses: the exact key, and exactly the camelCase values
 * `serializable`, `writeSerializable`, `snapshotIsolation`. Anything else, capital-W
 * `WriteSerializable` included, fails to parse, is dropped without a word, and the table falls back
 * to the default, Serializable. Unset is Serializable too.
 */
export function effectiveIsolationLevel(configuration: Record<string, string | null | undefined>): IsolationLevel {
  switch (configuration[ISOLATION_LEVEL_KEY]) {
    case 'writeSerializable':
      return 'WriteSerializable';
    case 'snapshotIsolation':
      return 'SnapshotIsolation';
    default:
      return 'Serializable';
  }
}

export interface LibraryReading {
  library: WriterLibrary;
  /** The engine and versions this reading is for, as a sentence names it. */
  label: string;
  /** The level the engine's commits will use, or null when a commit fails outright. */
  effective: IsolationLevel | null;
  /**
   * parsed: the engine reads the value as written when it commits. default: unset, the engine's
   * default applies. ignored: the engine silently uses its default instead. rejected: the engine
   * does not accept the value. commitFails: a value already in the log makes every commit throw.
   */
  status: 'parsed' | 'default' | 'ignored' | 'rejected' | 'commitFails';
  /** Whether the engine can write the value itself (Delta Spark's DDL sets only Serializable spellings). */
  settable: boolean;
  /** The error text the engine raises (when setting the value, or at every commit), when it raises one. */
  error?: string;
  /**
   * Commits will not use the level the value names: read as another level, refused, or failing.
   * Only that: an engine that reads the value as meant but cannot set it gets a note in
   * `explanation`, never a flag, so the spelling the product recommends is flagged by no engine.
   */
  flagged: boolean;
  /** One sentence on what will really happen. */
  explanation: string;
  /** On a flagged reading: the camelCase spelling of the level meant, when this engine reads that as meant. */
  suggestion?: string;
}

/** What an engine's reader decides; `flagged` and `suggestion` follow from it, the same way for every engine. */
type Reading = Omit<LibraryReading, 'library' | 'flagged' | 'suggestion'>;

export const ISOLATION_LEVELS: readonly IsolationLevel[] = ['Serializable', 'WriteSerializable', 'SnapshotIsolation'];
const CAMEL: Record<IsolationLevel, string> = {
  Serializable: 'serializable',
  WriteSerializable: 'writeSerializable',
  SnapshotIsolation: 'snapshotIsolation',
};

/** The camelCase spelling of a level: the only one delta-rs ≥ 1.2 parses, and one Spark's reading accepts too. */
export function camelCaseSpelling(level: IsolationLevel): string {
  return CAMEL[level];
}

/** The level a human most likely meant: case, spaces, underscores and dashes ignored. */
export function intendedLevel(value: string): IsolationLevel | null {
  const norm = value.replace(/[\s_-]/g, '').toLowerCase();
  return ISOLATION_LEVELS.find((l) => l.toLowerCase() === norm) ?? null;
}

function describe(value: string | null): string {
  return value === null ? 'unset' : `'${value}'`;
}

function deltaRs(value: string | null): Reading {
  const label = 'delta-rs 1.2–1.6.x';
  if (value === null) {
    return {
      label,
      effective: 'Serializable',
      status: 'default',
      settable: true,
      explanation: 'Unset: delta-rs checks conflicts as Serializable.',
    };
  }
  const effective = effectiveIsolationLevel({ [ISOLATION_LEVEL_KEY]: value });
  if (CAMEL[effective] === value) {
    const note = effective === 'SnapshotIsolation' ? ' It skips the check for concurrently added data.' : '';
    return {
      label,
      effective,
      status: 'parsed',
      settable: true,
      explanation: `delta-rs parses ${describe(value)} as ${effective}.${note}`,
    };
  }
  const meant = intendedLevel(value);
  return {
    label,
    effective: 'Serializable',
    status: 'ignored',
    // delta-rs validates no value on create or alter: it stores whatever it is given.
    settable: true,
    explanation:
      meant !== null && meant !== 'Serializable'
        ? `delta-rs does not parse ${describe(value)} (its parser is case-sensitive camelCase), silently falls back to Serializable, and so fails commits that ${meant} would let through.`
        : meant === 'Serializable'
          ? `delta-rs does not parse ${describe(value)}, but its silent fallback is Serializable, which is what it says.`
          : `delta-rs does not parse ${describe(value)} and silently uses Serializable.`,
  };
}

function deltaRsLegacy(value: string | null): Reading {
  const label = 'delta-rs ≤ 1.1.4';
  if (value === null) {
    return { label, effective: 'Serializable', status: 'default', settable: true, explanation: 'Unset: Serializable.' };
  }
  const map: Record<string, IsolationLevel> = {
    serializable: 'Serializable',
    writeserializable: 'WriteSerializable',
    write_serializable: 'WriteSerializable',
    snapshotisolation: 'SnapshotIsolation',
    snapshot_isolation: 'SnapshotIsolation',
  };
  const level = map[value.toLowerCase()];
  if (level) {
    return {
      label,
      effective: level,
      status: 'parsed',
      settable: true,
      explanation: `delta-rs ≤ 1.1.4 read ${describe(value)} case-insensitively as ${level}.`,
    };
  }
  return {
    label,
    effective: 'Serializable',
    status: 'ignored',
    settable: true,
    explanation: `delta-rs ≤ 1.1.4 did not parse ${describe(value)} and fell back to Serializable.`,
  };
}

/**
 * Delta Spark reads the value case-insensitively whenever it commits, whoever wrote it; its DDL
 * (CREATE, ALTER … SET TBLPROPERTIES, the session default) accepts only spellings of Serializable.
 */
function deltaSpark(value: string | null): Reading {
  const label = 'Delta Spark';
  if (value === null) {
    return {
      label,
      effective: 'Serializable',
      status: 'default',
      settable: true,
      explanation: 'Unset: Delta Spark uses Serializable.',
    };
  }
  const level = ISOLATION_LEVELS.find((l) => l.toLowerCase() === value.toLowerCase());
  if (!level) {
    const error = `invalid isolation level '${value}'`;
    return {
      label,
      effective: null,
      status: 'commitFails',
      settable: false,
      error,
      explanation: `Delta Spark refuses to set ${describe(value)} (${error}), and if another engine wrote it, every Spark commit to the table fails with that error.`,
    };
  }
  if (level !== 'Serializable') {
    return {
      label,
      effective: level,
      status: 'parsed',
      settable: false,
      error: 'requirement failed: delta.isolationLevel must be Serializable',
      explanation: `Delta Spark reads ${describe(value)} case-insensitively as ${level} at commit; its DDL cannot set it (only Serializable may be set), so another engine must write it.`,
    };
  }
  return {
    label,
    effective: 'Serializable',
    status: 'parsed',
    settable: true,
    explanation: `Delta Spark reads ${describe(value)} case-insensitively as Serializable.`,
  };
}

function databricks(value: string | null): Reading {
  const label = 'Databricks';
  if (value === null) {
    return {
      label,
      effective: 'WriteSerializable',
      status: 'default',
      settable: true,
      explanation: 'Unset: Databricks defaults to WriteSerializable.',
    };
  }
  const level = (['Serializable', 'WriteSerializable'] as const).find((l) => l.toLowerCase() === value.toLowerCase());
  if (level) {
    return {
      label,
      effective: level,
      status: 'parsed',
      settable: true,
      explanation:
        level === value
          ? `Databricks documents ${describe(value)}: ${level}.`
          : `Databricks documents the spelling '${level}'; ${describe(value)} is most likely read the same way (its parser is closed source; Delta Spark's, which it builds on, ignores case).`,
    };
  }
  return {
    label,
    effective: null,
    status: 'rejected',
    settable: false,
    explanation: `Databricks documents only 'Serializable' and 'WriteSerializable'; ${describe(value)} is not one of them.`,
  };
}

const READERS: Record<WriterLibrary, (value: string | null) => Reading> = {
  'delta-rs': deltaRs,
  'delta-rs-legacy': deltaRsLegacy,
  'delta-spark': deltaSpark,
  databricks,
};

/** What one engine makes of a value of `delta.isolationLevel` (null: the property is unset). */
export function readIsolationLevel(value: string | null, library: WriterLibrary): LibraryReading {
  const reading = READERS[library](value);
  if (value === null) return { library, ...reading, flagged: false };
  const meant = intendedLevel(value);
  const flagged = reading.effective === null || reading.effective !== meant;
  // Every suggestion is the one spelling recommended for the level (isolation-spelling.ts), never an engine's own favourite.
  const fix = meant === null ? null : CAMEL[meant];
  const suggest = flagged && fix !== null && fix !== value && READERS[library](fix).effective === meant;
  return { library, ...reading, flagged, ...(suggest && { suggestion: fix }) };
}

/** What every engine makes of a value of `delta.isolationLevel` (null: the property is unset). */
export function interpretIsolationLevel(value: string | null): LibraryReading[] {
  return WRITER_LIBRARIES.map((engine) => readIsolationLevel(value, engine));
}
