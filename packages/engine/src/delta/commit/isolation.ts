/**
 * `delta.isolationLevel`: how delta-rs 1.6.x parses it for conflict checking, and, separately, what
 * each engine makes of any string (the diagnostic the dashboard and the audit show). Pure.
 */

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

export type EngineId = 'delta-rs' | 'delta-rs-legacy' | 'delta-spark' | 'databricks';

export interface EngineReading {
  engine: EngineId;
  /** The engine and versions this reading is for. */
  label: string;
  /** The level the engine's commits will use, or null when a commit fails outright. */
  effective: IsolationLevel | null;
  /**
   * parsed: the engine read the value as written. default: unset, the engine's default applies.
   * ignored: the engine silently uses its default instead. rejected: setting it fails.
   * commitFails: a value already in the log makes every commit throw.
   */
  status: 'parsed' | 'default' | 'ignored' | 'rejected' | 'commitFails';
  /** The error text the engine raises, when it raises one. */
  error?: string;
  /** Whether the author of the value most likely meant something else than what happens. */
  flagged: boolean;
  /** One sentence on what will really happen. */
  explanation: string;
  /** The spelling to use on this engine for the level the author most likely meant. */
  suggestion?: string;
}

const LEVELS: IsolationLevel[] = ['Serializable', 'WriteSerializable', 'SnapshotIsolation'];
const CAMEL: Record<IsolationLevel, string> = {
  Serializable: 'serializable',
  WriteSerializable: 'writeSerializable',
  SnapshotIsolation: 'snapshotIsolation',
};

/** The level a human most likely meant: case, spaces, underscores and dashes ignored. */
export function intendedLevel(value: string): IsolationLevel | null {
  const norm = value.replace(/[\s_-]/g, '').toLowerCase();
  return LEVELS.find((l) => l.toLowerCase() === norm) ?? null;
}

function describe(value: string | null): string {
  return value === null ? 'unset' : `'${value}'`;
}

function deltaRs(value: string | null): EngineReading {
  const label = 'delta-rs 1.2–1.6.x';
  if (value === null) {
    return {
      engine: 'delta-rs',
      label,
      effective: 'Serializable',
      status: 'default',
      flagged: false,
      explanation: 'Unset: delta-rs checks conflicts as Serializable.',
    };
  }
  const effective = effectiveIsolationLevel({ [ISOLATION_LEVEL_KEY]: value });
  const meant = intendedLevel(value);
  if (CAMEL[effective] === value) {
    const note =
      effective === 'SnapshotIsolation'
        ? ' It skips the check for concurrently added data, and Delta Spark refuses to set this value.'
        : '';
    return {
      engine: 'delta-rs',
      label,
      effective,
      status: 'parsed',
      flagged: effective === 'SnapshotIsolation',
      explanation: `delta-rs parses ${describe(value)} as ${effective}.${note}`,
    };
  }
  const wrong = meant !== null && meant !== 'Serializable';
  return {
    engine: 'delta-rs',
    label,
    effective: 'Serializable',
    status: 'ignored',
    // `Serializable` lands on the default by accident: right level, so not flagged.
    flagged: meant !== 'Serializable',
    explanation: wrong
      ? `delta-rs does not parse ${describe(value)} (its parser is case-sensitive camelCase), silently falls back to Serializable, and so fails commits that ${meant} would let through.`
      : meant === 'Serializable'
        ? `delta-rs does not parse ${describe(value)}, but its silent fallback is Serializable, which is what it says.`
        : `delta-rs does not parse ${describe(value)} and silently uses Serializable.`,
    ...(meant !== null && { suggestion: CAMEL[meant] }),
  };
}

