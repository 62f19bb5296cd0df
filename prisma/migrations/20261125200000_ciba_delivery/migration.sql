-- AlterTable
ALTER TABLE "BackchannelRequest" ADD COLUMN "authReqIdSealed" TEXT;

-- AlterTable
ALTER TABLE "BackchannelNotification" ADD COLUMN "tokenFamilyId" TEXT;
