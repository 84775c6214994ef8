/** The SQL catalog on Postgres through `pg`: the same tables and the same compare-and-swap UPDATE. */
import pg from 'pg';
import { SqlCatalog, type SqlCatalogOptions, type SqlDriver } from './catalog';

/** `?` → `$1, $2, …` (our SQL has no `?` inside literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

class PostgresDriver implements SqlDriver {
  constructor(private readonly client: pg.Client) {}
  async query(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    return (await this.client.query(numbered(sql), params)).rows as Record<string, unknown>[];
  }
  async execute(sql: string, params: unknown[]): Promise<number> {
    return (await this.client.query(numbered(sql), params)).rowCount ?? 0;
  }
  async columns(table: string): Promise<string[]> {
    const r = await this.client.query(
      'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
      [table],
    );
    return r.rows.map((x: { column_name: string }) => x.column_name);
  }
  isUniqueViolation(e: unknown): boolean {
    return (e as { code?: string }).code === '23505';
  }
  async close(): Promise<void> {
    await this.client.end();
  }
}

export class PostgresCatalog extends SqlCatalog {
  static async open(opts: SqlCatalogOptions & { connectionString: string }): Promise<PostgresCatalog> {
    const client = new pg.Client({ connectionString: opts.connectionString });
    await client.connect();
    const catalog = new PostgresCatalog(new PostgresDriver(client), opts);
    try {
      await catalog.init();
    } catch (e) {
      await client.end();
      throw e;
    }
    return catalog;
  }
}
