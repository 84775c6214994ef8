/**
 * Stand-in for the Python extractor's dbt Jinja `config(…)` reader, so the SQL extractor compiles on its own
 * branch: it finds nothing. The Python extractor's real file replaces this one, with the same signature.
 */
import type { Extraction } from '../setting';
import type { LineIndex } from '../source-map';

export async function settingsInJinjaConfig(
  _source: string,
  _hostOffset: number,
  _host: LineIndex,
  _file: string,
  _table: string | undefined,
): Promise<Extraction> {
  return { settings: [], problems: [] };
}
