/**
 * The playground's writer menu on the lab's tables: the writers one may pick, each as the engine's simulation
 * knows it and as the API's WriterInput, and the facts the simulation needs of the table for any pair of them.
 */
import { factsNeeded, type SimulatedWriter } from '@racelab/engine/conflict';
import type { WriterInput } from '../races';

export type WriterKey =
  | 'update-1'
  | 'update-2'
  | 'update-6'
  | 'update-7'
  | 'delete-fare'
  | 'delete-distance'
  | 'append-2025-02-01'
  | 'append-2025-02-02'
  | 'optimize';

export type MenuWriter =
  | { key: WriterKey; label: string; operation: 'update'; predicate: string; set: Record<string, string> }
  | { key: WriterKey; label: string; operation: 'delete'; predicate: string }
  | { key: WriterKey; label: string; operation: 'append'; day: string }
  | { key: WriterKey; label: string; operation: 'optimize' };

/** The lesson's writer: update `VendorID = v` set tip_amount = tip_amount + 1 (catalog.ts's tipUpdate). */
const tipUpdate = (vendor: 1 | 2 | 6 | 7): MenuWriter => ({
  key: `update-${vendor}`,
  label: `update: tip + 1 where VendorID = ${vendor}`,
  operation: 'update',
  predicate: `VendorID = ${vendor}`,
  set: { tip_amount: 'tip_amount + 1' },
});

export const WRITER_MENU: readonly MenuWriter[] = [
  tipUpdate(1),
  tipUpdate(2),
  tipUpdate(6),
  tipUpdate(7),
  { key: 'delete-fare', label: 'delete where fare_amount < 0', operation: 'delete', predicate: 'fare_amount < 0' },
  {
    key: 'delete-distance',
    label: 'delete where trip_distance = 0',
    operation: 'delete',
    predicate: 'trip_distance = 0',
  },
  { key: 'append-2025-02-01', label: 'append the trips of Feb 1', operation: 'append', day: '2025-02-01' },
  { key: 'append-2025-02-02', label: 'append the trips of Feb 2', operation: 'append', day: '2025-02-02' },
  { key: 'optimize', label: 'compaction (optimize)', operation: 'optimize' },
];

export class PlaygroundError extends Error {
  override name = 'PlaygroundError';
}

export function menuWriter(key: string): MenuWriter {
  const w = WRITER_MENU.find((m) => m.key === key);
  if (!w) throw new PlaygroundError(`unknown writer '${key}'`);
  return w;
}

/** A menu writer as the engine's simulation knows it; an append's rows are named by its day. */
export function simulatedWriter(name: string, w: MenuWriter): SimulatedWriter {
  switch (w.operation) {
    case 'update':
      return { name, change: { kind: 'update', predicate: w.predicate, set: w.set } };
    case 'delete':
      return { name, change: { kind: 'delete', predicate: w.predicate } };
    case 'append':
      return { name, change: { kind: 'append', rows: w.day } };
    case 'optimize':
      return { name, change: { kind: 'optimize' } };
  }
}

/**
 * What the simulation asks of the menu's writers: the layout counts each predicate per file and previews each
 * day's append.
 */
const MENU_NEEDS = factsNeeded(WRITER_MENU.map((w) => simulatedWriter(w.key, w)));
export const LAYOUT_PREDICATES: readonly string[] = MENU_NEEDS.predicates;
export const APPEND_DAYS: readonly string[] = MENU_NEEDS.appends;
export const COUNT_BY = 'VendorID';

/** The API's WriterInput for a menu writer. */
export function writerInput(key: string, name: string): WriterInput {
  const w = menuWriter(key);
  switch (w.operation) {
    case 'update':
      return {
        name,
        operation: 'update',
        predicate: w.predicate,
        set: Object.entries(w.set).map(([k, value]) => ({ key: k, value })),
      };
    case 'delete':
      return { name, operation: 'delete', predicate: w.predicate };
    case 'append':
      return { name, operation: 'append', day: w.day };
    case 'optimize':
      return { name, operation: 'optimize' };
  }
}
