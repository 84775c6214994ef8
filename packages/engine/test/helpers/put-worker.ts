// One racer: claims `key` in the table at `root` with put-if-absent, after the barrier.
import { createInterface } from 'node:readline';
import { storeFor } from '../../src/index';

const [root, key, body] = process.argv.slice(2) as [string, string, string];
const store = storeFor(root); // a folder, or s3://bucket/path
console.log('ready');
await new Promise((r) => createInterface({ input: process.stdin }).once('line', r));
console.log((await store.putIfAbsent(key, new TextEncoder().encode(body))) ? 'won' : 'lost');
