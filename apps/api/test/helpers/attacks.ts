/**
 * Small documents that used to cost the API seconds without a token, for the tests and
 * for bench/api-edge.ts, which measures them against the real API.
 */

/** `levels` fragments, each spreading the one before twice: 2^levels paths in about 40 bytes a level. */
export function fragmentBomb(levels: number): string {
  const defs = ['fragment F0 on Query { engineInfo }'];
  for (let i = 1; i <= levels; i++) defs.push(`fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }`);
  return `{ ...F${levels} }\n${defs.join('\n')}`;
}

/** `field` under `n` aliases in one query, then `fragments`. */
export const aliased = (n: number, field: string, fragments = '') =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }${fragments}`;

/** Most of what an introspection query asks of the schema, as a fragment to spread under each alias. */
export const SCHEMA_FRAGMENT = `fragment S on __Schema { types { kind name description fields(includeDeprecated: true) {
  name description args { name type { kind name ofType { kind name } } } type { kind name ofType { kind name ofType { kind name } } } }
  inputFields { name type { kind name ofType { kind name } } } enumValues { name } } directives { name locations } }`;
