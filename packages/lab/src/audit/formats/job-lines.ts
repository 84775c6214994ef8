/**
 * Where each job stands in the manifest's text, so that a CI can put a finding on the job's line.
 * The manifest's own reader keeps values, not places; this reads the text once more with the YAML
 * parser's line counter (YAML reads JSON too, so one reader serves both formats).
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';

/** 1-based, as editors and SARIF count. */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * The position of each job's `name` key, by job name. A text the parser cannot read, or a job it
 * cannot place, gives no entry: the finding is then located at the file alone.
 */
export function jobLines(text: string): Map<string, TextPosition> {
  const lineCounter = new LineCounter();
  // uniqueKeys off: JSON allows a repeated key, and the contract has judged the manifest already.
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  const positions = new Map<string, TextPosition>();
  const jobs = isMap(doc.contents) ? doc.contents.get('jobs', true) : undefined;
  if (doc.errors.length > 0 || !isSeq(jobs)) return positions;
  for (const job of jobs.items) {
    if (!isMap(job)) continue;
    const pair = job.items.find((p) => isScalar(p.key) && p.key.value === 'name');
    if (!pair || !isScalar(pair.key) || !isScalar(pair.value) || typeof pair.value.value !== 'string') continue;
    const start = pair.key.range?.[0];
    if (start === undefined || positions.has(pair.value.value)) continue;
    const { line, col } = lineCounter.linePos(start);
    positions.set(pair.value.value, { line, column: col });
  }
  return positions;
}
