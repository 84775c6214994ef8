/** A deletion vector the engine cannot use: unreadable, corrupt, or not what its descriptor says. */
export class DeletionVectorError extends Error {
  override name = 'DeletionVectorError';
}
