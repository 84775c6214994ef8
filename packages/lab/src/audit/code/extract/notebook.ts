/**
 * Jupyter notebooks (`.ipynb`): each code cell read in its language (Python, or SQL after a `%%sql` /
 * `%sql` magic or in a SQL notebook), every setting at its line and column in the notebook file itself.
 * Markdown and raw cells and outputs are never read: what they mention is prose. A file that is not a
 * notebook is a problem noted at the place the reading stopped.
 */
import type { Extraction, Extractor } from '../setting';
import { LineIndex } from '../source-map';
import { ipynbCells, NotebookError } from './cells';
import { cellSettings, type SqlReader } from './python';
import { sqlSettings } from './sql';

/** A Jupyter notebook's code cells; a file that is not a notebook is a problem, never an exception. */
export async function notebookSettings(file: string, text: string, sql: SqlReader = sqlSettings): Promise<Extraction> {
  const host = new LineIndex(text);
  try {
    return await cellSettings(ipynbCells(text), host, file, sql);
  } catch (error) {
    if (!(error instanceof NotebookError)) throw error;
    return { settings: [], problems: [{ file, ...host.at(error.offset), message: error.message }] };
  }
}

export const notebookExtractor: Extractor = {
  name: 'notebook',
  accepts: (file) => file.endsWith('.ipynb'),
  extract: (file, text) => notebookSettings(file, text),
};
