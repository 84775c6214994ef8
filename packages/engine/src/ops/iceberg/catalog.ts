/**
 * pyiceberg's SqlCatalog tables (`iceberg_tables`, `iceberg_namespace_properties`) over any SQL
 * driver. Both the older layout without `iceberg_type` (all the fixtures) and the newer one are
 * accepted; new databases get the newer one. The commit logic (commit.ts) only sees `IcebergCatalog`,
 * so SQLite and Postgres differ only in their `SqlDriver`.
 */

import {
  formatIdentifier,
  IcebergReadError,
  TableAlreadyExistsError,
  type TableIdentifier,
} from '../../kernel/iceberg/types';
import { defaultResolvePath, type PathResolver } from './paths';

export interface IcebergCatalog {
  readonly name: string;
  /** Where new tables go by default: `{warehouse}/{namespace}/{table}`. */
  readonly warehouse: string | undefined;
  /** Maps locations found in the catalog and in metadata to local files. */
  readonly resolvePath: PathResolver;
  /** The row's metadata_location, or null when there is no such table. */
  getMetadataLocation(id: TableIdentifier): Promise<string | null>;
  createNamespace(namespace: string): Promise<void>;
  /** Registers a new table; `Table ns.tbl already exists` when the row is there. */
  insertTable(id: TableIdentifier, metadataLocation: string): Promise<void>;
  /** The compare-and-swap: true when the row still pointed at `oldLocation` and now points at `newLocation`. */
  swapMetadataLocation(id: TableIdentifier, oldLocation: string, newLocation: string): Promise<boolean>;
  close(): Promise<void>;
}

/** What a database must offer the shared catalog. SQL uses `?` placeholders. */
export interface SqlDriver {
  query(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  /** Runs a statement and returns the number of rows it changed. */
  execute(sql: string, params: unknown[]): Promise<number>;
  /** Column names of `table`, empty when it does not exist. */
  columns(table: string): Promise<string[]>;
  isUniqueViolation(e: unknown): boolean;
  close(): Promise<void>;
}

export interface SqlCatalogOptions {
  /** pyiceberg's catalog name (the `catalog_name` column); default "default". */
  name?: string;
  warehouse?: string;
  resolvePath?: PathResolver;
}

const DDL_TABLES =
  'CREATE TABLE IF NOT EXISTS iceberg_tables (catalog_name VARCHAR(255) NOT NULL, table_namespace VARCHAR(255) NOT NULL, ' +
  'table_name VARCHAR(255) NOT NULL, metadata_location VARCHAR(1000), previous_metadata_location VARCHAR(1000), ' +
  'iceberg_type VARCHAR(5), PRIMARY KEY (catalog_name, table_namespace, table_name))';
const DDL_NAMESPACES =
  'CREATE TABLE IF NOT EXISTS iceberg_namespace_properties (catalog_name VARCHAR(255) NOT NULL, namespace VARCHAR(255) NOT NULL, ' +
  'property_key VARCHAR(255) NOT NULL, property_value VARCHAR(1000) NOT NULL, PRIMARY KEY (catalog_name, namespace, property_key))';

export class SqlCatalog implements IcebergCatalog {
  readonly name: string;
  readonly warehouse: string | undefined;
  readonly resolvePath: PathResolver;
  /** Whether `iceberg_tables` has pyiceberg's v1 column `iceberg_type`. */
  private hasIcebergType = true;

  protected constructor(
    private readonly driver: SqlDriver,
    opts: SqlCatalogOptions,
  ) {
    this.name = opts.name ?? 'default';
    this.warehouse = opts.warehouse;
    this.resolvePath = opts.resolvePath ?? defaultResolvePath;
  }

  /** Creates missing tables (v1 layout) and detects an existing v0 layout (pyiceberg `_init_catalog`). */
  protected async init(): Promise<void> {
    const cols = await this.driver.columns('iceberg_tables');
    if (cols.length === 0) {
      await this.driver.execute(DDL_TABLES, []).catch((e) => {
        // Another process may have created it between our check and our CREATE.
        if (!String(e).includes('already exists')) throw e;
      });
      this.hasIcebergType = true;
    } else {
      this.hasIcebergType = cols.includes('iceberg_type');
    }
    if ((await this.driver.columns('iceberg_namespace_properties')).length === 0) {
      await this.driver.execute(DDL_NAMESPACES, []).catch((e) => {
        if (!String(e).includes('already exists')) throw e;
      });
    }
  }

  async getMetadataLocation(id: TableIdentifier): Promise<string | null> {
    const typeFilter = this.hasIcebergType ? " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)" : '';
    const rows = await this.driver.query(
      `SELECT metadata_location FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?${typeFilter}`,
      [this.name, id.namespace, id.name],
    );
    const row = rows[0];
    if (!row) return null;
    const loc = row.metadata_location;
    if (typeof loc !== 'string' || loc === '') {
      throw new IcebergReadError(
        `Catalog row for ${formatIdentifier(id)} (catalog ${this.name}) has no metadata_location`,
      );
    }
    return loc;
  }

  async createNamespace(namespace: string): Promise<void> {
    const rows = await this.driver.query(
      'SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?',
      [this.name, namespace],
    );
    if (rows.length > 0) return;
    try {
      await this.driver.execute(
        'INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, property_value) VALUES (?, ?, ?, ?)',
        [this.name, namespace, 'exists', 'true'],
      );
    } catch (e) {
      if (!this.driver.isUniqueViolation(e)) throw e;
    }
  }

  async insertTable(id: TableIdentifier, metadataLocation: string): Promise<void> {
    const cols = ['catalog_name', 'table_namespace', 'table_name', 'metadata_location', 'previous_metadata_location'];
    const values: unknown[] = [this.name, id.namespace, id.name, metadataLocation, null];
    if (this.hasIcebergType) {
      cols.push('iceberg_type');
      values.push('TABLE');
    }
    try {
      await this.driver.execute(
        `INSERT INTO iceberg_tables (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        values,
      );
    } catch (e) {
      if (this.driver.isUniqueViolation(e))
        throw new TableAlreadyExistsError(`Table ${formatIdentifier(id)} already exists`);
      throw e;
    }
  }

  async swapMetadataLocation(id: TableIdentifier, oldLocation: string, newLocation: string): Promise<boolean> {
    const changed = await this.driver.execute(
      'UPDATE iceberg_tables SET metadata_location = ?, previous_metadata_location = ? ' +
        'WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = ?',
      [newLocation, oldLocation, this.name, id.namespace, id.name, oldLocation],
    );
    return changed > 0;
  }

  close(): Promise<void> {
    return this.driver.close();
  }
}
