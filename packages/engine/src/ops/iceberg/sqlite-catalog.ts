/**
 * The SQL catalog on SQLite through better-sqlite3: a real file with SQLite's own locking, so two
 * processes racing on it race for real. Busy timeout 5 s, like pysqlite's default.
 */
import Database from 'better-sqlite3';
import { SqlCatalog, type SqlCatalogOptions, type SqlDriver } from './catalog';

class SqliteDriver implements SqlDriver {
  constructor(private readonly db: Database.Database) {}
  async query(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    return this.db.prepare(sql).all(...params) as Record<string, unknown>[];
  }
  async execute(sql: string, params: unknown[]): Promise<number> {
    return this.db.prepare(sql).run(...params).changes;
  }
  async columns(table: string): Promise<string[]> {
    return (this.db.prepare(`PRAGMA table_info(${JSON.stringify(table)})`).all() as { name: string }[]).map(
      (r) => r.name,
    );
  }
  isUniqueViolation(e: unknown): boolean {
    const code = (e as { code?: string }).code ?? '';
    return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
  }
  async close(): Promise<void> {
    this.db.close();
  }
}

export class SqliteCatalog extends SqlCatalog {
  static async open(opts: SqlCatalogOptions & { path: string }): Promise<SqliteCatalog> {
    const db = new Database(opts.path, { timeout: 5000 });
    const catalog = new SqliteCatalog(new SqliteDriver(db), opts);
    try {
      await catalog.init();
    } catch (e) {
      db.close();
      throw e;
    }
    return catalog;
  }
}
