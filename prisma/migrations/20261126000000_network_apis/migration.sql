-- AlterTable
ALTER TABLE "AccessToken" ADD COLUMN "amr" TEXT;

-- CreateTable
CREATE TABLE "NetworkRange" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "cidr" TEXT NOT NULL,
    "firstAddress" TEXT NOT NULL,
    "lastAddress" TEXT NOT NULL,
    "prefixLength" INTEGER NOT NULL,
    "portFrom" INTEGER NOT NULL DEFAULT 0,
    "portTo" INTEGER NOT NULL DEFAULT 65535,
    "msisdn" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "SimSwapEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "msisdn" TEXT NOT NULL,
    "swappedAt" DATETIME NOT NULL,
    "source" TEXT NOT NULL,
    "reference" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ApiPurpose" (
    "scope" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "legalBasis" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("scope", "purpose")
);

-- CreateTable
CREATE TABLE "ApiConsent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "subscriberId" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "withdrawnAt" DATETIME
);

-- CreateIndex
CREATE INDEX "NetworkRange_firstAddress_idx" ON "NetworkRange"("firstAddress");

-- CreateIndex
CREATE INDEX "NetworkRange_msisdn_idx" ON "NetworkRange"("msisdn");

-- CreateIndex
CREATE INDEX "SimSwapEvent_msisdn_swappedAt_idx" ON "SimSwapEvent"("msisdn", "swappedAt");

-- CreateIndex
CREATE UNIQUE INDEX "SimSwapEvent_source_reference_key" ON "SimSwapEvent"("source", "reference");

-- CreateIndex
CREATE INDEX "ApiConsent_clientId_idx" ON "ApiConsent"("clientId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiConsent_subscriberId_clientId_purpose_key" ON "ApiConsent"("subscriberId", "clientId", "purpose");

