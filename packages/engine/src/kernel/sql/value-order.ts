/**
 * Ordering of runtime values for pruning, as DuckDB orders them: numbers (NaN equal to itself and
 * above every other number), strings by Unicode code point, dates as their 'YYYY-MM-DD' text,
 * timestamps as bigint microseconds, FALSE before TRUE.
 */

export type Scalar = number | string | boolean | bigint;

/**
 * JS `<` on strings compares UTF-16 code units; DuckDB and Parquet statistics order by UTF-8 bytes,
 * which is code point order. They differ only between a surrogate (a code point above U+FFFF) and
 * a unit in U+E000..U+FFFF, so shifting those two ranges past each other fixes the order.
 */
function codePointKey(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointKey(x) - codePointKey(y);
  }
  return a.length - b.length;
}

function compareNumbers(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number(Number.isNaN(a)) - Number(Number.isNaN(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Negative, zero or positive; undefined when the two values are of different kinds. */
export function compareScalars(a: Scalar, b: Scalar): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return compareNumbers(a, b);
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return undefined;
}
