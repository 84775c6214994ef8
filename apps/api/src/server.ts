import { createServer } from 'node:http';
import { createApi } from './server-app';

const port = Number(process.env.API_PORT ?? 4000);
// Loopback only: nothing here is meant to be reachable from other hosts until auth exists.
createServer(createApi()).listen(port, '127.0.0.1', () => {
  console.log(`API on http://127.0.0.1:${port}/graphql`);
});
