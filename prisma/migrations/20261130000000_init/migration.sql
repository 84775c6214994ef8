-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "RaceStatus" AS ENUM ('QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED');

-- CreateTable
CREATE TABLE "Race" (
    "id" TEXT NOT NULL,
    "caseId" TEXT,
    "title" TEXT NOT NULL,
    "status" "RaceStatus" NOT NULL DEFAULT 'QUEUED',
    "spec" JSONB NOT NULL,
    "runsRequested" INTEGER NOT NULL,
    "scale" DOUBLE PRECISION NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "cancelRequestedAt" TIMESTAMP(3),
    "reason" TEXT,
    "worker" TEXT,
    "environment" JSONB,

    CONSTRAINT "Race_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
    "raceId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "status" "RaceStatus" NOT NULL DEFAULT 'RUNNING',
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "durationMs" INTEGER,
    "reason" TEXT,
    "commitOrder" TEXT[],
    "commitLog" JSONB,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WriterOutcome" (
    "id" SERIAL NOT NULL,
    "runId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "committed" BOOLEAN NOT NULL,
    "version" INTEGER,
    "attempts" INTEGER NOT NULL,
    "commitRetries" INTEGER,
    "errorClass" TEXT,
    "errorMessage" TEXT,
    "attemptErrors" JSONB NOT NULL DEFAULT '[]',
    "readVersion" INTEGER,
    "warnings" TEXT[],
    "timings" JSONB,
    "filesWritten" INTEGER,
    "bytesWritten" BIGINT,
    "peakRssMb" DOUBLE PRECISION,
    "filesRemoved" INTEGER,
    "filesAdded" INTEGER,
    "observed" JSONB,

    CONSTRAINT "WriterOutcome_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TableCheck" (
    "runId" TEXT NOT NULL,
    "version" INTEGER,
    "rows" INTEGER NOT NULL,
    "distinctTripIds" INTEGER,
    "dataFilesOnDisk" INTEGER,
    "dataFilesInLog" INTEGER,
    "tripsOnDay" JSONB NOT NULL,
    "tipDeltaByVendor" JSONB NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "TableCheck_pkey" PRIMARY KEY ("runId")
);

-- CreateTable
CREATE TABLE "RaceEvent" (
    "id" SERIAL NOT NULL,
    "raceId" TEXT NOT NULL,
    "runIndex" INTEGER,
    "status" "RaceStatus" NOT NULL,
    "message" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RaceEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Audit" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "location" TEXT NOT NULL,
    "tableVersion" INTEGER NOT NULL,
    "isolationLevel" TEXT,
    "interpretations" JSONB NOT NULL,
    "flagged" BOOLEAN NOT NULL,

    CONSTRAINT "Audit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Race_createdAt_id_idx" ON "Race"("createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Race_caseId_createdAt_idx" ON "Race"("caseId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Race_status_idx" ON "Race"("status");

-- CreateIndex
CREATE UNIQUE INDEX "Run_raceId_index_key" ON "Run"("raceId", "index");

-- CreateIndex
CREATE UNIQUE INDEX "WriterOutcome_runId_name_key" ON "WriterOutcome"("runId", "name");

-- CreateIndex
CREATE INDEX "RaceEvent_raceId_id_idx" ON "RaceEvent"("raceId", "id");

-- CreateIndex
CREATE INDEX "Audit_createdAt_idx" ON "Audit"("createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_hash_key" ON "ApiToken"("hash");

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_raceId_fkey" FOREIGN KEY ("raceId") REFERENCES "Race"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WriterOutcome" ADD CONSTRAINT "WriterOutcome_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TableCheck" ADD CONSTRAINT "TableCheck_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RaceEvent" ADD CONSTRAINT "RaceEvent_raceId_fkey" FOREIGN KEY ("raceId") REFERENCES "Race"("id") ON DELETE CASCADE ON UPDATE CASCADE;

