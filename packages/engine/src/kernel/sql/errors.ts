/**
 * The one error this module throws at user text. Every message names the problem and, where there is
 * one, quotes the offending token with its 1-based position, so a UI can show it verbatim.
 */
export class ExpressionError extends Error {
  override name = 'ExpressionError';
  /** 1-based character position in the source text, when the problem has one. */
  readonly position: number | undefined;

  constructor(message: string, position?: number, options?: ErrorOptions) {
    super(message, options);
    this.position = position;
  }
}

export function fail(message: string, position?: number): never {
  throw new ExpressionError(message, position);
}
