/**
 * Notebooks cut into the cells that hold code: a Jupyter `.ipynb` (JSON; each cell's `source` lines are
 * JSON strings, so a cell's text is decoded with every character mapped back to its place in the
 * notebook file) and a Databricks source notebook (`.py` starting `# Databricks notebook source`, cells
 * between `# COMMAND ----------` lines, `# MAGIC %sql` lines holding SQL). Each cell is an Embedded text
 * in the notebook file, so a setting found in it is reported at the notebook's own line and column.
 * Markdown cells and cells in other languages are left out: what they mention is prose. Also how text
 * embedded twice (SQL in a Python string in a cell) maps back to the file (`pushMapped`).
 */
import { Embedded } from '../source-map';

export type CellLanguage = 'python' | 'sql';

export interface Cell {
  language: CellLanguage;
  code: Embedded;
}

/** A notebook that is not valid JSON: where the reading stopped. */
export class NotebookError extends Error {
  override name = 'NotebookError';
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const DATABRICKS_HEADER = '# Databricks notebook source';
const DATABRICKS_CELL_BREAK = '# COMMAND ----------';
const MAGIC = '# MAGIC';

/** A line of `text`: where it starts, and its text without the line break. */
interface Line {
  start: number;
  text: string;
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(start, end);
    lines.push({ start, text: line.endsWith('\r') ? line.slice(0, -1) : line });
    start = end + 1;
  }
  return lines;
}

export function isDatabricksSource(text: string): boolean {
  return text.replace(/^\uFEFF/, '').startsWith(DATABRICKS_HEADER);
}

/** The language a cell magic (`%sql`, `%%python`, …) switches to; null for a language not read here. */
function magicLanguage(magic: string): CellLanguage | null | undefined {
  const name = /^%%?(\w+)/.exec(magic)?.[1]?.toLowerCase();
  if (name === undefined) return undefined;
  if (name === 'sql' || name === 'sparksql') return 'sql';
  if (name === 'python' || name === 'pyspark') return 'python';
  return null;
}

/**
 * The code of one cell from its lines, each given as [offset of its first character, text], an offset
 * that `hostOf` maps to the notebook file (each character on its own: a Jupyter cell's characters are
 * decoded from JSON strings). A first line that is a magic picks the cell's language (and is left out);
 * Python lines that are IPython magics or shell escapes are left out (their line break kept, so lines
 * stay lines).
 */
function cellFrom(
  lines: [number, string][],
  language: CellLanguage | null,
  hostOf: (offset: number) => number = (offset) => offset,
): Cell | null {
  const code = new Embedded();
  // Characters whose host offsets follow each other go in as one run.
  const put = (text: string, at: number) => {
    let start = 0;
    for (let i = 1; i <= text.length; i++) {
      if (i < text.length && hostOf(at + i) === hostOf(at + start) + (i - start)) continue;
      code.push(text.slice(start, i), hostOf(at + start));
      start = i;
    }
  };
  const lineBreak = (at: number) => code.push('\n', hostOf(at), false);
  let lang = language;
  let first = lines.findIndex(([, text]) => text.trim() !== '');
  if (first === -1) return null;
  const [magicAt, head] = lines[first] as [number, string];
  const magic = magicLanguage(head.trimStart());
  if (magic !== undefined) {
    lang = magic;
    const rest = head.trimStart().replace(/^%%?\w+/, '');
    if (rest.trim() !== '') {
      put(rest, magicAt + head.length - rest.length);
      lineBreak(magicAt + head.length);
    }
    first += 1;
  } else first = 0;
  if (lang === null) return null;
  for (const [at, text] of lines.slice(first)) {
    const skipped = lang === 'python' && /^\s*[%!]/.test(text);
    if (!skipped) put(text, at);
    lineBreak(at + text.length);
  }
  return { language: lang, code };
}

/** The cells of a Databricks source notebook holding Python or SQL. */
export function databricksCells(text: string): Cell[] {
  const cells: Cell[] = [];
  let current: Line[] = [];
  const close = () => {
    const magic = current.find((l) => l.text.trim() !== '')?.text.startsWith(MAGIC);
    const lines: [number, string][] = current.map(({ start, text: line }) => {
      if (!magic) return [start, line];
      if (!line.startsWith(MAGIC)) return [start, ''];
      const cut = line.startsWith(`${MAGIC} `) ? MAGIC.length + 1 : MAGIC.length;
      return [start + cut, line.slice(cut)];
    });
    const cell = cellFrom(lines, 'python');
    if (cell) cells.push(cell);
    current = [];
  };
  for (const line of linesOf(text).slice(1)) {
    if (line.text.trim() === DATABRICKS_CELL_BREAK) close();
    else current.push(line);
  }
  close();
  return cells;
}

/** A JSON value with the place of each string in the text it was read from. */
type Json =
  | { kind: 'string'; value: string; start: number; end: number }
  | { kind: 'array'; items: Json[] }
  | { kind: 'object'; entries: Map<string, Json> }
  | { kind: 'scalar' };

