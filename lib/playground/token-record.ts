/** What the playground keeps of a token response in next-auth's encrypted JWT cookie. */
export interface TokenRecord {
  access_token?: string;
  token_type?: string;
  id_token?: string;
  refresh_token?: string;
  scope?: string;
  /** Absolute expiry as computed by the client library from `expires_in` (seconds, per this client). */
  expires_at?: number;
  /** `expires_in` as received, when the library kept it (the refresh grant's response does). */
  expires_in?: number | string;
  /** Which grant produced it. */
  grant: "authorization_code" | "refresh_token";
  received_at: number;
}

const FIELDS = ["access_token", "token_type", "id_token", "refresh_token", "scope", "expires_at", "expires_in"] as const;

/** Keeps the standard token response fields of a token set (next-auth's `account` or openid-client's response). */
export function toTokenRecord(source: Record<string, unknown>, grant: TokenRecord["grant"]): TokenRecord {
  const record: TokenRecord = { grant, received_at: Math.floor(Date.now() / 1000) };
  for (const f of FIELDS) {
    const v = source[f];
    if (typeof v === "string" || typeof v === "number") (record as unknown as Record<string, unknown>)[f] = v;
  }
  return record;
}
