-- CreateTable
CREATE TABLE "StoreProbe" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "location" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "report" JSONB NOT NULL,

    CONSTRAINT "StoreProbe_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "StoreProbe_createdAt_idx" ON "StoreProbe"("createdAt" DESC);
