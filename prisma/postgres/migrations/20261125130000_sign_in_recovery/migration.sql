-- AlterTable
ALTER TABLE "AuthorizationRequest" ADD COLUMN     "sentTo" TEXT,
ADD COLUMN     "typedAt" TIMESTAMP(3),
ADD COLUMN     "typedMsisdn" TEXT;

