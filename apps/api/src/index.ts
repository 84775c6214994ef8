/** @racelab/api: the control plane's GraphQL server. */
export { schema } from './schema';
export { createApi } from './server-app';