/** A JSON reader that keeps where each string is (JSON.parse forgets it). */
function readJson(text: string): Json {
  let at = 0;
  const fail = (what: string): never => {
    throw new NotebookError(`not a notebook: ${what}`, Math.min(at, text.length));
  };
  const space = () => {
    while (at < text.length && ' \t\r\n'.includes(text[at] as string)) at += 1;
  };
  const value = (): Json => {
    space();
    const c = text[at];
    if (c === '{') {
      at += 1;
      const entries = new Map<string, Json>();
      space();
      if (text[at] === '}') {
        at += 1;
        return { kind: 'object', entries };
      }
      for (;;) {
        const key = value();
        if (key.kind !== 'string') fail('a key that is not a string');
        space();
        if (text[at] !== ':') fail("':' expected");
        at += 1;
        entries.set((key as { value: string }).value, value());
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === '}') {
          at += 1;
          return { kind: 'object', entries };
        } else fail("',' or '}' expected");
      }
    }
    if (c === '[') {
      at += 1;
      const items: Json[] = [];
      space();
      if (text[at] === ']') {
        at += 1;
        return { kind: 'array', items };
      }
      for (;;) {
        items.push(value());
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === ']') {
          at += 1;
          return { kind: 'array', items };
        } else fail("',' or ']' expected");
      }
    }
    if (c === '"') {
      const start = at;
      at += 1;
      while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
      if (at >= text.length) fail('a string left open');
      at += 1;
      let decoded: string;
      try {
        decoded = JSON.parse(text.slice(start, at)) as string;
      } catch {
        at = start;
        return fail('a string with a bad escape');
      }
      return { kind: 'string', value: decoded, start, end: at };
    }
    const scalar = /^(?:-?\d[\d.eE+-]*|true|false|null)/.exec(text.slice(at, at + 64));
    if (!scalar) return fail('a value expected');
    at += scalar[0].length;
    return { kind: 'scalar' };
  };
  const root = value();
  space();
  if (at < text.length) fail('text after the notebook');
  return root;
}

/** The JSON strings `strings` decoded one after the other, with the notebook offset of each character. */
function decodeJsonStrings(text: string, strings: { start: number; end: number }[]): { text: string; host: number[] } {
  const parts: string[] = [];
  const host: number[] = [];
  for (const s of strings) {
    const end = s.end - 1;
    for (let at = s.start + 1; at < end; ) {
      if (text[at] !== '\\') {
        parts.push(text[at] as string);
        host.push(at);
        at += 1;
        continue;
      }
      const width = text[at + 1] === 'u' ? 6 : 2;
      const decoded = JSON.parse(`"${text.slice(at, at + width)}"`) as string;
      parts.push(decoded);
      for (let i = 0; i < decoded.length; i++) host.push(at);
      at += width;
    }
  }
  return { text: parts.join(''), host };
}

function field(json: Json | undefined, key: string): Json | undefined {
  return json?.kind === 'object' ? json.entries.get(key) : undefined;
}

function stringField(json: Json | undefined, key: string): string | undefined {
  const found = field(json, key);
  return found?.kind === 'string' ? found.value : undefined;
}

/** The notebook's language: the kernel's, or a Databricks export's; Python when it does not say. */
function notebookLanguage(root: Json): string {
  const metadata = field(root, 'metadata');
  return (
    stringField(field(metadata, 'kernelspec'), 'language') ??
    stringField(field(metadata, 'language_info'), 'name') ??
    stringField(field(metadata, 'application/vnd.databricks.v1+notebook'), 'language') ??
    'python'
  ).toLowerCase();
}

/** The code cells of a Jupyter notebook holding Python or SQL; throws NotebookError for a file that is not one. */
export function ipynbCells(text: string): Cell[] {
  const root = readJson(text);
  const list = field(root, 'cells');
  if (list?.kind !== 'array') throw new NotebookError('not a notebook: no cells', 0);
  const language = notebookLanguage(root);
  const base: CellLanguage | null = language === 'sql' ? 'sql' : language === 'python' ? 'python' : null;
  const cells: Cell[] = [];
  for (const cell of list.items) {
    if (stringField(cell, 'cell_type') !== 'code') continue;
    const source = field(cell, 'source');
    const strings = source?.kind === 'array' ? source.items : source ? [source] : [];
    // One decoded text for the whole cell, cut into lines with each character still mapped.
    const whole = decodeJsonStrings(
      text,
      strings.filter((s) => s.kind === 'string'),
    );
    const lines: [number, string][] = linesOf(whole.text).map(({ start, text: line }) => [start, line]);
    const found = cellFrom(lines, base, (offset) => whole.host[offset] ?? text.length);
    if (found) cells.push(found);
  }
  return cells;
}

/**
 * Appends `text` (which is `source`'s content from offset `from`) to `target`, each character at its
 * host offset through `source` (for text embedded twice: SQL in a Python string in a notebook cell).
 * Characters whose host offsets follow each other are pushed as one run.
 */
export function pushMapped(target: Embedded, text: string, from: number, source: Embedded): void {
  let runStart = 0;
  let runHost = source.hostOffset(from);
  for (let i = 1; i <= text.length; i++) {
    const host = i < text.length ? source.hostOffset(from + i) : -1;
    if (host !== runHost + (i - runStart)) {
      target.push(text.slice(runStart, i), runHost);
      runStart = i;
      runHost = host;
    }
  }
}
