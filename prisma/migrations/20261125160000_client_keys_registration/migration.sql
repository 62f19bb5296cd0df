-- AlterTable
ALTER TABLE "AccessToken" ADD COLUMN "dpopJkt" TEXT;

-- AlterTable
ALTER TABLE "RefreshToken" ADD COLUMN "dpopJkt" TEXT;

-- CreateTable
CREATE TABLE "InitialAccessToken" (
    "tokenHash" TEXT NOT NULL PRIMARY KEY,
    "label" TEXT NOT NULL DEFAULT '',
    "usesLeft" INTEGER NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "UsedJwtId" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "expiresAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "PushedAuthorizationRequest" (
    "uriHash" TEXT NOT NULL PRIMARY KEY,
    "clientId" TEXT NOT NULL,
    "params" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
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
    "registrationAccessTokenHash" TEXT
);
INSERT INTO "new_Client" ("allowedScopes", "backchannelLogoutSessionRequired", "backchannelLogoutUri", "createdAt", "expiresInFormat", "frontchannelLogoutSessionRequired", "frontchannelLogoutUri", "id", "isPublic", "name", "postLogoutRedirectUris", "profile", "redirectUris", "secretHash", "sectorIdentifier", "status", "updatedAt") SELECT "allowedScopes", "backchannelLogoutSessionRequired", "backchannelLogoutUri", "createdAt", "expiresInFormat", "frontchannelLogoutSessionRequired", "frontchannelLogoutUri", "id", "isPublic", "name", "postLogoutRedirectUris", "profile", "redirectUris", "secretHash", "sectorIdentifier", "status", "updatedAt" FROM "Client";
DROP TABLE "Client";
ALTER TABLE "new_Client" RENAME TO "Client";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "UsedJwtId_expiresAt_idx" ON "UsedJwtId"("expiresAt");

-- CreateIndex
CREATE INDEX "PushedAuthorizationRequest_expiresAt_idx" ON "PushedAuthorizationRequest"("expiresAt");

