/**
 * Placeholder for the java extractor, so the code audit's registry compiles and runs before the real one is
 * merged: it accepts its kind of file by name (.java) and finds nothing in it.
 */
import type { Extractor } from '../setting';

export const javaExtractor: Extractor = {
  name: 'java',
  accepts: (file) => /\.java$/i.test(file),
  extract: async () => ({ settings: [], problems: [] }),
};
