-- AlterTable
ALTER TABLE "WriterOutcome" ADD COLUMN     "library" TEXT,
ADD COLUMN     "libraryVersion" TEXT,
ADD COLUMN     "libraryRun" TEXT;
