/**
 * Placeholder for the sql extractor, so the code audit's registry compiles and runs before the real one is
 * merged: it accepts its kind of file by name (.sql) and finds nothing in it.
 */
import type { Extractor } from '../setting';

export const sqlExtractor: Extractor = {
  name: 'sql',
  accepts: (file) => /\.sql$/i.test(file),
  extract: async () => ({ settings: [], problems: [] }),
};
