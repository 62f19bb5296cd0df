-- AlterTable
ALTER TABLE "Client" ADD COLUMN     "profile" TEXT NOT NULL DEFAULT 'mobile-connect';

