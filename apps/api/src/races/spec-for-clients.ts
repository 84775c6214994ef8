/**
 * A race's spec as clients see it (the `spec` field). A race on a table of one's own holds resolved locations,
 * absolute paths of the server (the table it copies, source files); they are shown under the name of the setting
 * that holds their folder (`$LAB_ROOTS/…`), the deepest one, or by their last segment, as error text shows paths.
 */
import { basename, isAbsolute, relative, sep } from 'node:path';
import type { namedRoots } from '@racelab/lab';

type NamedRoot = ReturnType<typeof namedRoots>[number];

function pathForClients(path: string, roots: readonly NamedRoot[]): string {
  let best: { name: string; rest: string; depth: number } | null = null;
  for (const root of roots) {
    const rest = relative(root.path, path);
    if (rest === '' || rest === '..' || rest.startsWith(`..${sep}`) || isAbsolute(rest)) continue;
    const depth = root.path.length;
    if (best === null || depth > best.depth) best = { name: root.name, rest, depth };
  }
  return best ? `${best.name}/${best.rest}` : `…/${basename(path)}`;
}

/** `spec` as JSON, every absolute path in it shown relative to `roots`. */
export function specForClients(spec: unknown, roots: readonly NamedRoot[]): string {
  return JSON.stringify(spec, (_key, value: unknown) =>
    typeof value === 'string' && isAbsolute(value) ? pathForClients(value, roots) : value,
  );
}
