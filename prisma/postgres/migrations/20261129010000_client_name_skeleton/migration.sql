-- AlterTable
ALTER TABLE "Client" ADD COLUMN     "nameSkeleton" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Client_nameSkeleton_key" ON "Client"("nameSkeleton");


-- Hand-written, from prisma/postgres/manual/20261129010000_client_name_skeleton.sql:
-- Each existing client's name skeleton (lib/clients/client-name-skeleton.ts: lower case; i, 1, | as l; 0 as o;
-- space _ . - removed; rn as m, vv as w). Names follow the rule [A-Za-z0-9 _.-], for which this is the same value.
-- Existing clients whose names already look alike are all kept (their relying parties send those names): the oldest
-- holds the skeleton, so no new name can look like any of them; the others keep a null skeleton.
UPDATE "Client" SET "nameSkeleton" = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
  lower("name"), 'i', 'l'), '1', 'l'), '|', 'l'), '0', 'o'), ' ', ''), '_', ''), '.', ''), '-', ''), 'rn', 'm'), 'vv', 'w')
WHERE NOT EXISTS (
  SELECT 1 FROM "Client" AS "older"
  WHERE replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
      lower("older"."name"), 'i', 'l'), '1', 'l'), '|', 'l'), '0', 'o'), ' ', ''), '_', ''), '.', ''), '-', ''), 'rn', 'm'), 'vv', 'w')
    = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
      lower("Client"."name"), 'i', 'l'), '1', 'l'), '|', 'l'), '0', 'o'), ' ', ''), '_', ''), '.', ''), '-', ''), 'rn', 'm'), 'vv', 'w')
    AND ("older"."createdAt" < "Client"."createdAt"
      OR ("older"."createdAt" = "Client"."createdAt" AND "older"."id" < "Client"."id"))
);
