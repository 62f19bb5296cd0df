-- CreateTable
CREATE TABLE "Subscriber" (
    "id" TEXT NOT NULL,
    "msisdn" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "pinHash" TEXT,
    "failedPinAttempts" INTEGER NOT NULL DEFAULT 0,
    "lockoutCount" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" TIMESTAMP(3),
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Subscriber_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Client" (
    "id" TEXT NOT NULL,
    "secretHash" TEXT,
    "name" TEXT NOT NULL,
    "redirectUris" TEXT NOT NULL,
    "postLogoutRedirectUris" TEXT NOT NULL DEFAULT '[]',
    "allowedScopes" TEXT NOT NULL,
    "sectorIdentifier" TEXT NOT NULL,
    "expiresInFormat" TEXT NOT NULL DEFAULT 'timestamp',
    "isPublic" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'active',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Client_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PairwiseSubject" (
    "sub" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "sectorIdentifier" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PairwiseSubject_pkey" PRIMARY KEY ("sub")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "browserIdHash" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "authTime" TIMESTAMP(3) NOT NULL,
    "acr" TEXT NOT NULL,
    "amr" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Grant" (
    "id" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Grant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuthorizationRequest" (
    "id" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "params" TEXT NOT NULL,
    "browserIdHash" TEXT NOT NULL,
    "subscriberId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "otpHash" TEXT,
    "otpAttempts" INTEGER NOT NULL DEFAULT 0,
    "otpSentAt" TIMESTAMP(3),
    "pinVerified" BOOLEAN NOT NULL DEFAULT false,
    "sessionId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AuthorizationRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuthorizationCode" (
    "codeHash" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "sessionId" TEXT,
    "redirectUri" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "nonce" TEXT,
    "acr" TEXT NOT NULL,
    "amr" TEXT NOT NULL,
    "authTime" TIMESTAMP(3) NOT NULL,
    "codeChallenge" TEXT,
    "codeChallengeMethod" TEXT,
    "loginHint" TEXT,
    "claimsLocales" TEXT,
    "context" TEXT,
    "bindingMessage" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuthorizationCode_pkey" PRIMARY KEY ("codeHash")
);

-- CreateTable
CREATE TABLE "AccessToken" (
    "tokenHash" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "codeHash" TEXT,
    "familyId" TEXT,
    "acr" TEXT,
    "authTime" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AccessToken_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateTable
CREATE TABLE "RefreshToken" (
    "tokenHash" TEXT NOT NULL,
    "familyId" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "codeHash" TEXT,
    "acr" TEXT NOT NULL,
    "amr" TEXT NOT NULL,
    "authTime" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RefreshToken_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateTable
CREATE TABLE "Key" (
    "kid" TEXT NOT NULL,
    "use" TEXT NOT NULL,
    "alg" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "publicJwk" TEXT NOT NULL,
    "privateJwkEnc" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "activatedAt" TIMESTAMP(3),
    "retiredAt" TIMESTAMP(3),
    "removeAfter" TIMESTAMP(3),

    CONSTRAINT "Key_pkey" PRIMARY KEY ("kid")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL,
    "msisdn" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RateLimit" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RateLimit_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "type" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "subscriberRef" TEXT,
    "clientId" TEXT,
    "ip" TEXT,
    "detail" TEXT,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Device" (
    "id" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "Device_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DeviceEnrolment" (
    "id" TEXT NOT NULL,
    "msisdn" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DeviceEnrolment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DeviceRequest" (
    "id" TEXT NOT NULL,
    "authorizationRequestId" TEXT NOT NULL,
    "subscriberId" TEXT NOT NULL,
    "deviceId" TEXT,
    "clientName" TEXT NOT NULL,
    "context" TEXT,
    "bindingMessage" TEXT,
    "scope" TEXT NOT NULL,
    "acr" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "answeredAt" TIMESTAMP(3),

    CONSTRAINT "DeviceRequest_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "RateLimit_expiresAt_idx" ON "RateLimit"("expiresAt");

-- CreateIndex
CREATE INDEX "AuditEvent_at_idx" ON "AuditEvent"("at");

-- CreateIndex
CREATE INDEX "AuditEvent_type_at_idx" ON "AuditEvent"("type", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_subscriberRef_at_idx" ON "AuditEvent"("subscriberRef", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_clientId_at_idx" ON "AuditEvent"("clientId", "at");

-- CreateIndex
CREATE UNIQUE INDEX "Device_secretHash_key" ON "Device"("secretHash");

-- CreateIndex
CREATE INDEX "Device_subscriberId_idx" ON "Device"("subscriberId");

-- CreateIndex
CREATE UNIQUE INDEX "DeviceRequest_authorizationRequestId_key" ON "DeviceRequest"("authorizationRequestId");

-- CreateIndex
CREATE INDEX "DeviceRequest_subscriberId_status_idx" ON "DeviceRequest"("subscriberId", "status");

-- AddForeignKey
ALTER TABLE "PairwiseSubject" ADD CONSTRAINT "PairwiseSubject_subscriberId_fkey" FOREIGN KEY ("subscriberId") REFERENCES "Subscriber"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_subscriberId_fkey" FOREIGN KEY ("subscriberId") REFERENCES "Subscriber"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Grant" ADD CONSTRAINT "Grant_subscriberId_fkey" FOREIGN KEY ("subscriberId") REFERENCES "Subscriber"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written, from prisma/postgres/manual/20261123110000_security.sql:
-- Append-only audit log: the PostgreSQL form of the SQLite migration's two triggers (same names),
-- so the database refuses to change or remove an audit row whatever code path asks.
CREATE FUNCTION "AuditEvent_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'AuditEvent is append-only';
END $$;

CREATE TRIGGER "AuditEvent_no_update" BEFORE UPDATE ON "AuditEvent"
    FOR EACH ROW EXECUTE FUNCTION "AuditEvent_append_only"();

CREATE TRIGGER "AuditEvent_no_delete" BEFORE DELETE ON "AuditEvent"
    FOR EACH ROW EXECUTE FUNCTION "AuditEvent_append_only"();
