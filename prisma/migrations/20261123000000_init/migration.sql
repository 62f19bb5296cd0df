-- CreateTable
CREATE TABLE "Subscriber" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "msisdn" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "pinHash" TEXT,
    "failedPinAttempts" INTEGER NOT NULL DEFAULT 0,
    "lockoutCount" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" DATETIME,
    "title" TEXT,
    "givenName" TEXT,
    "middleName" TEXT,
    "familyName" TEXT,
    "preferredUsername" TEXT,
    "gender" TEXT,
    "birthDate" TEXT,
    "locale" TEXT,
    "picture" TEXT,
    "website" TEXT,
    "email" TEXT,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "phoneNumberAlternative" TEXT,
    "streetAddress" TEXT,
    "city" TEXT,
    "state" TEXT,
    "postalCode" TEXT,
    "country" TEXT,
    "nationalIdentifier" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Client" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "secretHash" TEXT,
    "name" TEXT NOT NULL,
    "redirectUris" TEXT NOT NULL,
    "postLogoutRedirectUris" TEXT NOT NULL DEFAULT '[]',
    "allowedScopes" TEXT NOT NULL,
    "sectorIdentifier" TEXT NOT NULL,
    "expiresInFormat" TEXT NOT NULL DEFAULT 'timestamp',
    "isPublic" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'active',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "PairwiseSubject" (
    "sub" TEXT NOT NULL PRIMARY KEY,
    "subscriberId" TEXT NOT NULL,
    "sectorIdentifier" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PairwiseSubject_subscriberId_fkey" FOREIGN KEY ("subscriberId") REFERENCES "Subscriber" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "browserIdHash" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "authTime" DATETIME NOT NULL,
    "acr" TEXT NOT NULL,
    "amr" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "endedAt" DATETIME,
    CONSTRAINT "Session_subscriberId_fkey" FOREIGN KEY ("subscriberId") REFERENCES "Subscriber" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Grant" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "subscriberId" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Grant_subscriberId_fkey" FOREIGN KEY ("subscriberId") REFERENCES "Subscriber" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AuthorizationRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "clientId" TEXT NOT NULL,
    "params" TEXT NOT NULL,
    "browserIdHash" TEXT NOT NULL,
    "subscriberId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "otpHash" TEXT,
    "otpAttempts" INTEGER NOT NULL DEFAULT 0,
    "otpSentAt" DATETIME,
    "pinVerified" BOOLEAN NOT NULL DEFAULT false,
    "sessionId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "AuthorizationCode" (
    "codeHash" TEXT NOT NULL PRIMARY KEY,
    "clientId" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "sessionId" TEXT,
    "redirectUri" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "nonce" TEXT,
    "acr" TEXT NOT NULL,
    "amr" TEXT NOT NULL,
    "authTime" DATETIME NOT NULL,
    "codeChallenge" TEXT,
    "codeChallengeMethod" TEXT,
    "loginHint" TEXT,
    "claimsLocales" TEXT,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "AccessToken" (
    "tokenHash" TEXT NOT NULL PRIMARY KEY,
    "clientId" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "codeHash" TEXT,
    "familyId" TEXT,
    "acr" TEXT,
    "authTime" DATETIME,
    "expiresAt" DATETIME NOT NULL,
    "revokedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "RefreshToken" (
    "tokenHash" TEXT NOT NULL PRIMARY KEY,
    "familyId" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "codeHash" TEXT,
    "acr" TEXT NOT NULL,
    "amr" TEXT NOT NULL,
    "authTime" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "revokedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Key" (
    "kid" TEXT NOT NULL PRIMARY KEY,
    "use" TEXT NOT NULL,
    "alg" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "publicJwk" TEXT NOT NULL,
    "privateJwkEnc" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "activatedAt" DATETIME,
    "retiredAt" DATETIME,
    "removeAfter" DATETIME
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "msisdn" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "RateLimit" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "count" INTEGER NOT NULL,
    "windowStart" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "type" TEXT NOT NULL,
    "subscriberId" TEXT,
    "clientId" TEXT,
    "detail" TEXT
);

-- CreateIndex
CREATE UNIQUE INDEX "Subscriber_msisdn_key" ON "Subscriber"("msisdn");

-- CreateIndex
CREATE UNIQUE INDEX "PairwiseSubject_subscriberId_sectorIdentifier_key" ON "PairwiseSubject"("subscriberId", "sectorIdentifier");

-- CreateIndex
CREATE INDEX "Session_browserIdHash_idx" ON "Session"("browserIdHash");

-- CreateIndex
CREATE INDEX "Session_subscriberId_idx" ON "Session"("subscriberId");

-- CreateIndex
CREATE UNIQUE INDEX "Grant_subscriberId_clientId_key" ON "Grant"("subscriberId", "clientId");

-- CreateIndex
CREATE INDEX "AuthorizationRequest_expiresAt_idx" ON "AuthorizationRequest"("expiresAt");

-- CreateIndex
CREATE INDEX "AuthorizationCode_expiresAt_idx" ON "AuthorizationCode"("expiresAt");

-- CreateIndex
CREATE INDEX "AccessToken_codeHash_idx" ON "AccessToken"("codeHash");

-- CreateIndex
CREATE INDEX "AccessToken_familyId_idx" ON "AccessToken"("familyId");

-- CreateIndex
CREATE INDEX "AccessToken_expiresAt_idx" ON "AccessToken"("expiresAt");

-- CreateIndex
CREATE INDEX "RefreshToken_familyId_idx" ON "RefreshToken"("familyId");

-- CreateIndex
CREATE INDEX "RefreshToken_codeHash_idx" ON "RefreshToken"("codeHash");

-- CreateIndex
CREATE INDEX "Key_use_status_idx" ON "Key"("use", "status");

-- CreateIndex
CREATE INDEX "Message_msisdn_createdAt_idx" ON "Message"("msisdn", "createdAt");

-- CreateIndex
CREATE INDEX "AuditEvent_at_idx" ON "AuditEvent"("at");

