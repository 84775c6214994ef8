/**
 * Checks a SARIF log the way a code-scanning CI would: against the SARIF 2.1.0 JSON schema that Microsoft's SARIF
 * Multitool ships (with ajv, its URI formats checked), and by the Multitool's own `validate`.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';

const packageDir = dirname(createRequire(import.meta.url).resolve('@microsoft/sarif-multitool-linux/package.json'));
const ajv = new Ajv2020({ allErrors: true, strict: false });
// The schema's formats: ajv checks them only when told how (helpUri must be absolute, SARIF §3.49.12).
ajv.addFormat('uri', (s: string) => /^[a-z][a-z0-9+.-]*:/i.test(s) && URL.canParse(s));
ajv.addFormat('uri-reference', (s: string) => URL.canParse(s, 'file:///'));
ajv.addFormat('date-time', (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(s));
ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
const validate = ajv.compile(JSON.parse(readFileSync(join(packageDir, 'sarif-2.1.0.json'), 'utf8')));

/** What the SARIF 2.1.0 schema refuses in `log` (empty when it is valid). */
export const sarifSchemaErrors = (log: unknown) => (validate(log) ? [] : (validate.errors ?? []));

/**
 * The Multitool's errors and warnings about the SARIF file at `path` (notes are advice and left out); its own
 * report is written to `checked`.
 */
export function multitoolProblems(path: string, checked: string): { level?: string; message: unknown }[] {
  const bin = join(packageDir, 'Sarif.Multitool');
  // npm runs the package's postinstall (chmod u+x) only where install scripts are allowed.
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    chmodSync(bin, 0o755);
  }
  const r = spawnSync(bin, ['validate', path, '-o', checked, '--log', 'ForceOverwrite'], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1' },
  });
  if (r.status !== 0) throw new Error(`the SARIF Multitool failed: ${r.stdout}${r.stderr}`);
  const found = JSON.parse(readFileSync(checked, 'utf8')).runs[0].results as { level?: string; message: unknown }[];
  // The Multitool's own rules: errors and warnings (level defaults to warning); notes are advice.
  return found.filter((x) => (x.level ?? 'warning') !== 'note');
}
