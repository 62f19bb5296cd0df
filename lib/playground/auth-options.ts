import type { NextAuthOptions } from "next-auth";
import * as oidc from "openid-client";
import { operatorClient } from "./operator-client";
import { toTokenRecord, type TokenRecord } from "./token-record";
import {
  PLAYGROUND_CLIENT_ID, PLAYGROUND_CLIENT_NAME, PLAYGROUND_PROVIDER_ID, nextAuthSecret, playgroundClientSecret, playgroundUrls,
} from "./playground-settings";

/** The playground's next-auth JWT: the usual claims plus the last token response. */
export interface PlaygroundJwt extends Record<string, unknown> {
  tokens?: TokenRecord;
  refreshError?: string;
}

/** Session update payload asking the jwt callback to run the refresh_token grant. */
export const REFRESH_REQUEST = "refresh";

/**
 * Refreshes with openid-client v6 (next-auth v4 has no refresh helper). The new response replaces the
 * old one; a refresh token not rotated by the server is kept (RFC 6749 §6).
 */
async function refresh(token: PlaygroundJwt): Promise<PlaygroundJwt> {
  const refreshToken = token.tokens?.refresh_token;
  if (!refreshToken) return { ...token, refreshError: "no refresh_token (request offline_access)" };
  try {
    const response = await oidc.refreshTokenGrant(await operatorClient(), refreshToken);
    const tokens = toTokenRecord(response as unknown as Record<string, unknown>, "refresh_token");
    tokens.refresh_token ??= refreshToken;
    if (typeof response.expires_in === "number") tokens.expires_at = tokens.received_at + response.expires_in;
    return { ...token, tokens, refreshError: undefined };
  } catch (err) {
    return { ...token, refreshError: err instanceof Error ? err.message : String(err) };
  }
}

let options: NextAuthOptions | undefined;

/**
 * next-auth v4 with this service as a custom OpenID Connect provider found through our discovery
 * document; openid-client v5 (inside next-auth) runs PKCE, state and nonce and validates the RS256
 * id_token. Sessions are JWTs in next-auth's encrypted cookie, holding the token response.
 */
export function authOptions(): NextAuthOptions {
  const urls = playgroundUrls();
  options ??= {
    secret: nextAuthSecret(),
    session: { strategy: "jwt", maxAge: 3600 },
    // Errors (and next-auth's provider list) land on the playground, which shows `?error=`.
    pages: { signIn: "/playground", error: "/playground" },
    providers: [
      {
        id: PLAYGROUND_PROVIDER_ID,
        name: "Operator",
        type: "oauth",
        wellKnown: urls.discovery,
        clientId: PLAYGROUND_CLIENT_ID,
        clientSecret: playgroundClientSecret(),
        idToken: true,
        // openid-client v5's default 3.5 s is short for a cold server answering its own discovery.
        httpOptions: { timeout: 10_000 },
        checks: ["pkce", "state", "nonce"],
        client: { token_endpoint_auth_method: "client_secret_basic", id_token_signed_response_alg: "RS256" },
        // The playground form's choices arrive as signin query parameters and override these.
        authorization: { params: { scope: "openid", client_name: PLAYGROUND_CLIENT_NAME } },
        profile(profile: Record<string, unknown>) {
          return { id: String(profile.sub), name: null, email: null, image: null };
        },
      },
    ],
    callbacks: {
      async jwt({ token, account, trigger, session }) {
        const jwt = token as PlaygroundJwt;
        if (account) return { ...jwt, tokens: toTokenRecord(account as Record<string, unknown>, "authorization_code"), refreshError: undefined };
        if (trigger === "update" && session === REFRESH_REQUEST) return refresh(jwt);
        return jwt;
      },
      // The tokens stay in the encrypted cookie; /api/auth/session shows only who is signed in.
      async session({ session }) {
        return session;
      },
      async redirect({ url, baseUrl }) {
        const target = new URL(url, baseUrl);
        return target.origin === new URL(baseUrl).origin ? target.toString() : urls.page;
      },
    },
  };
  return options;
}
