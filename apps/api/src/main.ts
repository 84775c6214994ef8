/**
 * The API process: database (DATABASE_URL, else the embedded server under var/db), migrations,
 * the queue producer, the progress listener, the dead-worker sweep, and the HTTP server on
 * 127.0.0.1 (API_HOST/API_PORT). LAB_API_TOKEN, when set, is registered as a token.
 */
import { locationConfigFromEnv } from '@racelab/lab';
import { registerToken } from './auth/tokens';
import { openDatabase } from './db/database';
import { createPrisma } from './db/prisma';
import { createApiServer } from './http/server';
import { loadConfig, REPO_ROOT } from './process/config';
import { onStopSignal } from './process/signals';
import { startQueue } from './queue/boss';
import { ProgressHub } from './races/progress';
import { startReaper } from './worker/reaper';

const cfg = loadConfig();
const database = await openDatabase(cfg);
const db = createPrisma(database.url);
if (process.env.LAB_API_TOKEN) await registerToken(db, process.env.LAB_API_TOKEN, 'LAB_API_TOKEN');
const boss = await startQueue(database.url, 'producer');
const hub = new ProgressHub(database.url);
await hub.start();
const stopReaper = startReaper(db, cfg.reaperIntervalMs);
const server = createApiServer({
  db,
  boss,
  hub,
  locations: locationConfigFromEnv(REPO_ROOT),
  maxWorkMinutes: cfg.maxWorkMinutes,
});
server.listen(cfg.apiPort, cfg.apiHost, () => {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : cfg.apiPort;
  console.log(`API on http://${cfg.apiHost}:${port}/graphql`);
});

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  stopReaper();
  server.close();
  server.closeAllConnections();
  await hub.stop();
  await boss.stop({ graceful: false });
  await db.$disconnect();
  await database.stop();
  process.exit(0);
}
onStopSignal(() => void stop());
