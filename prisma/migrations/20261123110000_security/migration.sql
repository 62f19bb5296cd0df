-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "type" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "subscriberRef" TEXT,
    "clientId" TEXT,
    "ip" TEXT,
    "detail" TEXT
);
INSERT INTO "new_AuditEvent" ("at", "clientId", "detail", "id", "type", "outcome") SELECT "at", "clientId", "detail", "id", "type", 'recorded' FROM "AuditEvent";
DROP TABLE "AuditEvent";
ALTER TABLE "new_AuditEvent" RENAME TO "AuditEvent";
CREATE INDEX "AuditEvent_at_idx" ON "AuditEvent"("at");
CREATE INDEX "AuditEvent_type_at_idx" ON "AuditEvent"("type", "at");
CREATE INDEX "AuditEvent_subscriberRef_at_idx" ON "AuditEvent"("subscriberRef", "at");
CREATE INDEX "AuditEvent_clientId_at_idx" ON "AuditEvent"("clientId", "at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "RateLimit_expiresAt_idx" ON "RateLimit"("expiresAt");


-- Append-only audit log (hand-written; `prisma migrate diff` does not model triggers): the
-- database itself refuses to change or remove an audit row, whatever code path asks.
CREATE TRIGGER "AuditEvent_no_update" BEFORE UPDATE ON "AuditEvent"
BEGIN
    SELECT RAISE(ABORT, 'AuditEvent is append-only');
END;

CREATE TRIGGER "AuditEvent_no_delete" BEFORE DELETE ON "AuditEvent"
BEGIN
    SELECT RAISE(ABORT, 'AuditEvent is append-only');
END;
