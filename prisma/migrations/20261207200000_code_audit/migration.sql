-- CreateTable
CREATE TABLE "CodeAudit" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "failed" BOOLEAN NOT NULL,
    "startedBy" JSONB,

    CONSTRAINT "CodeAudit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CodeAudit_createdAt_idx" ON "CodeAudit"("createdAt" DESC);
