-- AlterTable
ALTER TABLE "JobAudit" ADD COLUMN "skipped" JSONB NOT NULL DEFAULT '[]';
