/**
 * The extractors the code audit dispatches to, one per kind of file, in the order they are asked: the first
 * that accepts a file's name reads it. Notebooks come before plain Python so that the notebook extractor may
 * claim what it reads by name; a Databricks source notebook is a `.py` file, which the Python extractor reads.
 */
import { javaExtractor } from '../code/extract/java';
import { jsonExtractor } from '../code/extract/json';
import { notebookExtractor } from '../code/extract/notebook';
import { pythonExtractor } from '../code/extract/python';
import { scalaExtractor } from '../code/extract/scala';
import { shellExtractor } from '../code/extract/shell';
import { sqlExtractor } from '../code/extract/sql';
import { yamlExtractor } from '../code/extract/yaml';
import type { Extractor } from '../code/setting';

export const EXTRACTORS: readonly Extractor[] = [
  notebookExtractor,
  pythonExtractor,
  sqlExtractor,
  scalaExtractor,
  javaExtractor,
  shellExtractor,
  yamlExtractor,
  jsonExtractor,
];

/** The extractor that reads `file` (its relative path), or undefined for a kind the audit does not read. */
export function extractorFor(file: string): Extractor | undefined {
  return EXTRACTORS.find((e) => e.accepts(file));
}
