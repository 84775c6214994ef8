/**
 * Positions in a file's text, and in text embedded in it (SQL in a Python string, a notebook's cell, a
 * heredoc), mapped back to the file: a setting found in embedded text is reported at its line and column in
 * the file that holds it.
 */

export interface Position {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units as editors and SARIF viewers count them. */
  column: number;
}

/** Line starts of a text, for offset → line and column. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  /** The position of code unit `offset` (0-based). */
  at(offset: number): Position {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.starts[lo] as number) + 1 };
  }

  /** The offset of a 1-based position. */
  offset({ line, column }: Position): number {
    return (this.starts[line - 1] ?? this.text.length) + column - 1;
  }
}

/**
 * Text embedded in a host file: its content, and for each run of content the host offset it came from, so
 * an offset in the content maps back to the host. Built piece by piece; a piece that is not in the host as
 * such (an f-string's field replaced by a placeholder) maps to where its field starts.
 */
export class Embedded {
  private content = '';
  /** [contentOffset, hostOffset, length]: each run of content copied from the host. */
  private readonly runs: [number, number, number][] = [];

  /** Appends `text`, which starts at `hostOffset` in the host; `literal` false when it is not the host's own characters. */
  push(text: string, hostOffset: number, literal = true): void {
    this.runs.push([this.content.length, hostOffset, literal ? text.length : 0]);
    this.content += text;
  }

  get text(): string {
    return this.content;
  }

  /** The host offset of content offset `offset`. */
  hostOffset(offset: number): number {
    let found: [number, number, number] | undefined;
    for (const run of this.runs) {
      if (run[0] > offset) break;
      found = run;
    }
    if (!found) return this.runs[0]?.[1] ?? 0;
    const [start, host, length] = found;
    return host + Math.min(offset - start, Math.max(0, length - 1));
  }
}
