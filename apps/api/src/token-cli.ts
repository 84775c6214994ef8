/**
 * `npm run token -- create [--label L] | list | revoke <id|label>`: the API's tokens from the command line.
 * The database is opened as `npm start` opens it (DATABASE_URL, else the embedded cluster under var/db);
 * while `npm start` runs, its embedded server is used and left running. A new token is printed once,
 * alone on stdout so a script can keep it; hashes are never printed. Exit codes: 0 done, 1 failed (or
 * nothing to revoke), 2 bad usage.
 */
import { checkLabel, createToken, listTokens, revokeTokens, type TokenInfo, TokenLabelError } from './auth/tokens';
import type { Db } from './db/prisma';
import { loadConfig } from './process/config';

const USAGE = `usage: npm run token -- create [--label <label>]  a new token, printed once
       npm run token -- list                        every token: id, created, last used, label
       npm run token -- revoke <id|label>           the token with that id, or every token with that label`;

type Command = { kind: 'create'; label: string } | { kind: 'list' } | { kind: 'revoke'; target: string };

class UsageError extends Error {}

function parse(args: string[]): Command | 'help' {
  const [command, ...rest] = args;
  if (command === 'help' || command === '--help' || command === '-h') return 'help';
  if (command === 'create') {
    let label = `cli ${new Date().toISOString()}`;
    for (let i = 0; i < rest.length; i++) {
      const arg = rest[i] as string;
      if (arg === '--label' && i + 1 < rest.length) label = rest[++i] as string;
      else if (arg.startsWith('--label=')) label = arg.slice('--label='.length);
      else throw new UsageError(arg === '--label' ? '--label needs a value' : `create does not take '${arg}'`);
    }
    return { kind: 'create', label: checkLabel(label) };
  }
  if (command === 'list' && rest.length === 0) return { kind: 'list' };
  if (command === 'revoke' && rest.length === 1 && rest[0]?.trim()) return { kind: 'revoke', target: rest[0].trim() };
  if (command === 'list' || command === 'revoke') throw new UsageError(`wrong arguments for ${command}`);
  throw new UsageError(command === undefined ? 'no command given' : `unknown command '${command}'`);
}

const when = (d: Date | null) => (d === null ? 'never' : d.toISOString()).padEnd(24);

function table(tokens: TokenInfo[]): string {
  const rows = tokens.map((t) => `${t.id.padEnd(36)}  ${when(t.createdAt)}  ${when(t.lastUsedAt)}  ${t.label}`);
  return [`${'id'.padEnd(36)}  ${'created'.padEnd(24)}  ${'last used'.padEnd(24)}  label`, ...rows].join('\n');
}

async function run(command: Command, db: Db): Promise<number> {
  if (command.kind === 'create') {
    const { id, token } = await createToken(db, command.label);
    console.log(token);
    console.error(`token ${id} (${command.label}): shown once, store it now; send it as Authorization: Bearer <token>`);
    return 0;
  }
  if (command.kind === 'list') {
    console.log(table(await listTokens(db)));
    return 0;
  }
  const revoked = await revokeTokens(db, command.target);
  if (revoked.length === 0) {
    console.error(`token: no token has the id or label '${command.target}'`);
    return 1;
  }
  console.log(table(revoked));
  console.error(`revoked ${revoked.length}: refused from now on, with every dashboard session signed in with it`);
  return 0;
}

async function main(): Promise<number> {
  let command: Command | 'help';
  try {
    command = parse(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError || e instanceof TokenLabelError)) throw e;
    console.error(`token: ${e.message}\n${USAGE}`);
    return 2;
  }
  if (command === 'help') {
    console.log(USAGE);
    return 0;
  }
  // Loaded only now: bad usage is answered without loading the lab, DuckDB and Prisma (over a second).
  const [{ openDatabase }, { createPrisma }] = await Promise.all([import('./db/database'), import('./db/prisma')]);
  const database = await openDatabase(loadConfig(), { attach: true });
  const db = createPrisma(database.url, 1);
  try {
    return await run(command, db);
  } finally {
    await db.$disconnect();
    await database.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`token: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
