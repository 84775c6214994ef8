/**
 * Placeholder for the yaml extractor, so the code audit's registry compiles and runs before the real one is
 * merged: it accepts its kind of file by name (.yaml, .yml) and finds nothing in it.
 */
import type { Extractor } from '../setting';

export const yamlExtractor: Extractor = {
  name: 'yaml',
  accepts: (file) => /\.ya?ml$/i.test(file),
  extract: async () => ({ settings: [], problems: [] }),
};
