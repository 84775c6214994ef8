-- CreateTable
CREATE TABLE "JobAudit" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "manifest" JSONB NOT NULL,
    "findings" JSONB NOT NULL,
    "pairs" JSONB NOT NULL,
    "failed" BOOLEAN NOT NULL,

    CONSTRAINT "JobAudit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "JobAudit_createdAt_idx" ON "JobAudit"("createdAt" DESC);
