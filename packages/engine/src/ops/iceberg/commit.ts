/**
 * One commit attempt, as pyiceberg's SqlCatalog.commit_table: re-read the table, validate the
 * requirements (pyiceberg's exact messages), apply the updates, write the new metadata file, then swap
 * the catalog row with `UPDATE … WHERE metadata_location = <old>`. The file is written (and checked)
 * before the swap, so the row never points at a file that does not exist; a lost swap leaves it orphaned.
 */
import {
  CommitFailedException,
  formatIdentifier,
  type Snapshot,
  type TableIdentifier,
  type TableMetadata,
} from '../../kernel/iceberg/types';
import type { IcebergCatalog } from './catalog';
import { fileAt, writeNewFile } from './files';
import { metadataVersion, newMetadataLocation, serializeTableMetadata } from './metadata';
import { type IcebergTable, loadTable } from './table';

export type Requirement =
  | { type: 'assert-ref-snapshot-id'; ref: string; snapshotId: bigint | null }
  | { type: 'assert-table-uuid'; uuid: string };

export type Update =
  | { action: 'add-snapshot'; snapshot: Snapshot }
  | { action: 'set-snapshot-ref'; refName: string; refType: 'branch' | 'tag'; snapshotId: bigint };

/** pyiceberg `AssertRefSnapshotId.validate` / `AssertTableUUID.validate`. */
export function validateRequirement(r: Requirement, base: TableMetadata | undefined): void {
  if (base === undefined) throw new CommitFailedException('Requirement failed: current table metadata is missing');
  if (r.type === 'assert-table-uuid') {
    if (r.uuid !== base['table-uuid'])
      throw new CommitFailedException(`Table UUID does not match: ${r.uuid} != ${base['table-uuid']}`);
    return;
  }
  if (base.snapshots.length === 0 && r.ref !== 'main') {
    throw new CommitFailedException(
      'Requirement failed: Table has no snapshots and can only be written to the main BRANCH.',
    );
  }
  const ref = base.refs[r.ref];
  if (ref) {
    if (r.snapshotId === null)
      throw new CommitFailedException(`Requirement failed: ${ref.type} ${r.ref} was created concurrently`);
    if (r.snapshotId !== ref['snapshot-id']) {
      throw new CommitFailedException(
        `Requirement failed: ${ref.type} ${r.ref} has changed: expected id ${r.snapshotId}, found ${ref['snapshot-id']}`,
      );
    }
  } else if (r.snapshotId !== null) {
    throw new CommitFailedException(`Requirement failed: branch or tag ${r.ref} is missing, expected ${r.snapshotId}`);
  }
}

/** pyiceberg `update_table_metadata`: the updates, then the base file appended to the metadata log. */
export function applyUpdates(
  base: TableMetadata,
  baseLocation: string,
  updates: Update[],
  now = Date.now(),
): TableMetadata {
  const m: TableMetadata = {
    ...base,
    snapshots: [...base.snapshots],
    'snapshot-log': [...base['snapshot-log']],
    'metadata-log': [...base['metadata-log']],
    refs: { ...base.refs },
  };
  const added = new Map<bigint, Snapshot>();
  for (const u of updates) {
    if (u.action === 'add-snapshot') {
      const s = u.snapshot;
      if (m.snapshots.some((x) => x['snapshot-id'] === s['snapshot-id']))
        throw new Error(`Snapshot with id ${s['snapshot-id']} already exists`);
      if (s['parent-snapshot-id'] !== undefined && s['sequence-number'] <= m['last-sequence-number']) {
        throw new Error(
          `Cannot add snapshot with sequence number ${s['sequence-number']} older than last sequence number ${m['last-sequence-number']}`,
        );
      }
      m.snapshots.push(s);
      m['last-sequence-number'] = s['sequence-number'];
      m['last-updated-ms'] = s['timestamp-ms'];
      added.set(s['snapshot-id'], s);
    } else {
      const s = m.snapshots.find((x) => x['snapshot-id'] === u.snapshotId);
      if (!s) throw new Error(`Cannot set ${u.refName} to unknown snapshot: ${u.snapshotId}`);
      m.refs[u.refName] = { 'snapshot-id': u.snapshotId, type: u.refType };
      const ts = added.get(u.snapshotId)?.['timestamp-ms'] ?? now;
      if (u.refName === 'main') {
        m['current-snapshot-id'] = u.snapshotId;
        m['snapshot-log'].push({ 'snapshot-id': u.snapshotId, 'timestamp-ms': ts });
      }
      m['last-updated-ms'] = ts;
    }
  }
  m['metadata-log'].push({ 'metadata-file': baseLocation, 'timestamp-ms': base['last-updated-ms'] });
  const keep = Math.max(1, Number(base.properties['write.metadata.previous-versions-max'] ?? 100));
  if (m['metadata-log'].length > keep) m['metadata-log'] = m['metadata-log'].slice(-keep);
  return m;
}

/**
 * Writes a metadata file that must not exist yet, durably (the catalog's swap is the commit, and it must
 * not point at a file a power loss can take), and checks it is there before anyone points at it.
 */
export async function writeMetadataFile(catalog: IcebergCatalog, location: string, m: TableMetadata): Promise<void> {
  const file = fileAt(location, catalog.resolvePath);
  await writeNewFile(file, new TextEncoder().encode(serializeTableMetadata(m)));
  if ((await file.store.head(file.key)) === null) throw new Error(`Metadata file ${file.path} was not written`);
}

export interface CommitTableOptions {
  /** Runs after the requirements passed and the new file was written, right before the swap (tests interleave here). */
  beforeSwap?: () => Promise<void>;
}

export async function commitTable(
  catalog: IcebergCatalog,
  id: TableIdentifier,
  change: { requirements: Requirement[]; updates: Update[] },
  opts: CommitTableOptions = {},
): Promise<IcebergTable> {
  const fresh = await loadTable(catalog, id);
  for (const r of change.requirements) validateRequirement(r, fresh.metadata);
  const next = applyUpdates(fresh.metadata, fresh.metadataLocation, change.updates);
  const location = newMetadataLocation(next, metadataVersion(fresh.metadataLocation) + 1);
  await writeMetadataFile(catalog, location, next);
  await opts.beforeSwap?.();
  const swapped = await catalog.swapMetadataLocation(id, fresh.metadataLocation, location);
  if (!swapped) throw new CommitFailedException(`Table has been updated by another process: ${formatIdentifier(id)}`);
  return { catalog, identifier: id, metadataLocation: location, metadata: next };
}
