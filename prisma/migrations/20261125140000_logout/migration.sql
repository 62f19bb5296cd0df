-- CreateTable
CREATE TABLE "LogoutNotification" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "clientId" TEXT NOT NULL,
    "uri" TEXT NOT NULL,
    "sub" TEXT NOT NULL,
    "sid" TEXT,
    "reason" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL,
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "deliveredAt" DATETIME,
    "failedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- AlterTable (ADD COLUMN only, so it commutes with other migrations of Client)
ALTER TABLE "Client" ADD COLUMN "backchannelLogoutUri" TEXT;
ALTER TABLE "Client" ADD COLUMN "backchannelLogoutSessionRequired" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Client" ADD COLUMN "frontchannelLogoutUri" TEXT;
ALTER TABLE "Client" ADD COLUMN "frontchannelLogoutSessionRequired" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "LogoutNotification_nextAttemptAt_idx" ON "LogoutNotification"("nextAttemptAt");

