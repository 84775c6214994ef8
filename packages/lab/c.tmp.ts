import { readFileSync } from 'node:fs';
import { sqlExtractor } from './src/audit/code/extract/sql';
import { scalaExtractor } from './src/audit/code/extract/scala';
import { javaExtractor } from './src/audit/code/extract/java';
import { shellExtractor } from './src/audit/code/extract/shell';
for (const f of process.argv.slice(2)) {
  const ex = [sqlExtractor, scalaExtractor, javaExtractor, shellExtractor].find((e) => e.accepts(f))!;
  const r = await ex.extract(f, readFileSync(f, 'utf8'));
  console.log('==', f);
  for (const x of r.settings) console.log(' ', x.line, x.column, x.endColumn, x.keyLine ?? '-', x.key, JSON.stringify(x.value), x.raw, x.constant, x.via, x.table, x.language);
  for (const p of r.problems) console.log('  PROBLEM', p.line, p.column, p.message);
}
