// Prisma 7's CLI looks for its native schema engine at start-up and would try to download it;
// `generate` never uses it, so any existing executable will do. Migrations are applied by our own
// runner (apps/api/src/db/migrate.ts), never by `prisma migrate`.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= '/bin/true';

import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
