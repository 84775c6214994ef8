/**
 * The embedded cluster's passwords: random per cluster and per role (32 bytes from crypto.randomBytes),
 * each in `<dataDir>/<role>.password` with mode 0600, so only this OS user (and root) can read them.
 * The cluster's folder holds them beside `pgdata`, outside the folder the server's own OS user owns.
 *
 * Roles are given SCRAM verifiers, never the passwords themselves: a statement that sets one may be
 * echoed in the server's log or seen in pg_stat_activity, and a verifier does not let anyone log in.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** 32 random bytes in base64url: safe in a URL and in a SQL literal as they are. */
const PASSWORD = /^[A-Za-z0-9_-]{43}$/;
/** Postgres's own default (scram_iterations). */
const SCRAM_ITERATIONS = 4096;

export function passwordFile(dataDir: string, role: string): string {
  return path.join(dataDir, `${role}.password`);
}

export function newPassword(): string {
  return randomBytes(32).toString('base64url');
}

/** The password in `file`, or null when there is none. A file others could read is made 0600 again. */
export function readPassword(file: string): string | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const password = text.trim();
  if (!PASSWORD.test(password)) {
    throw new Error(`${file} does not hold a password racelab wrote; remove it to have a new one generated`);
  }
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  return password;
}

/** Writes `password` to `file` (mode 0600) through a rename, so a reader never sees half of it. */
export function writePassword(file: string, password: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.rmSync(tmp, { force: true });
  fs.writeFileSync(tmp, `${password}\n`, { mode: 0o600, flag: 'wx' });
  fs.renameSync(tmp, file);
}

/** The password in `file`, or a new one written there first (before any role is given it). */
export function readOrCreatePassword(file: string): string {
  const existing = readPassword(file);
  if (existing !== null) return existing;
  const password = newPassword();
  writePassword(file, password);
  return password;
}

/**
 * What Postgres stores for `password` under scram-sha-256 (RFC 5802, 7677), as libpq's
 * PQencryptPasswordConn builds it: `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`.
 * Only base64 characters, `$` and `:`, so it can stand in a SQL literal.
 */
export function scramVerifier(password: string): string {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, SCRAM_ITERATIONS, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest('base64');
  const serverKey = createHmac('sha256', salted).update('Server Key').digest('base64');
  return `SCRAM-SHA-256$${SCRAM_ITERATIONS}:${salt.toString('base64')}$${storedKey}:${serverKey}`;
}
