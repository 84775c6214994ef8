/**
 * The SQL extractor and `sqlSettings` (SQL embedded in other files), as every other module names them. The reader
 * itself (spark-sql.ts) loads dt-sql-parser's Spark grammar, which takes over half a second to load; it is loaded on
 * the first SQL read, so a process that imports the lab and never audits code (the API's start, a worker, every
 * CLI and test) does not pay for it.
 */
import type { Extraction, Extractor, WriterHint } from '../setting';
import type { Embedded, LineIndex } from '../source-map';

let reader: Promise<typeof import('./spark-sql')> | null = null;
const sparkSql = () => {
  reader ??= import('./spark-sql');
  return reader;
};

/** The settings in the SQL text `embedded` holds, at their places in the host file `host` indexes. */
export async function sqlSettings(
  embedded: Embedded,
  host: LineIndex,
  file: string,
  writer: WriterHint,
): Promise<Extraction> {
  return (await sparkSql()).sqlSettings(embedded, host, file, writer);
}

export const sqlExtractor: Extractor = {
  name: 'sql',
  accepts: (file) => /\.sql$/i.test(file),
  extract: async (file, text) => (await sparkSql()).sqlExtractor.extract(file, text),
};
