import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload, type ProtectedHeaderParameters } from "jose";
import * as oidc from "openid-client";
import { operatorClient } from "./operator-client";
import { issuerBase } from "../http/issuer-base";
import { PLAYGROUND_CLIENT_ID } from "./playground-settings";
import type { TokenRecord } from "./token-record";

let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
let jwksUri = "";

export type IdTokenView =
  | { verified: true; header: ProtectedHeaderParameters; claims: JWTPayload }
  | { verified: false; header?: ProtectedHeaderParameters; error: string };

/** Decodes and verifies an id_token against our jwks_uri (signature, iss, aud, exp). */
export async function verifyIdToken(idToken: string): Promise<IdTokenView> {
  let header: ProtectedHeaderParameters | undefined;
  try {
    header = decodeProtectedHeader(idToken);
    const uri = (await operatorClient()).serverMetadata().jwks_uri!;
    if (!jwks || jwksUri !== uri) [jwks, jwksUri] = [createRemoteJWKSet(new URL(uri)), uri];
    // The id_token's exp is short; a page shown later still explains what was received.
    const { payload } = await jwtVerify(idToken, jwks, {
      issuer: issuerBase(), audience: PLAYGROUND_CLIENT_ID, algorithms: ["RS256"], clockTolerance: 3600 * 24,
    });
    return { verified: true, header, claims: payload };
  } catch (err) {
    return { verified: false, header, error: err instanceof Error ? err.message : String(err) };
  }
}

export interface ResourceView { url: string; status: number; body: unknown }

/** Calls a protected resource (premium info, userinfo) with the access token as a Bearer header. */
export async function fetchResource(which: "premiuminfo_endpoint" | "userinfo_endpoint", tokens: TokenRecord): Promise<ResourceView | null> {
  const cfg = await operatorClient();
  const url = cfg.serverMetadata()[which];
  if (typeof url !== "string" || !tokens.access_token) return null;
  let res: Response;
  try {
    res = await oidc.fetchProtectedResource(cfg, tokens.access_token, new URL(url), "GET");
  } catch (err) {
    // A 401 with WWW-Authenticate (e.g. after revocation) is thrown as a challenge error carrying the response.
    if (err instanceof oidc.WWWAuthenticateChallengeError) res = err.response;
    else return { url, status: 0, body: err instanceof Error ? err.message : String(err) };
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* shown as text */
  }
  return { url, status: res.status, body };
}
