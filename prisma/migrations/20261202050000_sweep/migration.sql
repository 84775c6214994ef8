-- CreateTable
CREATE TABLE "Sweep" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" "RaceStatus" NOT NULL DEFAULT 'QUEUED',
    "input" JSONB NOT NULL,
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL,
    "tableRoot" TEXT,
    "writers" INTEGER,
    "results" JSONB,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "cancelRequestedAt" TIMESTAMP(3),
    "reason" TEXT,
    "worker" TEXT,

    CONSTRAINT "Sweep_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Sweep_createdAt_idx" ON "Sweep"("createdAt" DESC);

-- CreateIndex
CREATE INDEX "Sweep_status_idx" ON "Sweep"("status");
