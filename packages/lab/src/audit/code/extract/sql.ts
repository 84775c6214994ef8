/**
 * Spark SQL: the settings a statement makes (`TBLPROPERTIES` in CREATE/ALTER/REPLACE TABLE, `SET key =
 * value`), read with a real SQL parser by the SQL extractor. Other extractors hand it the SQL they find
 * embedded in their own files (a Python string, a notebook's `%sql` cell), mapped back to the host file.
 */
import type { Extraction, Extractor, WriterHint } from '../setting';
import type { Embedded, LineIndex } from '../source-map';

/** The settings in the SQL text `embedded` holds, at their places in the host file `host` indexes. */
export async function sqlSettings(
  _embedded: Embedded,
  _host: LineIndex,
  _file: string,
  _writer: WriterHint,
): Promise<Extraction> {
  return { settings: [], problems: [] };
}

export const sqlExtractor: Extractor = {
  name: 'sql',
  accepts: (file) => /\.sql$/i.test(file),
  extract: async () => ({ settings: [], problems: [] }),
};
