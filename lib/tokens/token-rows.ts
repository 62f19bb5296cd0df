/**
 * The stored token rows as lib/oauth sees them: the protocol code names these types through lib/tokens,
 * never through Prisma (the persistence boundary, docs/architecture.md).
 */
export type { AccessToken, AuthorizationCode, RefreshToken } from "@prisma/client";
