-- AlterTable
ALTER TABLE "Subscriber" ADD COLUMN "userCodeHash" TEXT;

-- CreateTable
CREATE TABLE "BackchannelRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "lastPolledAt" DATETIME,
    "authTime" DATETIME,
    "amr" TEXT,
    "expiresAt" DATETIME NOT NULL,
    "answeredAt" DATETIME,
    "redeemedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "BackchannelNotification" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "requestId" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL,
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "deliveredAt" DATETIME,
    "failedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Client" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "secretHash" TEXT,
    "name" TEXT NOT NULL,
    "redirectUris" TEXT NOT NULL,
    "postLogoutRedirectUris" TEXT NOT NULL DEFAULT '[]',
    "allowedScopes" TEXT NOT NULL,
    "sectorIdentifier" TEXT NOT NULL,
    "profile" TEXT NOT NULL DEFAULT 'mobile-connect',
    "expiresInFormat" TEXT NOT NULL DEFAULT 'timestamp',
    "isPublic" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'active',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "backchannelLogoutUri" TEXT,
    "backchannelLogoutSessionRequired" BOOLEAN NOT NULL DEFAULT false,
    "frontchannelLogoutUri" TEXT,
    "frontchannelLogoutSessionRequired" BOOLEAN NOT NULL DEFAULT false,
    "tokenEndpointAuthMethod" TEXT,
    "jwks" TEXT,
    "jwksUri" TEXT,
    "secretSealed" TEXT,
    "requireSignedRequestObject" BOOLEAN NOT NULL DEFAULT false,
    "requirePushedAuthorizationRequests" BOOLEAN NOT NULL DEFAULT false,
    "dpopBoundAccessTokens" BOOLEAN NOT NULL DEFAULT false,
    "grantTypes" TEXT NOT NULL DEFAULT 'authorization_code refresh_token',
    "clientCredentialsScopes" TEXT NOT NULL DEFAULT '',
    "consentFreeScopes" TEXT NOT NULL DEFAULT '',
    "registeredBy" TEXT NOT NULL DEFAULT 'admin',
    "registrationAccessTokenHash" TEXT,
    "backchannelTokenDeliveryMode" TEXT,
    "backchannelClientNotificationEndpoint" TEXT,
    "backchannelAuthRequestSigningAlg" TEXT,
    "backchannelUserCodeParameter" BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO "new_Client" ("allowedScopes", "backchannelLogoutSessionRequired", "backchannelLogoutUri", "clientCredentialsScopes", "consentFreeScopes", "createdAt", "dpopBoundAccessTokens", "expiresInFormat", "frontchannelLogoutSessionRequired", "frontchannelLogoutUri", "grantTypes", "id", "isPublic", "jwks", "jwksUri", "name", "postLogoutRedirectUris", "profile", "redirectUris", "registeredBy", "registrationAccessTokenHash", "requirePushedAuthorizationRequests", "requireSignedRequestObject", "secretHash", "secretSealed", "sectorIdentifier", "status", "tokenEndpointAuthMethod", "updatedAt") SELECT "allowedScopes", "backchannelLogoutSessionRequired", "backchannelLogoutUri", "clientCredentialsScopes", "consentFreeScopes", "createdAt", "dpopBoundAccessTokens", "expiresInFormat", "frontchannelLogoutSessionRequired", "frontchannelLogoutUri", "grantTypes", "id", "isPublic", "jwks", "jwksUri", "name", "postLogoutRedirectUris", "profile", "redirectUris", "registeredBy", "registrationAccessTokenHash", "requirePushedAuthorizationRequests", "requireSignedRequestObject", "secretHash", "secretSealed", "sectorIdentifier", "status", "tokenEndpointAuthMethod", "updatedAt" FROM "Client";
DROP TABLE "Client";
ALTER TABLE "new_Client" RENAME TO "Client";
CREATE TABLE "new_DeviceRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "authorizationRequestId" TEXT,
    "backchannelRequestId" TEXT,
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
INSERT INTO "new_DeviceRequest" ("acr", "answeredAt", "attendedUntil", "authorizationRequestId", "bindingMessage", "checkCode", "clientId", "clientName", "context", "createdAt", "deviceId", "expiresAt", "id", "origin", "scope", "status", "subscriberId", "textVerified") SELECT "acr", "answeredAt", "attendedUntil", "authorizationRequestId", "bindingMessage", "checkCode", "clientId", "clientName", "context", "createdAt", "deviceId", "expiresAt", "id", "origin", "scope", "status", "subscriberId", "textVerified" FROM "DeviceRequest";
DROP TABLE "DeviceRequest";
ALTER TABLE "new_DeviceRequest" RENAME TO "DeviceRequest";
CREATE UNIQUE INDEX "DeviceRequest_authorizationRequestId_key" ON "DeviceRequest"("authorizationRequestId");
CREATE UNIQUE INDEX "DeviceRequest_backchannelRequestId_key" ON "DeviceRequest"("backchannelRequestId");
CREATE INDEX "DeviceRequest_subscriberId_status_idx" ON "DeviceRequest"("subscriberId", "status");
CREATE INDEX "DeviceRequest_clientId_status_idx" ON "DeviceRequest"("clientId", "status");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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

