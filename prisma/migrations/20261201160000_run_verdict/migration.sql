-- AlterTable
ALTER TABLE "Run" ADD COLUMN "verdict" JSONB;
