/**
 * HistoryCommit values for the history tests, built from a table's commit files with the engine's readCommit:
 * what a commit is and what it says about itself, nothing inferred. The production reader (history/read.ts)
 * decides concurrency; a test states who was concurrent with whom itself, from what it raced. And the context
 * tableHistory gives the re-judgement, for a table opened at its latest version.
 */
import { type Action, DeltaTable, readCommit, storeFor } from '@racelab/engine';
import type { RejudgeContext } from '../../src/audit/history/rejudge';
import type { ConcurrencyEvidence, HistoryCommit } from '../../src/audit/history/types';

const text = (v: unknown) => (typeof v === 'string' ? v : null);

/** The commit at `version`, with the concurrency the test knows of it. */
export async function commitAt(
  dir: string,
  version: number,
  concurrentWith: number[] = [],
  evidence: ConcurrencyEvidence = concurrentWith.length > 0 ? 'recorded' : 'unknown',
  isolationProperty: string | null = null,
): Promise<HistoryCommit> {
  const actions: Action[] = await readCommit(storeFor(dir), version);
  const info = (actions.find((a) => 'commitInfo' in a) as { commitInfo: Record<string, unknown> } | undefined)
    ?.commitInfo;
  const params = (info?.operationParameters ?? {}) as Record<string, unknown>;
  const engineInfo = text(info?.engineInfo);
  return {
    version,
    timestamp: typeof info?.timestamp === 'number' ? info.timestamp : null,
    startedAt: null,
    operation: text(info?.operation),
    predicate: text(params.predicate),
    readVersion: typeof info?.readVersion === 'number' ? info.readVersion : null,
    isolationLevel: text(info?.isolationLevel),
    isBlindAppend: typeof info?.isBlindAppend === 'boolean' ? info.isBlindAppend : null,
    isolationProperty,
    writer: {
      // The engine writes as delta-rs 1.6.x does.
      library: engineInfo?.startsWith('racelab-engine') ? 'delta-rs' : null,
      version: null,
      engineInfo,
      appId: null,
      userMetadata: text(info?.userMetadata),
    },
    concurrentWith,
    evidence,
    adds: actions.filter((a) => 'add' in a).length,
    removes: actions.filter((a) => 'remove' in a).length,
  };
}

/** What tableHistory passes the re-judgement, for a table opened at its latest version: each version's properties. */
export async function rejudgeContext(table: DeltaTable): Promise<RejudgeContext> {
  const properties: Record<string, string>[] = [];
  for (let v = 0; v <= table.version; v++) {
    const at = await DeltaTable.open(table.store, { version: v });
    properties.push(
      Object.fromEntries(Object.entries(at.configuration).filter(([, x]) => x !== null)) as Record<string, string>,
    );
  }
  return {
    table,
    configurationAt: (version) => properties[version] ?? {},
    readActions: (version) => readCommit(storeFor(table.location), version),
  };
}
