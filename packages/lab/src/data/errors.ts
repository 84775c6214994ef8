/** Bad input for the lab's data sets: a scale out of range, a TLC file with the wrong schema, and so on. */
export class DatasetError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DatasetError';
  }
}
