-- AlterTable
ALTER TABLE "WriterOutcome" ADD COLUMN     "host" TEXT;
