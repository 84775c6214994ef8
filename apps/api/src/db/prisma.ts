/** Prisma Client over the `pg` driver adapter (Prisma 7 needs one; no engine binary is involved). */
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;

/** `applicationName` names the pool's sessions in pg_stat_activity (a worker's: process/worker-name.ts). */
export function createPrisma(url: string, max = 10, applicationName?: string): Db {
  const pool = { connectionString: url, max, ...(applicationName && { application_name: applicationName }) };
  return new PrismaClient({ adapter: new PrismaPg(pool) });
}

export type {
  Audit,
  CodeAudit,
  JobAudit,
  Race,
  RaceEvent,
  Run,
  StoreProbe,
  Sweep,
  TableCheck,
  WriterOutcome,
} from '../generated/prisma/client';
export { Prisma, RaceStatus } from '../generated/prisma/client';
