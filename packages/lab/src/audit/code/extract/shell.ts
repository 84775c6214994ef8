/**
 * Placeholder for the shell extractor, so the code audit's registry compiles and runs before the real one is
 * merged: it accepts its kind of file by name (.sh, .bash) and finds nothing in it.
 */
import type { Extractor } from '../setting';

export const shellExtractor: Extractor = {
  name: 'shell',
  accepts: (file) => /\.(sh|bash)$/i.test(file),
  extract: async () => ({ settings: [], problems: [] }),
};
