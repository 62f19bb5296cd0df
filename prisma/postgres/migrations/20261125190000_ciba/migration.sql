-- AlterTable
ALTER TABLE "Subscriber" ADD COLUMN     "userCodeHash" TEXT;

-- AlterTable
ALTER TABLE "Client" ADD COLUMN     "backchannelAuthRequestSigningAlg" TEXT,
ADD COLUMN     "backchannelClientNotificationEndpoint" TEXT,
ADD COLUMN     "backchannelTokenDeliveryMode" TEXT,
ADD COLUMN     "backchannelUserCodeParameter" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "DeviceRequest" ADD COLUMN     "backchannelRequestId" TEXT,
ALTER COLUMN "authorizationRequestId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "BackchannelRequest" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "acr" TEXT NOT NULL,
    "bindingMessage" TEXT,
    "loginHint" TEXT,
    "deliveryMode" TEXT NOT NULL,
    "notificationToken" TEXT,
    "channel" TEXT NOT NULL,
    "linkHash" TEXT,
    "codeHash" TEXT,
    "codeAttempts" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "interval" INTEGER NOT NULL,
    "lastPolledAt" TIMESTAMP(3),
    "authTime" TIMESTAMP(3),
    "amr" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "answeredAt" TIMESTAMP(3),
    "redeemedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BackchannelRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BackchannelNotification" (
    "id" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "deliveredAt" TIMESTAMP(3),
    "failedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BackchannelNotification_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "BackchannelRequest_linkHash_key" ON "BackchannelRequest"("linkHash");

-- CreateIndex
CREATE INDEX "BackchannelRequest_clientId_status_idx" ON "BackchannelRequest"("clientId", "status");

-- CreateIndex
CREATE INDEX "BackchannelRequest_status_expiresAt_idx" ON "BackchannelRequest"("status", "expiresAt");

-- CreateIndex
CREATE INDEX "BackchannelNotification_nextAttemptAt_idx" ON "BackchannelNotification"("nextAttemptAt");

-- CreateIndex
CREATE INDEX "BackchannelNotification_requestId_idx" ON "BackchannelNotification"("requestId");

-- CreateIndex
CREATE UNIQUE INDEX "DeviceRequest_backchannelRequestId_key" ON "DeviceRequest"("backchannelRequestId");

