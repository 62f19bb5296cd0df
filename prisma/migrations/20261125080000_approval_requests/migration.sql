-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_DeviceRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "authorizationRequestId" TEXT NOT NULL,
    "subscriberId" TEXT,
    "deviceId" TEXT,
    "clientId" TEXT,
    "clientName" TEXT NOT NULL,
    "context" TEXT,
    "bindingMessage" TEXT,
    "textVerified" BOOLEAN NOT NULL DEFAULT false,
    "checkCode" TEXT NOT NULL DEFAULT '',
    "origin" TEXT,
    "attendedUntil" DATETIME,
    "scope" TEXT NOT NULL,
    "acr" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "answeredAt" DATETIME
);
INSERT INTO "new_DeviceRequest" ("acr", "answeredAt", "authorizationRequestId", "bindingMessage", "clientName", "context", "createdAt", "deviceId", "expiresAt", "id", "scope", "status", "subscriberId") SELECT "acr", "answeredAt", "authorizationRequestId", "bindingMessage", "clientName", "context", "createdAt", "deviceId", "expiresAt", "id", "scope", "status", "subscriberId" FROM "DeviceRequest";
DROP TABLE "DeviceRequest";
ALTER TABLE "new_DeviceRequest" RENAME TO "DeviceRequest";
CREATE UNIQUE INDEX "DeviceRequest_authorizationRequestId_key" ON "DeviceRequest"("authorizationRequestId");
CREATE INDEX "DeviceRequest_subscriberId_status_idx" ON "DeviceRequest"("subscriberId", "status");
CREATE INDEX "DeviceRequest_clientId_status_idx" ON "DeviceRequest"("clientId", "status");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "AuthorizationRequest_browserIdHash_idx" ON "AuthorizationRequest"("browserIdHash");

