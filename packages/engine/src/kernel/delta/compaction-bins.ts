/**
 * optimize.compact's choice of files, as a pure function (the browser's playground and the
 * forecasts simulate compactions with it): per partition, files under the target size, packed
 * largest first into bins of at most the target; a bin of one file is left alone.
 */
import type { Add } from './protocol/actions';

export function compactionBins(files: readonly Add[], target: number): Add[][] {
  const byPartition = new Map<string, Add[]>();
  for (const f of files) {
    if (f.size >= target) continue;
    const key = JSON.stringify(Object.entries(f.partitionValues).sort());
    byPartition.set(key, [...(byPartition.get(key) ?? []), f]);
  }
  const bins: Add[][] = [];
  for (const key of [...byPartition.keys()].sort()) {
    const sorted = [...(byPartition.get(key) ?? [])].sort((a, b) => b.size - a.size || (a.path < b.path ? -1 : 1));
    let bin: Add[] = [];
    let size = 0;
    for (const f of sorted) {
      if (bin.length > 0 && size + f.size > target) {
        bins.push(bin);
        bin = [];
        size = 0;
      }
      bin.push(f);
      size += f.size;
    }
    if (bin.length > 0) bins.push(bin);
  }
  return bins.filter((b) => b.length >= 2);
}
