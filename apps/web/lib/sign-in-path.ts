/** Where a person without a session is sent, by the server (proxy.ts) and by the pages' GraphQL client alike. */
export const SIGN_IN_PATH = '/signin';
