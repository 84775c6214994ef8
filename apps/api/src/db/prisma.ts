/** Prisma Client over the `pg` driver adapter (Prisma 7 needs one; no engine binary is involved). */
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;

export function createPrisma(url: string, max = 10): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
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
