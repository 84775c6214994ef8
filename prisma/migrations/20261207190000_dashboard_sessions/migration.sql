-- Who started what
ALTER TABLE "Race" ADD COLUMN "startedBy" JSONB, ADD COLUMN "cancelledBy" JSONB;
ALTER TABLE "Sweep" ADD COLUMN "startedBy" JSONB, ADD COLUMN "cancelledBy" JSONB;
ALTER TABLE "Audit" ADD COLUMN "startedBy" JSONB;
ALTER TABLE "JobAudit" ADD COLUMN "startedBy" JSONB;
ALTER TABLE "StoreProbe" ADD COLUMN "startedBy" JSONB;

-- CreateTable
CREATE TABLE "DashboardSession" (
    "id" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "via" TEXT NOT NULL,
    "tokenId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DashboardSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DashboardLink" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "hash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DashboardLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "DashboardSession_hash_key" ON "DashboardSession"("hash");

-- CreateIndex
CREATE INDEX "DashboardSession_expiresAt_idx" ON "DashboardSession"("expiresAt");

-- AddForeignKey
ALTER TABLE "DashboardSession" ADD CONSTRAINT "DashboardSession_tokenId_fkey" FOREIGN KEY ("tokenId") REFERENCES "ApiToken"("id") ON DELETE CASCADE ON UPDATE CASCADE;
