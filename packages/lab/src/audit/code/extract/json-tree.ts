/**
 * A JSON parser that keeps every value's place: it builds the same nodes the YAML parser does (maps, lists and
 * scalars with their source ranges and quote style), so config-settings.ts reads JSON and YAML with one walk. The
 * YAML parser reads JSON too, about ten times slower (a megabyte of job specs: near a second against a tenth).
 * Strict JSON (RFC 8259), with one kindness: a missing comma between two entries is an error and the reading goes
 * on. At any other syntax error it stops and says where; what it read before stays in the tree. A key given twice
 * in one object is an error too, and both entries are kept.
 */
import { Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';

type JsonNode = YAMLMap | YAMLSeq | Scalar;

export interface JsonError {
  /** Where, as an offset in the text. */
  offset: number;
  message: string;
}

export interface JsonTree {
  contents: JsonNode | null;
  errors: JsonError[];
}

/** Nesting deeper than this is refused (each level is a frame of the parser's stack). */
const MAX_DEPTH = 2000;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: Record<string, boolean | null> = { true: true, false: false, null: null };
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Whether a value can start with `char`: a missing comma before it is reported and the reading goes on. */
function startsValue(char: string | undefined): boolean {
  return char !== undefined && /["{[\-0-9tfn]/.test(char);
}

class Stop extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

export function parseJson(text: string): JsonTree {
  const errors: JsonError[] = [];
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let contents: JsonNode | null = null;

  const space = (): void => {
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      pos++;
    }
  };
  const expect = (char: string): void => {
    space();
    if (text[pos] !== char)
      throw new Stop(pos, pos < text.length ? `expected ${char}` : `unexpected end, expected ${char}`);
    pos++;
  };

  const string = (): Scalar => {
    const start = pos;
    pos++;
    let value = '';
    let from = pos;
    while (true) {
      const c = text.charCodeAt(pos);
      if (pos >= text.length) throw new Stop(start, 'string not closed');
      if (c === 0x22) break;
      if (c < 0x20) throw new Stop(pos, 'control character in string');
      if (c === 0x5c) {
        value += text.slice(from, pos);
        const e = text[pos + 1];
        if (e !== undefined && e in ESCAPES) {
          value += ESCAPES[e];
          pos += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) {
          value += String.fromCharCode(Number.parseInt(text.slice(pos + 2, pos + 6), 16));
          pos += 6;
        } else throw new Stop(pos, 'bad escape in string');
        from = pos;
      } else pos++;
    }
    value += text.slice(from, pos);
    pos++;
    return scalar(value, start, 'QUOTE_DOUBLE');
  };

  const scalar = (value: unknown, start: number, type: Scalar.Type): Scalar => {
    const node = new Scalar(value);
    node.range = [start, pos, pos];
    node.type = type;
    return node;
  };

  /** Parses one value and hands it to `attach` before filling it, so an error inside leaves what was read attached. */
  const value = (attach: (node: JsonNode) => void, depth: number): void => {
    space();
    const start = pos;
    const c = text[pos];
    if (depth > MAX_DEPTH) throw new Stop(pos, 'nested too deep to read');
    if (c === '{') {
      const map = new YAMLMap();
      map.range = [start, start, start];
      attach(map);
      pos++;
      const seen = new Set<string>();
      space();
      if (text[pos] === '}') pos++;
      else {
        while (true) {
          space();
          if (text[pos] !== '"') throw new Stop(pos, 'expected a key in quotes');
          const key = string();
          if (seen.has(key.value as string)) errors.push({ offset: key.range?.[0] ?? pos, message: 'duplicate key' });
          seen.add(key.value as string);
          expect(':');
          const pair = new Pair<Scalar, JsonNode | null>(key, null);
          map.items.push(pair);
          value((node) => {
            pair.value = node;
          }, depth + 1);
          space();
          if (text[pos] === ',') pos++;
          else if (text[pos] === '}') {
            pos++;
            break;
          } else if (text[pos] === '"') errors.push({ offset: pos, message: 'expected , or }' });
          else throw new Stop(pos, pos < text.length ? 'expected , or }' : 'unexpected end, expected }');
        }
      }
      map.range = [start, pos, pos];
    } else if (c === '[') {
      const seq = new YAMLSeq();
      seq.range = [start, start, start];
      attach(seq);
      pos++;
      space();
      if (text[pos] === ']') pos++;
      else {
        while (true) {
          value((node) => seq.items.push(node), depth + 1);
          space();
          if (text[pos] === ',') pos++;
          else if (text[pos] === ']') {
            pos++;
            break;
          } else if (startsValue(text[pos])) errors.push({ offset: pos, message: 'expected , or ]' });
          else throw new Stop(pos, pos < text.length ? 'expected , or ]' : 'unexpected end, expected ]');
        }
      }
      seq.range = [start, pos, pos];
    } else if (c === '"') {
      attach(string());
    } else {
      NUMBER.lastIndex = pos;
      const number = NUMBER.exec(text);
      const word = /^(?:true|false|null)/.exec(text.slice(pos, pos + 5))?.[0];
      if (number) {
        pos += number[0].length;
        attach(scalar(Number(number[0]), start, 'PLAIN'));
      } else if (word !== undefined) {
        pos += word.length;
        attach(scalar(LITERALS[word], start, 'PLAIN'));
      } else throw new Stop(pos, pos < text.length ? 'expected a value' : 'unexpected end, expected a value');
    }
  };

  try {
    value((node) => {
      contents = node;
    }, 0);
    space();
    if (pos < text.length) throw new Stop(pos, 'text after the value');
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    errors.push({ offset: error.offset, message: error.message });
  }
  errors.sort((a, b) => a.offset - b.offset);
  return { contents, errors };
}
