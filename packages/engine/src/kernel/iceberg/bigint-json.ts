/**
 * JSON for Iceberg metadata, where snapshot ids are 63-bit: integers beyond 2^53 parse as BigInt
 * instead of being rounded by JSON.parse, and BigInt values are written back as plain digits.
 */

export class JsonError extends Error {
  override name = 'JsonError';
}

export function parseJson(text: string, where = 'JSON'): unknown {
  let i = 0;
  const fail = (what: string): never => {
    throw new JsonError(`${where}: ${what} at character ${i + 1}`);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return o;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const k = str();
        ws();
        if (text[i++] !== ':') fail("expected ':'");
        o[k] = value();
        ws();
        const d = text[i++];
        if (d === '}') return o;
        if (d !== ',') fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const a: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        const d = text[i++];
        if (d === ']') return a;
        if (d !== ',') fail("expected ',' or ']'");
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) return fail('unexpected token');
    i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const n = Number(m[0]);
      return Number.isSafeInteger(n) ? n : BigInt(m[0]);
    }
    return Number(m[0]);
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail('unterminated string');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const v = value();
  ws();
  if (i < text.length) fail('trailing characters');
  return v;
}

/** Compact JSON; BigInt values as digits. */
export function stringifyJson(v: unknown): string {
  const marks: string[] = [];
  const text = JSON.stringify(v, (_k, x) => {
    if (typeof x !== 'bigint') return x;
    marks.push(x.toString());
    return `\u0000big${marks.length - 1}\u0000`;
  });
  return text.replace(/"\\u0000big(\d+)\\u0000"/g, (_m, n: string) => marks[Number(n)] as string);
}
