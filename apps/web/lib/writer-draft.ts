/**
 * A custom race's writer as the form holds it, pure (no React): its fields as typed, a new one from a preset,
 * and the race input's WriterInput it becomes (`set` lines become key/value pairs; on a table of one's own, an
 * append's rows come from a Parquet file or a sample of the table, on the lab's from a February day).
 */
import {
  DAY_OPERATIONS,
  PREDICATE_OPERATIONS,
  SOURCE_PREDICATE_OPERATIONS,
  type WriterInput,
} from '@racelab/contracts';
import { setPairs } from './races';

export interface DraftWriter {
  key: number;
  name: string;
  operation: string;
  predicate: string;
  set: string;
  day: string;
  /** On a table of one's own: where the added rows come from. */
  rowsFrom: 'file' | 'sample';
  sourceLocation: string;
  sample: string;
  maxCommitRetries: string;
  retryLoopAttempts: string;
  blindAppend: boolean;
  startAfter: string;
}

let nextKey = 1;
export function newWriter(name: string, preset: 'update-1' | 'update-2' | 'append' = 'append'): DraftWriter {
  const vendor = preset === 'update-1' ? 1 : 2;
  return {
    key: nextKey++,
    name,
    operation: preset === 'append' ? 'append' : 'update',
    predicate: preset === 'append' ? '' : `VendorID = ${vendor}`,
    set: preset === 'append' ? '' : 'tip_amount = tip_amount + 1',
    day: '2025-02-01',
    rowsFrom: 'sample',
    sourceLocation: '',
    sample: '100',
    maxCommitRetries: '',
    retryLoopAttempts: '',
    blindAppend: false,
    startAfter: '',
  };
}

/** Whether the writer's operation takes a predicate: on a table of one's own, overwrite and check-then-append too. */
export const takesPredicate = (operation: string, ownTable: boolean) =>
  PREDICATE_OPERATIONS.includes(operation) || (ownTable && SOURCE_PREDICATE_OPERATIONS.includes(operation));

/** Where an operation that adds rows takes them from: a day of the lab's, or the user's file or sample. */
function rowsOf(w: DraftWriter, ownTable: boolean): Partial<WriterInput> {
  if (!DAY_OPERATIONS.includes(w.operation)) return {};
  if (!ownTable) return { day: w.day };
  // A sample that is not a number goes as it is: the contract says what is wrong with it.
  return w.rowsFrom === 'file'
    ? { sourceLocation: w.sourceLocation.trim() }
    : { sample: w.sample.trim() === '' ? Number.NaN : Number(w.sample) };
}

/** The API's WriterInput: `set` lines "column = expression" become key/value pairs. */
export function toWriterInput(w: DraftWriter, ownTable = false): WriterInput {
  const set = setPairs(w.set);
  return {
    name: w.name,
    operation: w.operation,
    ...(takesPredicate(w.operation, ownTable) && { predicate: w.predicate }),
    ...(w.operation === 'update' && { set }),
    ...rowsOf(w, ownTable),
    ...(w.maxCommitRetries !== '' && { maxCommitRetries: Number(w.maxCommitRetries) }),
    ...(w.retryLoopAttempts !== '' && { retryLoopAttempts: Number(w.retryLoopAttempts) }),
    ...(w.operation === 'append' && w.blindAppend && { blindAppend: true }),
    ...(w.startAfter !== '' && { startAfter: w.startAfter }),
  };
}
