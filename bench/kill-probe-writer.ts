/**
 * bench/kill-probe's writer: a real process that commits to one table copy in a loop until it is killed.
 * Each operation touches only this writer's own ids (so the parent can tell what every commit should have done):
 * an append of a few new ids, or, once it has some, a DELETE or an UPDATE (id → id + UPDATE_OFFSET) of one id it
 * appended itself. It prints, one line each, what the parent's check needs:
 *
 *   start <op> <ids…>           before the operation begins (opening the table, writing files, committing)
 *   acked <version> <op> <ids…> as soon as the engine's call returned: an acknowledged commit
 *   failed <error>: <message>   the call threw (a conflict it could not retry): nothing may be applied
 *
 *   tsx kill-probe-writer.ts <table dir> <id column> <first id> <seed> <rows json template>
 */
import { DeltaTable, deleteRows, update, writeDeltaTable } from '@racelab/engine';
import { seededRandom } from '@racelab/engine/conflict';
import { UPDATE_OFFSET } from './kill-probe-plan';

const [dir, column, first, seed, template] = process.argv.slice(2) as [string, string, string, string, string];
const random = seededRandom(Number(seed));
const extra = JSON.parse(template) as Record<string, unknown>;
const ident = `"${column.replaceAll('"', '""')}"`;
let next = Number(first);
/** Ids appended and acknowledged, not yet deleted or updated: the ones a DELETE or UPDATE may pick. */
const mine: number[] = [];

async function step(): Promise<void> {
  const roll = random();
  const pick = mine.length > 0 && roll < 0.4 ? mine.splice(Math.floor(random() * mine.length), 1)[0] : undefined;
  if (pick === undefined) {
    const ids = Array.from({ length: 1 + Math.floor(random() * 4) }, () => next++);
    console.log(`start append ${ids.join(' ')}`);
    const table = await DeltaTable.open(dir);
    const rows = ids.map((id) => ({ ...extra, [column]: id }));
    const r = await writeDeltaTable(table, { kind: 'rows', schema: table.schema, rows }, { mode: 'append' });
    console.log(`acked ${r?.version} append ${ids.join(' ')}`);
    mine.push(...ids);
    return;
  }
  const op = roll < 0.2 ? 'delete' : 'update';
  console.log(`start ${op} ${pick}`);
  const table = await DeltaTable.open(dir);
  const r =
    op === 'delete'
      ? await deleteRows(table, `${ident} = ${pick}`)
      : await update(table, { predicate: `${ident} = ${pick}`, set: { [column]: `${ident} + ${UPDATE_OFFSET}` } });
  console.log(`acked ${r?.version} ${op} ${pick}`);
}

for (;;) {
  try {
    await step();
  } catch (e) {
    // The line before names the operation; the parent pairs them.
    console.log(`failed ${(e as Error).name}: ${(e as Error).message.split('\n')[0]}`);
  }
}
