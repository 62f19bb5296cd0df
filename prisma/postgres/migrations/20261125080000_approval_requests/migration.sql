-- AlterTable
ALTER TABLE "DeviceRequest" ADD COLUMN     "attendedUntil" TIMESTAMP(3),
ADD COLUMN     "checkCode" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "clientId" TEXT,
ADD COLUMN     "origin" TEXT,
ADD COLUMN     "textVerified" BOOLEAN NOT NULL DEFAULT false,
ALTER COLUMN "subscriberId" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "AuthorizationRequest_browserIdHash_idx" ON "AuthorizationRequest"("browserIdHash");

-- CreateIndex
CREATE INDEX "DeviceRequest_clientId_status_idx" ON "DeviceRequest"("clientId", "status");

