-- AlterTable
ALTER TABLE "Client" ADD COLUMN     "backchannelLogoutSessionRequired" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "backchannelLogoutUri" TEXT,
ADD COLUMN     "frontchannelLogoutSessionRequired" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "frontchannelLogoutUri" TEXT;

-- CreateTable
CREATE TABLE "LogoutNotification" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "uri" TEXT NOT NULL,
    "sub" TEXT NOT NULL,
    "sid" TEXT,
    "reason" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "deliveredAt" TIMESTAMP(3),
    "failedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LogoutNotification_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "LogoutNotification_nextAttemptAt_idx" ON "LogoutNotification"("nextAttemptAt");

