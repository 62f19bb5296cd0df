-- This is an empty migration. The SQLite migration of the same name changed no table.

-- Hand-written, from prisma/postgres/manual/20261129000000_dynamic_ciba_clients_own_sector.sql:
-- The SQLite migration's data fix, unchanged: self-registered CIBA clients get a sector of their own.
UPDATE "Client" SET "sectorIdentifier" = 'client:' || "id"
WHERE "registeredBy" = 'dynamic' AND (' ' || "grantTypes" || ' ') LIKE '% urn:openid:params:grant-type:ciba %';
