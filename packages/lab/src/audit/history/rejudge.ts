/**
 * Re-judges each concurrent commit under every writer library and isolation level, from what the log recorded:
 * its read side from its predicate, its winners' actions from their commits. Placeholder with the agreed
 * signature: the re-judgement itself is written beside it and replaces this body.
 */
import type { Action, DeltaTable } from '@racelab/engine';
import type { HistoryCommit, HistoryFinding, Rejudgement } from './types';

export interface RejudgeContext {
  /** The table opened at the newest version read: schema, partition columns, column mapping. */
  table: DeltaTable;
  /** The table's configuration in force after `version` (its own metaData, else the last one before it). */
  configurationAt(version: number): Record<string, string>;
  /** A commit's actions, read again from the log. */
  readActions(version: number): Promise<Action[]>;
  signal?: AbortSignal;
}

export interface RejudgeResult {
  rejudgements: Rejudgement[];
  findings: HistoryFinding[];
}

export async function rejudge(_commits: HistoryCommit[], _ctx: RejudgeContext): Promise<RejudgeResult> {
  return { rejudgements: [], findings: [] };
}