function deltaRsLegacy(value: string | null): EngineReading {
  const label = 'delta-rs ≤ 1.1.4';
  if (value === null) {
    return {
      engine: 'delta-rs-legacy',
      label,
      effective: 'Serializable',
      status: 'default',
      flagged: false,
      explanation: 'Unset: Serializable.',
    };
  }
  const norm = value.toLowerCase();
  const map: Record<string, IsolationLevel> = {
    serializable: 'Serializable',
    writeserializable: 'WriteSerializable',
    write_serializable: 'WriteSerializable',
    snapshotisolation: 'SnapshotIsolation',
    snapshot_isolation: 'SnapshotIsolation',
  };
  const level = map[norm];
  if (level) {
    return {
      engine: 'delta-rs-legacy',
      label,
      effective: level,
      status: 'parsed',
      flagged: false,
      explanation: `delta-rs ≤ 1.1.4 read ${describe(value)} case-insensitively as ${level}.`,
    };
  }
  const meant = intendedLevel(value);
  return {
    engine: 'delta-rs-legacy',
    label,
    effective: 'Serializable',
    status: 'ignored',
    flagged: meant !== 'Serializable',
    explanation: `delta-rs ≤ 1.1.4 did not parse ${describe(value)} and fell back to Serializable.`,
    ...(meant !== null && { suggestion: meant }),
  };
}

function deltaSpark(value: string | null): EngineReading {
  const label = 'Delta Lake on Spark (OSS)';
  if (value === null) {
    return {
      engine: 'delta-spark',
      label,
      effective: 'Serializable',
      status: 'default',
      flagged: false,
      explanation: 'Unset: Delta Spark uses Serializable.',
    };
  }
  const level = LEVELS.find((l) => l.toLowerCase() === value.toLowerCase());
  if (!level) {
    const error = `invalid isolation level '${value}'`;
    const meant = intendedLevel(value);
    return {
      engine: 'delta-spark',
      label,
      effective: null,
      status: 'commitFails',
      error,
      flagged: true,
      explanation: `Delta Spark refuses to set ${describe(value)} (${error}), and if another engine wrote it, every Spark commit to the table fails with that error.`,
      ...(meant !== null && { suggestion: meant }),
    };
  }
  if (level !== 'Serializable') {
    return {
      engine: 'delta-spark',
      label,
      effective: level,
      status: 'rejected',
      error: 'requirement failed: delta.isolationLevel must be Serializable',
      flagged: true,
      explanation: `Delta Spark's DDL refuses ${describe(value)} (only Serializable may be set), though a value another engine wrote is honoured as ${level} at commit.`,
    };
  }
  return {
    engine: 'delta-spark',
    label,
    effective: 'Serializable',
    status: 'parsed',
    flagged: false,
    explanation: `Delta Spark reads ${describe(value)} case-insensitively as Serializable.`,
  };
}

function databricks(value: string | null): EngineReading {
  const label = 'Databricks';
  if (value === null) {
    return {
      engine: 'databricks',
      label,
      effective: 'WriteSerializable',
      status: 'default',
      flagged: false,
      explanation: 'Unset: Databricks defaults to WriteSerializable.',
    };
  }
  const level = (['Serializable', 'WriteSerializable'] as const).find((l) => l.toLowerCase() === value.toLowerCase());
  if (level) {
    const documented = level === value;
    return {
      engine: 'databricks',
      label,
      effective: level,
      status: 'parsed',
      flagged: false,
      explanation: documented
        ? `Databricks documents ${describe(value)}: ${level}.`
        : `Databricks documents the spelling '${level}'; ${describe(value)} is most likely read the same way (its parser is closed source).`,
      ...(!documented && { suggestion: level }),
    };
  }
  const meant = intendedLevel(value);
  return {
    engine: 'databricks',
    label,
    effective: null,
    status: 'rejected',
    flagged: true,
    explanation: `Databricks documents only 'Serializable' and 'WriteSerializable'; ${describe(value)} is not one of them.`,
    ...(meant === 'Serializable' || meant === 'WriteSerializable' ? { suggestion: meant } : {}),
  };
}

/** What every engine makes of a value of `delta.isolationLevel` (null: the property is unset). */
export function interpretIsolationLevel(value: string | null): EngineReading[] {
  return [deltaRs(value), deltaRsLegacy(value), deltaSpark(value), databricks(value)];
}
