-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Client" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "secretHash" TEXT,
    "name" TEXT NOT NULL,
    "redirectUris" TEXT NOT NULL,
    "postLogoutRedirectUris" TEXT NOT NULL DEFAULT '[]',
    "allowedScopes" TEXT NOT NULL,
    "sectorIdentifier" TEXT NOT NULL,
    "profile" TEXT NOT NULL DEFAULT 'mobile-connect',
    "expiresInFormat" TEXT NOT NULL DEFAULT 'timestamp',
    "isPublic" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'active',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Client" ("allowedScopes", "createdAt", "expiresInFormat", "id", "isPublic", "name", "postLogoutRedirectUris", "redirectUris", "secretHash", "sectorIdentifier", "status", "updatedAt") SELECT "allowedScopes", "createdAt", "expiresInFormat", "id", "isPublic", "name", "postLogoutRedirectUris", "redirectUris", "secretHash", "sectorIdentifier", "status", "updatedAt" FROM "Client";
DROP TABLE "Client";
ALTER TABLE "new_Client" RENAME TO "Client";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

