// Writes an update's data files, says so, then waits to be killed before it can claim a version.
import { createInterface } from 'node:readline';
import { DeltaTable, prepareUpdate } from '../../src/index';

const prepared = await prepareUpdate(await DeltaTable.open(process.argv[2] as string), {
  predicate: 'VendorID = 2',
  set: { tip_amount: 'tip_amount + 1' },
});
console.log(prepared ? 'prepared' : 'nothing');
await new Promise((r) => createInterface({ input: process.stdin }).once('line', r));
await prepared?.commit();
