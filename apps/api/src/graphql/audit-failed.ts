/**
 * An audit that failed itself (not a problem of its input, which is a finding or a BAD_USER_INPUT): the client
 * gets the reason in one line without server paths, as the CLI's exit 3 gives it, never yoga's "Unexpected
 * error."; the whole error goes to the server log.
 */
import { clientSafeMessage, type LocationConfig, namedRoots } from '@racelab/lab';
import { GraphQLError } from 'graphql';

export function auditFailed(e: unknown, cfg: LocationConfig, what: string): GraphQLError {
  console.error(`${what} failed:`, e);
  const reason = clientSafeMessage(e, { roots: namedRoots(cfg) });
  return new GraphQLError(`the audit failed: ${reason}`, { extensions: { code: 'AUDIT_FAILED' } });
}
