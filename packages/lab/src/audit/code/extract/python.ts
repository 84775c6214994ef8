/**
 * Stand-in for the Python extractor, so the SQL and shell extractors compile on their own branch: it reads
 * nothing. The Python extractor's real file replaces this one; these are its entries, with its signatures:
 * `settingsInJinjaConfig` (a dbt model's `{{ config(…) }}`) and `pythonSettings` (Python embedded in a host
 * file: a heredoc, `python -c "…"`).
 */
import type { Extraction } from '../setting';
import type { Embedded, LineIndex } from '../source-map';
import type { sqlSettings } from './sql';

export async function settingsInJinjaConfig(
  _model: string,
  _file: string,
  _table?: string,
  _sql?: typeof sqlSettings,
): Promise<Extraction> {
  return { settings: [], problems: [] };
}

export async function pythonSettings(
  _code: Embedded,
  _host: LineIndex,
  _file: string,
  _sql?: typeof sqlSettings,
): Promise<Extraction> {
  return { settings: [], problems: [] };
}
