-- AlterTable
ALTER TABLE "AuthorizationRequest" ADD COLUMN "sentTo" TEXT;
ALTER TABLE "AuthorizationRequest" ADD COLUMN "typedAt" DATETIME;
ALTER TABLE "AuthorizationRequest" ADD COLUMN "typedMsisdn" TEXT;

