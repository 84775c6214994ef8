/**
 * The refusal of a table, or of an operation on it, that needs something this engine does not implement (a table
 * feature, a data type): named here, apart from the protocol checks, so that schema parsing can raise it too.
 */
export class UnsupportedFeatureError extends Error {
  override name = 'UnsupportedFeatureError';
}
