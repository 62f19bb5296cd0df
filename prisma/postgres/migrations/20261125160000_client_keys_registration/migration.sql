-- AlterTable
ALTER TABLE "Client" ADD COLUMN     "clientCredentialsScopes" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "consentFreeScopes" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "dpopBoundAccessTokens" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "grantTypes" TEXT NOT NULL DEFAULT 'authorization_code refresh_token',
ADD COLUMN     "jwks" TEXT,
ADD COLUMN     "jwksUri" TEXT,
ADD COLUMN     "registeredBy" TEXT NOT NULL DEFAULT 'admin',
ADD COLUMN     "registrationAccessTokenHash" TEXT,
ADD COLUMN     "requirePushedAuthorizationRequests" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "requireSignedRequestObject" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "secretSealed" TEXT,
ADD COLUMN     "tokenEndpointAuthMethod" TEXT;

-- AlterTable
ALTER TABLE "AccessToken" ADD COLUMN     "dpopJkt" TEXT;

-- AlterTable
ALTER TABLE "RefreshToken" ADD COLUMN     "dpopJkt" TEXT;

-- CreateTable
CREATE TABLE "InitialAccessToken" (
    "tokenHash" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "usesLeft" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InitialAccessToken_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateTable
CREATE TABLE "UsedJwtId" (
    "key" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UsedJwtId_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "PushedAuthorizationRequest" (
    "uriHash" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "params" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PushedAuthorizationRequest_pkey" PRIMARY KEY ("uriHash")
);

-- CreateIndex
CREATE INDEX "UsedJwtId_expiresAt_idx" ON "UsedJwtId"("expiresAt");

-- CreateIndex
CREATE INDEX "PushedAuthorizationRequest_expiresAt_idx" ON "PushedAuthorizationRequest"("expiresAt");

