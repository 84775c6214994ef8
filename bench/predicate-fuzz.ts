/**
 * bench/predicate-fuzz: the engine's predicate fuzzer (packages/engine/test/helpers/predicate-fuzz.ts)
 * at any size: every predicate the parser accepts is held to DuckDB's own parse of the rendered SQL
 * (one SELECT, no subquery or table function, only allowed functions and schema columns), read back
 * from its human rendering, and run by checkExpressionRuns. The test suite runs 3,000 at one seed;
 * this is the longer run. Exits 1 when any predicate breaks a rule, printing the first few.
 *
 *   npm run bench:predicate-fuzz [-- --count N --seed S]   (or FUZZ_COUNT, FUZZ_SEED)
 */
import { withConnection } from '@racelab/engine';
import { fuzzPredicates } from '../packages/engine/test/helpers/predicate-fuzz';
import { answerHelp, timed } from './lib';

await answerHelp({
  usage: ['npm run bench:predicate-fuzz [-- --count N --seed S]'],
  about: "The engine's predicate fuzzer at any size (or FUZZ_COUNT, FUZZ_SEED). Exit 1 when a predicate breaks a rule.",
  options: {
    '--count N': 'predicates (default 40000)',
    '--seed S': 'the seed (default 1)',
  },
  examples: ['npm run bench:predicate-fuzz -- --count 5000 --seed 7'],
});

function option(name: string, env: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const text = at >= 0 ? process.argv[at + 1] : process.env[env];
  const value = Number(text ?? fallback);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, got ${text}`);
  return value;
}

const count = option('count', 'FUZZ_COUNT', 40_000);
const seed = option('seed', 'FUZZ_SEED', 1);
const run = await timed(() => withConnection((conn) => fuzzPredicates(conn, count, seed)));
const r = run.value;
const ms = Math.round(run.ms);
const perSecond = Math.round(count / (ms / 1000));
console.log(`predicate-fuzz: ${count} predicates, seed ${seed}, ${ms} ms (${perSecond}/s)`);
console.log(`  refused by the parser/binder   ${r.refused} (hostile function calls among them: ${r.hostileRefused})`);
console.log(`  accepted                       ${r.accepted}`);
console.log(`    run by DuckDB on the schema  ${r.runs}`);
console.log(`    refused by the DuckDB check  ${r.accepted - r.runs}`);
console.log(`  rule broken                    ${r.failures.length}`);
for (const line of r.runRefusals.slice(0, 5)) console.log(`  e.g. ${line}`);
for (const f of r.failures.slice(0, 10)) console.log(`  FAIL ${JSON.stringify(f.text)}: ${f.problem}`);
process.exitCode = r.failures.length > 0 ? 1 : 0;
