-- The SQLite migration's data fix, unchanged: self-registered CIBA clients get a sector of their own.
UPDATE "Client" SET "sectorIdentifier" = 'client:' || "id"
WHERE "registeredBy" = 'dynamic' AND (' ' || "grantTypes" || ' ') LIKE '% urn:openid:params:grant-type:ciba %';
