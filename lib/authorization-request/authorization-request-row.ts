/**
 * The stored AuthorizationRequest row as the flow layers (lib/oauth, lib/interaction, app/, server/) see
 * it: named through lib/authorization-request, never through Prisma (the persistence boundary,
 * docs/architecture.md).
 */
export type { AuthorizationRequest } from "@prisma/client";
