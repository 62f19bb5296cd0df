import { db } from "../db";
import { sha256 } from "../crypto";

/** The stored access token for a presented value (by SHA-256), or null. */
export function findAccessToken({ token }: { token: string }) {
  return db.accessToken.findUnique({ where: { tokenHash: sha256(token) } });
}

/** The stored refresh token for a presented value (by SHA-256), or null. */
export function findRefreshToken({ token }: { token: string }) {
  return db.refreshToken.findUnique({ where: { tokenHash: sha256(token) } });
}

export type FoundToken =
  | { kind: "access_token"; row: NonNullable<Awaited<ReturnType<typeof findAccessToken>>> }
  | { kind: "refresh_token"; row: NonNullable<Awaited<ReturnType<typeof findRefreshToken>>> };

/**
 * An access or refresh token by value, looking first where `hint` points (RFC 7009 §2.1,
 * RFC 7662 §2.1: the hint only orders the search; an unknown hint is ignored). At most two reads.
 */
export async function findAnyToken({ token, hint }: { token: string; hint?: string }): Promise<FoundToken | null> {
  const order = hint === "refresh_token" ? (["refresh_token", "access_token"] as const) : (["access_token", "refresh_token"] as const);
  for (const kind of order) {
    if (kind === "access_token") {
      const row = await findAccessToken({ token });
      if (row) return { kind, row };
    } else {
      const row = await findRefreshToken({ token });
      if (row) return { kind, row };
    }
  }
  return null;
}
