/**
 * Databases on a Postgres server, and who may reach them.
 *
 * On the embedded server every database the product or the lab uses is owned by a login role of the
 * same name that is no superuser and may create neither roles nor databases, and CONNECT is revoked
 * from PUBLIC everywhere: a role reaches its own database only (the product's role not the lab's,
 * neither reaches `postgres`), and cannot run `COPY … TO PROGRAM` or read the server's files. The
 * superuser sets this up from the process that holds its password file; its URL is handed to no one.
 *
 * On a user's own server (DATABASE_URL) roles are theirs: a missing database is created, nothing else.
 */
import pg from 'pg';
import { passwordFile, readOrCreatePassword, scramVerifier } from './passwords';

const ROLE_ATTRIBUTES = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS';
/** A database (and role) name we make: a plain lower-case identifier, never a reserved role. */
const NAME = /^[a-z][a-z0-9_]{0,62}$/;

/** `url` with its database part replaced. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** `fn` on a new connection to `url`, closed afterwards. */
export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Creates the database `url` names when the server says it does not exist (SQLSTATE 3D000), connected
 * to `adminUrl`. A role that may connect to its database only is never sent elsewhere.
 */
export async function ensureDatabase(url: string, adminUrl: string): Promise<void> {
  try {
    await withClient(url, async () => undefined);
    return;
  } catch (e) {
    if ((e as { code?: string }).code !== '3D000') throw e;
  }
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  await withClient(adminUrl, async (c) => {
    try {
      await c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    } catch (e) {
      if ((e as { code?: string }).code !== '42P04') throw e; // created meanwhile by another starter
    }
  });
}

/**
 * Objects a superuser made in a database (an install from before roles: the product's tables,
 * pg-boss's schema, the lab's trips) handed to the database's owner, so its role can use them.
 */
const HAND_OVER = `DO $$
DECLARE
  ddl text;
BEGIN
  FOR ddl IN
    SELECT format('ALTER SCHEMA %I OWNER TO %I', n.nspname, current_database())
      FROM pg_namespace n WHERE n.nspowner = to_regrole(current_user) AND n.nspname !~ '^(pg_|information_schema$)'
    UNION ALL
    SELECT format('ALTER TABLE %s OWNER TO %I', c.oid::regclass, current_database())
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relowner = to_regrole(current_user) AND n.nspname !~ '^(pg_|information_schema$)'
       AND (c.relkind IN ('r', 'p', 'v', 'm', 'f')
            -- a sequence owned by a column changes owner with its table
            OR (c.relkind = 'S' AND NOT EXISTS (SELECT 1 FROM pg_depend d
                 WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i'))))
    UNION ALL
    SELECT format('ALTER ROUTINE %s OWNER TO %I', p.oid::regprocedure, current_database())
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE p.proowner = to_regrole(current_user) AND n.nspname !~ '^(pg_|information_schema$)'
    UNION ALL
    SELECT format('ALTER TYPE %s OWNER TO %I', t.oid::regtype, current_database())
      FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE t.typowner = to_regrole(current_user) AND t.typtype IN ('e', 'd', 'r')
       AND n.nspname !~ '^(pg_|information_schema$)'
  LOOP
    EXECUTE ddl;
  END LOOP;
END $$`;

/**
 * Database `name` on the embedded server, owned by role `name` whose password is in
 * `<dataDir>/<name>.password`: created when missing, its role's attributes and password set again
 * on every call (so a half-done earlier setup is finished), and the URL of that role returned.
 */
export async function ownedDatabase(superuserUrl: string, dataDir: string, name: string): Promise<string> {
  if (!NAME.test(name) || name === 'postgres' || name.startsWith('pg_')) {
    throw new Error(`'${name}' cannot be a database of its own role (lower-case letters, digits and _; not postgres)`);
  }
  const password = readOrCreatePassword(passwordFile(dataDir, name));
  const id = pg.escapeIdentifier(name);
  await withClient(withDatabase(superuserUrl, 'postgres'), async (c) => {
    const role = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [name]);
    const verb = role.rowCount === 0 ? 'CREATE' : 'ALTER';
    await c.query(`${verb} ROLE ${id} WITH ${ROLE_ATTRIBUTES} PASSWORD ${pg.escapeLiteral(scramVerifier(password))}`);
    const db = await c.query<{ owner: string }>(
      'SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1',
      [name],
    );
    const owner = db.rows[0]?.owner;
    if (owner === undefined) {
      await c.query(`CREATE DATABASE ${id} OWNER ${id}`);
    } else if (owner !== name) {
      // Objects first, the database last: if this is interrupted, the next call hands over the rest.
      await withClient(withDatabase(superuserUrl, name), (own) => own.query(HAND_OVER));
      await c.query(`ALTER DATABASE ${id} OWNER TO ${id}`);
    }
    // Only where PUBLIC still has a grant (a NULL acl means the defaults): no catalog write on every start.
    const open = await c.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname = ANY($1)
          AND (datacl IS NULL OR EXISTS (SELECT 1 FROM aclexplode(datacl) a WHERE a.grantee = 0))`,
      [[name, 'postgres', 'template1']],
    );
    for (const { datname } of open.rows) {
      await c.query(`REVOKE ALL ON DATABASE ${pg.escapeIdentifier(datname)} FROM PUBLIC`);
    }
  });
  const u = new URL(withDatabase(superuserUrl, name));
  u.username = name;
  u.password = password;
  return u.toString();
}
