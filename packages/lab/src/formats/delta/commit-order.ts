/**
 * Which writer made each commit of a run's table, read from the log itself: the writer's tag is a key `writer` of
 * commitInfo. The engine's writers put it there through customMetadata, and delta-rs 1.6.6 writes its
 * `custom_metadata` keys at the top level of commitInfo as well (beside engineInfo, before operationMetrics), so
 * the same key names a real writer's commits. Delta Spark has no such keys: its writers' names are its
 * `userMetadata`.
 */
import { DeltaTable, readCommit } from '@racelab/engine';

/**
 * The writer a commitInfo names: its `writer` key, or Delta Spark's `userMetadata` (the Spark host sets each
 * writer's session's `spark.databricks.delta.commitInfo.userMetadata` to its name); undefined for an untagged commit.
 */
export function writerTag(info: Record<string, unknown>): string | undefined {
  if (typeof info.writer === 'string') return info.writer;
  return typeof info.userMetadata === 'string' && info.userMetadata !== '' ? info.userMetadata : undefined;
}

/** Writer names in the order their commits landed, `v<N>` for an untagged commit at version N. */
export async function commitOrder(dir: string): Promise<string[]> {
  const t = await DeltaTable.open(dir);
  const names: string[] = [];
  for (let v = 1; v <= t.version; v++) {
    const info = (await readCommit(t.store, v)).find((a) => 'commitInfo' in a);
    const tag = info && 'commitInfo' in info ? writerTag(info.commitInfo as Record<string, unknown>) : undefined;
    names.push(tag ?? `v${v}`);
  }
  return names;
}
