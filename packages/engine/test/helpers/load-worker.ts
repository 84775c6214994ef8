// Loads a table's latest state in a fresh process, as a program opening it for the first time would, and prints
// what it saw: the version, the checkpoint it started from, the active files, and whether DuckDB was started.
import { DuckDBInstance } from '@duckdb/node-api';
import { LocalObjectStore, loadState } from '../../src/index';

const [root, cacheDir] = process.argv.slice(2) as [string, string];
let duckdb = false;
const create = DuckDBInstance.create.bind(DuckDBInstance);
DuckDBInstance.create = (...args: Parameters<typeof create>) => {
  duckdb = true;
  return create(...args);
};
const s = await loadState(new LocalObjectStore(root), undefined, { cacheDir: cacheDir === '-' ? null : cacheDir });
const files = [...s.files.values()].map((f) => f.path).sort();
console.log(JSON.stringify({ version: s.version, checkpointVersion: s.checkpointVersion, files, duckdb }));
