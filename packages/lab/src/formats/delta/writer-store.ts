/**
 * The store a Delta writer works through: its table's own, or, when its WriterSpec asks for a fault (the lab's
 * G cases), the engine's LostAnswerStore over it. Faults enter only here, as inputs; the engine's commit path
 * never builds one.
 */
import { LostAnswerStore, type ObjectStore, storeFor } from '@racelab/engine';
import type { WriterSpec } from '../../cases/catalog';

export function writerStore(table: string, writer: WriterSpec): ObjectStore {
  const store = storeFor(table);
  return writer.lostAnswer ? new LostAnswerStore(store, writer.lostAnswer) : store;
}

const wordsFor = { 'connection-closed': 'connection closed', timeout: 'timeout' } as const;

/** What the store's fault did, as the writer's warnings say it ("the answer to … was lost …"). */
export function faultWarnings(store: ObjectStore): string[] {
  if (!(store instanceof LostAnswerStore)) return [];
  const told = {
    'already exists': 'resent, it was told "already exists"',
    created: 'resent, it was told the entry was created',
    error: 'the writer got an error although the put landed',
  } as const;
  return store.events.map((e) => `the answer to the put of ${e.key} was lost (${wordsFor[e.how]}); ${told[e.told]}`);
}
