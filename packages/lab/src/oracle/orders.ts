/** The serial orders an oracle tries: commit order first, then every other one, for a few writers only. */
import type { WriterResult } from '../results/types';

/** Other orders are tried only up to this many committed writers (4! − 1 = 23 more replays at most). */
export const MAX_REORDERED_WRITERS = 4;

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/**
 * Every order of `order`'s names that may end differently from it; none beyond MAX_REORDERED_WRITERS.
 * Writers with the same `replayKey` replay alike, so orders that only swap them are tried once (E1's two
 * identical jobs: no second replay).
 */
export function otherOrders(
  order: readonly string[],
  replayKey: (name: string) => string = (name) => name,
): string[][] {
  if (order.length > MAX_REORDERED_WRITERS) return [];
  const seen = new Set<string>();
  const isNew = (o: readonly string[]) => {
    const key = o.map(replayKey).join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  isNew(order);
  return permutations(order).filter(isNew);
}

/**
 * Writers that reported committed, in the order their commits became visible; `position` is a commit's
 * place (a Delta version, an Iceberg sequence number), undefined when the writer's commit is not there.
 * Those go last, by name.
 */
export function committedInOrder(writers: WriterResult[], position: (w: WriterResult) => number | undefined): string[] {
  const placed = writers.filter((w) => w.committed).map((w) => ({ name: w.name, at: position(w) }));
  return [
    ...placed.filter((w) => w.at !== undefined).sort((a, b) => (a.at as number) - (b.at as number)),
    ...placed.filter((w) => w.at === undefined).sort((a, b) => a.name.localeCompare(b.name)),
  ].map((w) => w.name);
}
