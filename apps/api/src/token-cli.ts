/**
 * `npm run token -- create [--label L] | list | revoke <id|label>`: the API's tokens from the command line.
 * The database is opened as `npm start` opens it (DATABASE_URL, else the embedded cluster under var/db);
 * while `npm start` runs, its embedded server is used and left running. A new token is printed once,
 * alone on stdout so a script can keep it; hashes are never printed. Exit codes: 0 done, 1 failed (or
 * nothing to revoke), 2 bad usage.
 */
import {
  answerHelpOrVersion,
  CommandAnswer,
  type CommandSpec,
  helpText,
  runCommand,
  UsageError,
  usageText,
} from '@racelab/lab';
import { checkLabel, createToken, listTokens, revokeTokens, type TokenInfo, TokenLabelError } from './auth/tokens';
import type { Db } from './db/prisma';
import { loadConfig } from './process/config';

const TOKEN_COMMAND: CommandSpec = {
  usage: ['npm run token -- create [--label LABEL]', 'npm run token -- list', 'npm run token -- revoke ID|LABEL'],
  about:
    "The API's tokens, on the database `npm start` uses. create: a new token, printed once, alone on stdout;\n" +
    'list: every token (id, created, last used, label); revoke: the token with that id, or every token with that label.',
  options: { '--label LABEL': "with create: the token's label (default `cli` and the time)" },
  examples: ['npm run token -- create --label laptop', 'npm run token -- revoke laptop'],
};

type Command = { kind: 'create'; label: string } | { kind: 'list' } | { kind: 'revoke'; target: string };

function parse(args: string[]): Command {
  answerHelpOrVersion(args, TOKEN_COMMAND);
  const [command, ...rest] = args;
  if (command === 'help') throw new CommandAnswer(helpText(TOKEN_COMMAND));
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

async function main(argv: string[]): Promise<number> {
  const command = parse(argv);
  // Loaded only now: bad usage and --help are answered without opening the database or loading Prisma.
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

/** Exit 2 with the usage for bad usage, 1 for anything else. */
function failure(e: unknown): number {
  if (e instanceof UsageError || e instanceof TokenLabelError) {
    console.error(`token: ${e.message}\n${usageText(TOKEN_COMMAND)}`);
    return 2;
  }
  console.error(`token: ${e instanceof Error ? e.message : String(e)}`);
  return 1;
}

await runCommand(main, failure);
