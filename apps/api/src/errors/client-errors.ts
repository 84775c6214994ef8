/**
 * The errors a client may see. Anything else is masked by yoga as "Unexpected error." whatever
 * NODE_ENV says (the real one goes to the server log), so no stack trace, SQL or file path leaves
 * the server.
 */
import { GraphQLError } from 'graphql';

export class InputError extends GraphQLError {
  constructor(message: string, problems?: string[]) {
    super(message, { extensions: { code: 'BAD_USER_INPUT', ...(problems && { problems }) } });
  }
}

/** For an Authorization header that was sent but names no token this API knows (told apart from none sent). */
export const TOKEN_NOT_RECOGNISED =
  'token not recognised: it is malformed, or was never issued here, or was revoked; send a current token or none';

/** For a `Session` credential the API does not know: the dashboard answers it by asking the person to sign in. */
export const SESSION_NOT_RECOGNISED =
  'session not recognised: it has expired, or was signed out, or the token it was signed in with was revoked; sign in again';

export class AuthError extends GraphQLError {
  constructor(message = 'this needs an API token: send Authorization: Bearer <token>') {
    super(message, { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
  }
}

export class NotFoundError extends GraphQLError {
  constructor(what: string) {
    super(`${what} not found`, { extensions: { code: 'NOT_FOUND' } });
  }
}

/**
 * A table refused on purpose for a path its log names: a data or deletion vector file that is or passes through
 * a symlink, or a deletion vector at an absolute path outside the roots. Said with the file's key in the table,
 * never a server path.
 */
export class TableRefusedError extends GraphQLError {
  constructor(message: string) {
    super(message, { extensions: { code: 'TABLE_REFUSED' } });
  }
}

/** A case that needs a store this race does not have (H1: one that ignores put-if-absent, on S3). */
export class StoreNeededError extends GraphQLError {
  constructor(message: string) {
    super(message, { extensions: { code: 'STORE_NEEDED' } });
  }
}

/**
 * A race asked to run in a real library that this server cannot run it in: the lab's reasons, each in
 * `extensions.problems` (a case the library does not write, a hook of the engine's own, the Python side missing with
 * the command that installs it).
 */
export class RealRunRefusedApiError extends GraphQLError {
  constructor(readonly problems: string[]) {
    super(`the real run was refused: ${problems.join('; ')}`, { extensions: { code: 'REAL_RUN_REFUSED', problems } });
  }
}

/** A race with command writers (jobs of the user's own) on a server where no LAB_JOB_ROOTS says where they may come from. */
export class JobCommandsOffError extends GraphQLError {
  constructor() {
    super(
      'command writers (jobs of your own) are not accepted here: the server names no folders they may come from (LAB_JOB_ROOTS)',
      { extensions: { code: 'JOB_COMMANDS_OFF' } },
    );
  }
}

export class ConflictError extends GraphQLError {
  constructor(message: string) {
    super(message, { extensions: { code: 'CONFLICT' } });
  }
}

/**
 * Work estimated to run past the limit (LAB_MAX_WORK_MINUTES): the message names the estimate, the limit and the
 * input field that drives it, which extensions carry as figures too.
 */
export class TooLongError extends GraphQLError {
  constructor(message: string, figures: { estimateMinutes: number; limitMinutes: number; field: string }) {
    super(message, { extensions: { code: 'TOO_LONG', ...figures } });
  }
}

/** A table's log past one of the bounds its history is read within: the bound by name and its limit, as figures too. */
export class HistoryTooLargeError extends GraphQLError {
  constructor(message: string, figures: { bound: string; limit: number }) {
    super(message, { extensions: { code: 'HISTORY_TOO_LARGE', ...figures } });
  }
}
