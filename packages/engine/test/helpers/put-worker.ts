// One racer: claims `key` in the table at `root` with put-if-absent, after the barrier.
import { createInterface } from 'node:readline';
import { LocalObjectStore } from '../../src/index';

const [root, key, body] = process.argv.slice(2) as [string, string, string];
const store = new LocalObjectStore(root);
console.log('ready');
await new Promise((r) => createInterface({ input: process.stdin }).once('line', r));
console.log((await store.putIfAbsent(key, new TextEncoder().encode(body))) ? 'won' : 'lost');
