/**
 * Placeholder for the scala extractor, so the code audit's registry compiles and runs before the real one is
 * merged: it accepts its kind of file by name (.scala, .sc) and finds nothing in it.
 */
import type { Extractor } from '../setting';

export const scalaExtractor: Extractor = {
  name: 'scala',
  accepts: (file) => /\.(scala|sc)$/i.test(file),
  extract: async () => ({ settings: [], problems: [] }),
};
