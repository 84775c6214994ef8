/** A table as loaded from its catalog: the catalog row's metadata location and the parsed metadata. */

import {
  formatIdentifier,
  IcebergReadError,
  NoSuchTableError,
  parseIdentifier,
  type TableIdentifier,
  type TableMetadata,
} from '../../kernel/iceberg/types';
import type { IcebergCatalog } from './catalog';
import { readTableMetadata } from './metadata';

export interface IcebergTable {
  catalog: IcebergCatalog;
  identifier: TableIdentifier;
  /** As stored in the catalog row (a URI or path as the writer put it). */
  metadataLocation: string;
  metadata: TableMetadata;
}

export async function loadTable(catalog: IcebergCatalog, id: TableIdentifier | string): Promise<IcebergTable> {
  const identifier = typeof id === 'string' ? parseIdentifier(id) : id;
  const location = await catalog.getMetadataLocation(identifier);
  if (location === null) throw new NoSuchTableError(`Table does not exist: ${formatIdentifier(identifier)}`);
  try {
    return {
      catalog,
      identifier,
      metadataLocation: location,
      metadata: await readTableMetadata(location, catalog.resolvePath),
    };
  } catch (e) {
    if (!(e instanceof IcebergReadError)) throw e;
    throw new IcebergReadError(
      `Catalog row for ${formatIdentifier(identifier)} (catalog ${catalog.name}, metadata_location ${location}): ${e.message}`,
    );
  }
}

/** `openIcebergTable(catalog, 'ns.tbl')`: the loaded table an append starts from. */
export const openIcebergTable = (catalog: IcebergCatalog, id: string): Promise<IcebergTable> => loadTable(catalog, id);
