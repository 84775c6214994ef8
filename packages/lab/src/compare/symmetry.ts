/**
 * Symmetric writers, derived from a case's writer specs: writers of the same operation kind whose specs are the
 * same but for their names and their operation's values (B1's two vendor updates, D1's four, A2's two days).
 * Timing picks which of them wins, so a comparison reads a run up to renaming them. Renaming a writer also
 * renames what its operation names (vendor 1 ↔ 2, day 02-01 ↔ 02-02) where figures and partition values key by it.
 */
import type { WriterSpec } from '../cases/catalog';

/** A way to read a run with some symmetric writers swapped: names, and the values their operations name. */
export interface Renaming {
  names: ReadonlyMap<string, string>;
  /** Whole values of the operations (a predicate, a day) and the differing word in them (a vendor's 1 ↔ 2). */
  values: ReadonlyMap<string, string>;
}

/** The most renamings tried per run (4 symmetric writers give 24). */
const MAX_RENAMINGS = 5040;

/** A spec with what may differ between symmetric writers left out. */
function shapeOf(w: WriterSpec): string {
  const { name: _name, operation, ...rest } = w;
  return JSON.stringify({ kind: operation.kind, keys: Object.keys(operation).sort(), rest });
}

/** The groups of symmetric writers (two or more each), by name. Writers sequenced by startAfter are in none. */
export function symmetricGroups(writers: readonly WriterSpec[]): string[][] {
  const sequenced = new Set(writers.flatMap((w) => (w.startAfter ? [w.name, w.startAfter] : [])));
  const groups = new Map<string, string[]>();
  for (const w of writers) {
    if (sequenced.has(w.name)) continue;
    const key = shapeOf(w);
    groups.set(key, [...(groups.get(key) ?? []), w.name]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((x, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]),
  );
}

/** String leaves of an operation, by path. */
function leaves(value: unknown, path = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string' || typeof value === 'number') out.set(path, String(value));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) for (const [p, s] of leaves(v, `${path}/${k}`)) out.set(p, s);
  }
  return out;
}

const WORD = /[A-Za-z0-9_.:-]/;

/** The word where two values differ: `VendorID = 1` and `VendorID = 2` differ in `1` and `2`. */
export function differingWord(a: string, b: string): [string, string] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  // Widened to whole words on both sides, so that a day stays a day and a vendor's number a number.
  while (start > 0 && WORD.test(a[start - 1] as string)) start--;
  while (end > 0 && WORD.test(a[a.length - end] as string)) end--;
  return [a.slice(start, a.length - end), b.slice(start, b.length - end)];
}

/** Every renaming of a case's symmetric writers, the identity first. */
export function renamings(writers: readonly WriterSpec[]): Renaming[] {
  const byName = new Map(writers.map((w) => [w.name, w]));
  let choices: Map<string, string>[] = [new Map()];
  for (const group of symmetricGroups(writers)) {
    const perms = permutations(group);
    if (choices.length * perms.length > MAX_RENAMINGS) break;
    choices = choices.flatMap((c) =>
      perms.map((p) => new Map([...c, ...group.map((n, i) => [n, p[i] as string] as const)])),
    );
  }
  return choices.map((names) => {
    const values = new Map<string, string>();
    for (const [from, to] of names) {
      if (from === to) continue;
      const a = leaves((byName.get(from) as WriterSpec).operation);
      const b = leaves((byName.get(to) as WriterSpec).operation);
      for (const [path, x] of a) {
        const y = b.get(path);
        if (y === undefined || x === y) continue;
        values.set(x, y);
        const [wx, wy] = differingWord(x, y);
        if (wx !== '' && !values.has(wx)) values.set(wx, wy);
      }
    }
    return { names, values };
  });
}
