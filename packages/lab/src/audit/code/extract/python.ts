/**
 * Placeholder for the python extractor, so the code audit's registry compiles and runs before the real one is
 * merged: it accepts its kind of file by name (.py) and finds nothing in it.
 */
import type { Extractor } from '../setting';

export const pythonExtractor: Extractor = {
  name: 'python',
  accepts: (file) => /\.py$/i.test(file),
  extract: async () => ({ settings: [], problems: [] }),
};
