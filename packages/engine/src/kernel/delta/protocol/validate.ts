/**
 * Shape checks for log actions against the Delta protocol. The log reader runs them on every line it
 * reads (so a corrupt commit is reported with its file and line, never half-applied) and the tests
 * run them on every commit the engine writes.
 */
import type { Action } from './actions';

export class LogFormatError extends Error {
  override name = 'LogFormatError';
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isStrMap = (v: unknown) => isObj(v) && Object.values(v).every((x) => x === null || typeof x === 'string');

function req(cond: boolean, what: string): void {
  if (!cond) throw new LogFormatError(what);
}

function checkProtocol(p: Obj): void {
  req(isInt(p.minReaderVersion) && p.minReaderVersion >= 1, 'protocol.minReaderVersion must be an integer >= 1');
  req(isInt(p.minWriterVersion) && p.minWriterVersion >= 1, 'protocol.minWriterVersion must be an integer >= 1');
  const rf = p.readerFeatures;
  const wf = p.writerFeatures;
  if (rf !== undefined && rf !== null) {
    req(Array.isArray(rf) && rf.every((x) => typeof x === 'string'), 'protocol.readerFeatures must be strings');
    req(p.minReaderVersion === 3, 'protocol.readerFeatures is only allowed at minReaderVersion 3');
  }
  if (wf !== undefined && wf !== null) {
    req(Array.isArray(wf) && wf.every((x) => typeof x === 'string'), 'protocol.writerFeatures must be strings');
    req(p.minWriterVersion === 7, 'protocol.writerFeatures is only allowed at minWriterVersion 7');
  }
  if (p.minReaderVersion === 3) req(p.minWriterVersion === 7, 'minReaderVersion 3 requires minWriterVersion 7');
}

function checkMetadata(m: Obj): void {
  req(typeof m.id === 'string' && m.id.length > 0, 'metaData.id must be a non-empty string');
  req(isObj(m.format) && typeof m.format.provider === 'string', 'metaData.format.provider must be a string');
  req(typeof m.schemaString === 'string', 'metaData.schemaString must be a string');
  req(
    Array.isArray(m.partitionColumns) && m.partitionColumns.every((c) => typeof c === 'string'),
    'metaData.partitionColumns must be an array of strings',
  );
  req(m.configuration === undefined || isStrMap(m.configuration), 'metaData.configuration must map strings to strings');
  req(
    m.createdTime === undefined || m.createdTime === null || isInt(m.createdTime),
    'metaData.createdTime must be an integer',
  );
}

function checkAdd(a: Obj): void {
  req(typeof a.path === 'string' && a.path.length > 0, 'add.path must be a non-empty string');
  req(isStrMap(a.partitionValues), 'add.partitionValues must map strings to strings');
  req(isInt(a.size) && a.size >= 0, 'add.size must be a non-negative integer');
  req(isInt(a.modificationTime), 'add.modificationTime must be an integer');
  req(typeof a.dataChange === 'boolean', 'add.dataChange must be a boolean');
  // Stats stay a string here: parsing 10,000 of them on every load would cost more than the load.
  // Readers parse them lazily, and unreadable stats mean "unknown", which keeps the file.
  req(a.stats === undefined || a.stats === null || typeof a.stats === 'string', 'add.stats must be a JSON string');
  req(a.tags === undefined || a.tags === null || isStrMap(a.tags), 'add.tags must map strings to strings');
}

function checkRemove(r: Obj): void {
  req(typeof r.path === 'string' && r.path.length > 0, 'remove.path must be a non-empty string');
  req(typeof r.dataChange === 'boolean', 'remove.dataChange must be a boolean');
  for (const k of ['deletionTimestamp', 'size'] as const) {
    req(r[k] === undefined || r[k] === null || isInt(r[k]), `remove.${k} must be an integer`);
  }
  req(
    r.partitionValues === undefined || r.partitionValues === null || isStrMap(r.partitionValues),
    'remove.partitionValues must map strings to strings',
  );
}

function checkTxn(t: Obj): void {
  req(typeof t.appId === 'string', 'txn.appId must be a string');
  req(isInt(t.version), 'txn.version must be an integer');
}

const CHECKS: Record<string, (o: Obj) => void> = {
  protocol: checkProtocol,
  metaData: checkMetadata,
  add: checkAdd,
  remove: checkRemove,
  txn: checkTxn,
  commitInfo: () => {},
  cdc: () => {},
  domainMetadata: () => {},
};

/**
 * Checks one parsed log line. Returns the action, or null for an action type this engine does not
 * know (readers must ignore those); throws LogFormatError for a known action with a wrong shape.
 */
export function validateAction(value: unknown): Action | null {
  req(isObj(value), 'a log line must be a JSON object');
  const keys = Object.keys(value as Obj);
  req(keys.length === 1, `a log line must hold exactly one action, found ${keys.length} keys`);
  const kind = keys[0] as string;
  const check = CHECKS[kind];
  if (!check) return null;
  const body = (value as Obj)[kind];
  req(isObj(body), `${kind} must be an object`);
  check(body as Obj);
  return value as Action;
}

/** The per-commit rules of the Delta protocol: at most one protocol and metaData, unique file and appId keys. */
export function validateCommitActions(actions: readonly Action[]): void {
  let protocols = 0;
  let metas = 0;
  const adds = new Set<string>();
  const removes = new Set<string>();
  const apps = new Set<string>();
  for (const a of actions) {
    if ('protocol' in a) protocols++;
    if ('metaData' in a) metas++;
    if ('add' in a) {
      const key = `${a.add.path}\u0000${a.add.deletionVector?.pathOrInlineDv ?? ''}`;
      req(!adds.has(key), `two add actions for ${a.add.path} in one commit`);
      adds.add(key);
    }
    if ('remove' in a) {
      const key = `${a.remove.path}\u0000${a.remove.deletionVector?.pathOrInlineDv ?? ''}`;
      req(!removes.has(key), `two remove actions for ${a.remove.path} in one commit`);
      removes.add(key);
    }
    if ('txn' in a) {
      req(!apps.has(a.txn.appId), `two txn actions for appId ${a.txn.appId} in one commit`);
      apps.add(a.txn.appId);
    }
  }
  req(protocols <= 1, 'a commit may hold at most one protocol action');
  req(metas <= 1, 'a commit may hold at most one metaData action');
}

/**
 * Parses a commit file's text; errors name the file and the 1-based line. A file without a line (0 bytes, or only
 * whitespace) is damage, never an empty commit: every writer writes at least one action, and a file created but
 * never written (a power loss before the data reached the disk) looks like this.
 */
export function parseCommitText(text: string, fileName: string): Action[] {
  if (text.trim() === '')
    throw new LogFormatError(`${fileName}: the commit file is empty (a commit holds at least one action)`);
  const actions: Action[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]?.trim();
    if (!line) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (e) {
      throw new LogFormatError(`${fileName}: line ${i + 1} is not valid JSON (${(e as Error).message})`);
    }
    try {
      const action = validateAction(parsed);
      if (action) actions.push(action);
    } catch (e) {
      throw new LogFormatError(`${fileName}: line ${i + 1}: ${(e as Error).message}`);
    }
  }
  return actions;
}
