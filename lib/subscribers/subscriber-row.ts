/**
 * The stored subscriber row as the protocol code (lib/oauth) sees it: named through lib/subscribers,
 * never through Prisma (the persistence boundary, docs/architecture.md).
 */
export type { Subscriber } from "@prisma/client";
