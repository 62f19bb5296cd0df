-- AlterTable
ALTER TABLE "AuthorizationCode" ADD COLUMN "bindingMessage" TEXT;
ALTER TABLE "AuthorizationCode" ADD COLUMN "context" TEXT;

-- CreateTable
CREATE TABLE "Device" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "subscriberId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" DATETIME,
    "revokedAt" DATETIME
);

-- CreateTable
CREATE TABLE "DeviceEnrolment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "msisdn" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "DeviceRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "authorizationRequestId" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "deviceId" TEXT,
    "clientName" TEXT NOT NULL,
    "context" TEXT,
    "bindingMessage" TEXT,
    "scope" TEXT NOT NULL,
    "acr" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "answeredAt" DATETIME
);

-- CreateIndex
CREATE UNIQUE INDEX "Device_secretHash_key" ON "Device"("secretHash");

-- CreateIndex
CREATE INDEX "Device_subscriberId_idx" ON "Device"("subscriberId");

-- CreateIndex
CREATE UNIQUE INDEX "DeviceRequest_authorizationRequestId_key" ON "DeviceRequest"("authorizationRequestId");

-- CreateIndex
CREATE INDEX "DeviceRequest_subscriberId_status_idx" ON "DeviceRequest"("subscriberId", "status");

