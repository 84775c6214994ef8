// A writer caught at work: it stages the way the engine does (its own staging folder, a partial data
// file in it, an empty folder DuckDB made, and for a Delta table a log entry under its temporary name),
// prints the folder, then waits. Killed, it leaves exactly that behind; told "go", it cleans up as a
// finishing writer does.

import { randomUUID } from 'node:crypto';
import { mkdir, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { S3ObjectStore, storeFor, withConnection } from '../../src/index';
import { ownerTag } from '../../src/storage/staging';

const [kind, location] = process.argv.slice(2) as ['delta' | 's3', string];
const store = kind === 's3' ? new S3ObjectStore(location) : storeFor(location);
const staging = await store.stagingDir();
await withConnection((c) => c.run(`COPY (SELECT range AS id FROM range(1000)) TO '${join(staging, 'f0.parquet')}'`));
await mkdir(join(staging, randomUUID()));
const temp = kind === 'delta' ? join(location, '_delta_log', `00000000000000000001.json#${ownerTag()}`) : null;
if (temp) await writeFile(temp, '{"commitInfo":{}}\n');
console.log(staging);
await new Promise((r) => createInterface({ input: process.stdin }).once('line', r));
await rm(staging, { recursive: true, force: true });
if (temp) await unlink(temp);
