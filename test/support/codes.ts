import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/crypto";
import { s256Challenge } from "@/lib/oauth/pkce";

/**
 * Inserts an AuthorizationCode row exactly as /authorize produces it (code = randomToken(32),
 * key = sha256(code), space-separated scope and amr) and returns the plain code. Stands in for the
 * sign-in flow in token-endpoint tests.
 */
export async function issueTestCode(opts: {
  client: { id: string; redirectUri: string };
  subscriber: { id: string };
  scope?: string;
  redirectUri?: string;
  nonce?: string | null;
  acr?: "2" | "3";
  amr?: string;
  loginHint?: string | null;
  /** Stored as the S256 challenge of this verifier. */
  codeVerifier?: string;
  /** A challenge computed elsewhere (e.g. by a client library). */
  codeChallenge?: string;
  authTime?: Date;
  expiresAt?: Date;
  usedAt?: Date | null;
  sessionId?: string | null;
}): Promise<string> {
  const code = randomToken(32);
  const challenge = opts.codeChallenge ?? (opts.codeVerifier ? s256Challenge(opts.codeVerifier) : null);
  const now = Date.now();
  await db.authorizationCode.create({
    data: {
      codeHash: sha256(code),
      clientId: opts.client.id,
      subscriberId: opts.subscriber.id,
      sessionId: opts.sessionId === undefined ? randomUUID() : opts.sessionId,
      redirectUri: opts.redirectUri ?? opts.client.redirectUri,
      scope: opts.scope ?? "openid",
      nonce: opts.nonce === undefined ? `n-${randomToken(8)}` : opts.nonce,
      acr: opts.acr ?? "2",
      amr: opts.amr ?? "otp sms",
      authTime: opts.authTime ?? new Date(now - 5_000),
      codeChallenge: challenge,
      codeChallengeMethod: challenge ? "S256" : null,
      loginHint: opts.loginHint ?? null,
      expiresAt: opts.expiresAt ?? new Date(now + 60_000),
      usedAt: opts.usedAt ?? null,
    },
  });
  return code;
}

/** `Basic base64(id:secret)` with RFC 6749 §2.3.1 form-encoding of both parts. */
export function basic(id: string, secret: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString("base64")}`;
}

/** Redeems a code the standard way (form body, Authorization: Basic) and returns the raw response. */
export function redeemCode(baseUrl: string, client: { id: string; secret?: string; redirectUri: string },
  code: string, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}/token`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      ...(client.secret ? { Authorization: basic(client.id, client.secret) } : {}),
    },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: client.redirectUri, ...extra }),
  });
}

/** Issues a code and redeems it; returns the token response body (throws unless 200). */
export async function obtainTokens(baseUrl: string, client: { id: string; secret?: string; redirectUri: string },
  subscriber: { id: string }, opts: Omit<Parameters<typeof issueTestCode>[0], "client" | "subscriber"> = {}) {
  const code = await issueTestCode({ client, subscriber, ...opts });
  const res = await redeemCode(baseUrl, client, code, opts.codeVerifier ? { code_verifier: opts.codeVerifier } : {});
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as {
    access_token: string; token_type: string; id_token: string; expires_in: string | number;
    refresh_token?: string; scope: string;
  };
}
