// One append to the table at argv[2] (at version 0, checkpoint interval 2, so the append also writes a
// checkpoint), then "acknowledged": run under strace, it shows what reached the disk before the answer.
import { writeDeltaTable } from '../../src/index';
import { february } from './lesson';

await writeDeltaTable(process.argv[2] as string, february('2025-02-01', 5, 0), { mode: 'append' });
console.log('acknowledged');
