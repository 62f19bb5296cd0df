import type { AccessToken, RefreshToken } from "@prisma/client";
import { findAccessToken } from "./find-access-token";
import { findRefreshToken } from "./find-refresh-token";

export type FoundToken = { kind: "access_token"; row: AccessToken } | { kind: "refresh_token"; row: RefreshToken };

/**
 * An access or refresh token by value, looking first where `hint` points (RFC 7009 §2.1,
 * RFC 7662 §2.1: the hint only orders the search; an unknown hint is ignored). At most two reads.
 */
export async function findAnyToken({ token, hint }: { token: string; hint?: string }): Promise<FoundToken | null> {
  const access = async (): Promise<FoundToken | null> => {
    const row = await findAccessToken({ token });
    return row && { kind: "access_token", row };
  };
  const refresh = async (): Promise<FoundToken | null> => {
    const row = await findRefreshToken({ token });
    return row && { kind: "refresh_token", row };
  };
  return hint === "refresh_token" ? ((await refresh()) ?? access()) : ((await access()) ?? refresh());
}
