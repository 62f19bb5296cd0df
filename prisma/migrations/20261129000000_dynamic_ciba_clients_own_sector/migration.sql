-- Issue 33: a self-registered client no longer takes its redirect URIs' host as its pairwise sector without proof.
-- Existing self-registered clients with the CIBA grant (which never use their redirect URIs, so those proved
-- nothing) move to a sector of their own, 'client:<client_id>' (lib/clients/own-sector.ts): their subject
-- identifiers change. Other self-registered clients keep theirs: codes only ever reach their redirect URIs.
UPDATE "Client" SET "sectorIdentifier" = 'client:' || "id"
WHERE "registeredBy" = 'dynamic' AND (' ' || "grantTypes" || ' ') LIKE '% urn:openid:params:grant-type:ciba %';
