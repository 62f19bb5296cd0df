/** Whether a stored access token can still be used: not revoked and not expired. */
export function isAccessTokenActive(row: { revokedAt: Date | null; expiresAt: Date }, now = new Date()): boolean {
  return !row.revokedAt && row.expiresAt.getTime() > now.getTime();
}

/** Whether a stored refresh token can still be exchanged: not used, not revoked, not expired. */
export function isRefreshTokenActive(
  row: { usedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now = new Date(),
): boolean {
  return !row.usedAt && !row.revokedAt && row.expiresAt.getTime() > now.getTime();
}
