-- AlterTable
ALTER TABLE "Client" ADD COLUMN     "networkHintsAllowed" BOOLEAN NOT NULL DEFAULT false;

