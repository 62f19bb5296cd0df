-- AlterTable
ALTER TABLE "Client" ADD COLUMN "idTokenSignedResponseAlg" TEXT NOT NULL DEFAULT 'RS256';
