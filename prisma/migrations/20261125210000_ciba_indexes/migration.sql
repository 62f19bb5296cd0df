-- CreateIndex
CREATE INDEX "BackchannelRequest_subscriberId_status_expiresAt_idx" ON "BackchannelRequest"("subscriberId", "status", "expiresAt");
