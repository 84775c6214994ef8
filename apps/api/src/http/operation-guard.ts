/**
 * Who may run what, decided once per operation before any resolver runs: a mutation always needs a
 * token; a query or a subscription needs one unless the request comes from this host. Deciding per
 * operation rather than per field means a field added later cannot be left open by forgetting a call.
 * A token or session that was sent but is not known never gets this far: building the context refuses it.
 */
import { type DocumentNode, type ExecutionResult, getOperationAST, OperationTypeNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AuthError } from '../errors/client-errors';
import type { ApiContext } from '../graphql/builder';

interface Operation {
  document: DocumentNode;
  operationName?: string | null;
  contextValue: unknown;
}

/**
 * Why the operation that `document` and `operationName` select may not run for this caller, or null.
 * When they select none (several operations and no name), execution fails by itself before any
 * resolver; off this host it is refused here all the same.
 */
function refusal({ document, operationName, contextValue }: Operation): AuthError | null {
  const ctx = contextValue as ApiContext;
  if (ctx.actor !== null) return null;
  if (getOperationAST(document, operationName)?.operation === OperationTypeNode.MUTATION) return new AuthError();
  return ctx.loopback ? null : new AuthError('reads from other hosts need an API token too');
}

/** The same check before a query or mutation runs and before a subscription starts. */
function guard({
  args,
  setResultAndStopExecution,
}: {
  args: Operation;
  setResultAndStopExecution(result: ExecutionResult): void;
}) {
  const refused = refusal(args);
  if (refused) setResultAndStopExecution({ errors: [refused] });
}

export const operationGuard: Plugin = { onExecute: guard, onSubscribe: guard };
