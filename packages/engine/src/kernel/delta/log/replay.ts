/**
 * Log replay: folds actions, version by version, into the table's state. Adds and removes are keyed
 * by (path, deletion vector id) as the Delta protocol says; the last protocol and metaData win; the last txn
 * per appId wins. Pure: no I/O.
 */
import { dvUniqueId } from '../dv/descriptor';
import type { Action, Add, DomainMetadata, Metadata, Protocol, Remove, Txn } from '../protocol/actions';
import { LogFormatError } from '../protocol/validate';

export interface TableState {
  version: number;
  protocol: Protocol;
  metadata: Metadata;
  /** Active files by file key. */
  files: Map<string, Add>;
  /** Remove actions still in the reconciled state. */
  tombstones: Map<string, Remove>;
  appTransactions: Map<string, Txn>;
  /** The live `domainMetadata` action per domain (one whose last action says `removed: true` is gone). */
  domainMetadata: Map<string, DomainMetadata>;
}

// A checkpoint gives an absent offset as null, a commit leaves it out: the same vector either way.
export const fileKey = (f: { path: string; deletionVector?: Add['deletionVector'] }): string =>
  `${f.path}\u0000${f.deletionVector ? dvUniqueId(f.deletionVector) : ''}`;

export class StateBuilder {
  protocol: Protocol | undefined;
  metadata: Metadata | undefined;
  readonly files = new Map<string, Add>();
  readonly tombstones = new Map<string, Remove>();
  readonly appTransactions = new Map<string, Txn>();
  readonly domainMetadata = new Map<string, DomainMetadata>();

  /** A builder that goes on from `state`, which it copies and leaves as it is. */
  static from(state: TableState): StateBuilder {
    const b = new StateBuilder();
    b.protocol = state.protocol;
    b.metadata = state.metadata;
    for (const [k, v] of state.files) b.files.set(k, v);
    for (const [k, v] of state.tombstones) b.tombstones.set(k, v);
    for (const [k, v] of state.appTransactions) b.appTransactions.set(k, v);
    for (const [k, v] of state.domainMetadata) b.domainMetadata.set(k, v);
    return b;
  }

  apply(actions: readonly Action[]): void {
    for (const a of actions) {
      if ('add' in a) {
        const k = fileKey(a.add);
        this.files.set(k, a.add);
        this.tombstones.delete(k);
      } else if ('remove' in a) {
        const k = fileKey(a.remove);
        this.files.delete(k);
        this.tombstones.set(k, a.remove);
      } else if ('metaData' in a) this.metadata = a.metaData;
      else if ('protocol' in a) this.protocol = a.protocol;
      else if ('txn' in a) this.appTransactions.set(a.txn.appId, a.txn);
      else if ('domainMetadata' in a) {
        const d = a.domainMetadata as DomainMetadata;
        if (d.removed === true) this.domainMetadata.delete(String(d.domain));
        else this.domainMetadata.set(String(d.domain), d);
      }
    }
  }

  build(version: number, where: string): TableState {
    if (!this.protocol) throw new LogFormatError(`${where}: no protocol action up to version ${version}`);
    if (!this.metadata) throw new LogFormatError(`${where}: no metaData action up to version ${version}`);
    return {
      version,
      protocol: this.protocol,
      metadata: this.metadata,
      files: this.files,
      tombstones: this.tombstones,
      appTransactions: this.appTransactions,
      domainMetadata: this.domainMetadata,
    };
  }
}
