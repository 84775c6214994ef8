/**
 * Placeholder for the notebook extractor, so the code audit's registry compiles and runs before the real one is
 * merged: it accepts its kind of file by name (.ipynb) and finds nothing in it.
 */
import type { Extractor } from '../setting';

export const notebookExtractor: Extractor = {
  name: 'notebook',
  accepts: (file) => /\.ipynb$/i.test(file),
  extract: async () => ({ settings: [], problems: [] }),
};
