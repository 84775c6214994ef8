/**
 * What a client sees of a bug: "Unexpected error." and an id, never the error itself; the whole error
 * goes to the server's log under that id, so a person who reports the id can be answered. The refusals the
 * product makes on purpose (client-errors.ts) pass through as they are.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import { maskError as yogaMaskError } from 'graphql-yoga';

export const UNEXPECTED = 'Unexpected error.';

/** A short id for one unexpected error, logged with it. */
function logged(error: unknown, where: string): string {
  const id = randomUUID().slice(0, 8);
  console.error(`unexpected error ${id} (${where}):`, error);
  return id;
}

/** yoga's `maskedErrors.maskError`: its own masking (never the details), plus the id in the log and in `extensions.errorId`. */
export const maskError: typeof yogaMaskError = (error, message) => {
  const masked = yogaMaskError(error, message, false);
  if (masked === error || !(masked instanceof GraphQLError)) return masked;
  const id = logged(error, 'GraphQL');
  const { nodes, source, positions, path } = masked;
  return new GraphQLError(masked.message, {
    nodes,
    source,
    positions,
    path,
    extensions: { ...masked.extensions, errorId: id },
  });
};

/** For the HTTP routes outside yoga: a 500 with the same message and id, once the error is logged. */
export function answerUnexpected(res: ServerResponse, error: unknown, where: string): void {
  const id = logged(error, where);
  if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({ errors: [{ message: UNEXPECTED, extensions: { code: 'INTERNAL_SERVER_ERROR', errorId: id } }] }),
  );
}
