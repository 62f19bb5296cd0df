import type { Prisma } from "@prisma/client";

/** The rows of a token response: the access token, a refresh token if any, and its `token_issued` audit row. */
export interface IssuedTokenRows {
  accessToken: Prisma.AccessTokenUncheckedCreateInput;
  refreshToken?: Prisma.RefreshTokenUncheckedCreateInput;
  audit: Prisma.AuditEventCreateManyInput;
}

/**
 * Inserts them inside the caller's transaction (the CIBA redemption and push attempt), so a token is recorded
 * exactly when it is issued.
 */
export async function insertIssuedTokens(tx: Prisma.TransactionClient,
  { accessToken, refreshToken, audit }: IssuedTokenRows) {
  await tx.accessToken.create({ data: accessToken, select: { tokenHash: true } });
  if (refreshToken) await tx.refreshToken.create({ data: refreshToken, select: { tokenHash: true } });
  await tx.auditEvent.create({ data: audit, select: { id: true } });
}
