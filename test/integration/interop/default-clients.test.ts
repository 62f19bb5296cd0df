import { describe, expect, inject, it, onTestFinished, vi } from "vitest";
import * as oauth from "oauth4webapi";
import * as client from "openid-client";
import { Auth, type AuthConfig } from "@auth/core";
import { decodeJwt } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { updateClient } from "@/lib/clients/update-client";
import { SUPPORTED_SCOPES } from "@/lib/oauth/scopes";
import { createTestSubscriber } from "../../support/fixtures";
import { signInAndConsent } from "../../support/browserless";

/**
 * Relying-party libraries in their README's default configuration against a client registered the way
 * an operator registers one today (createClient with no profile: `oidc`, docs/interface.md "Client
 * profiles"). Each test is a whole flow over HTTP: the library builds the authorization request, the
 * subscriber signs in and consents on our screens (test/support/browserless.ts: the one-time code from
 * the device inbox), the library exchanges the code and checks what it checks by default, then reads
 * userinfo and premium info with the access token, and refreshes where the library has a refresh call.
 * The only setting added to any README example is the one the test server needs: plain http on 127.0.0.1.
 * Any rejection is a bug in our service.
 */
const baseUrl = inject("baseUrl");
const issuer = new URL(baseUrl);

/** An RP registered with the admin CLI's defaults (no --profile, no --expires-in). */
async function registerDefaultClient(redirectUri = "https://rp.example.test/callback") {
  const name = `Interop${Math.random().toString(36).slice(2, 10)}`;
  const { client: c, clientSecret } = await createClient({ name, redirectUris: [redirectUri], scopes: [...SUPPORTED_SCOPES] });
  expect(c).toMatchObject({ profile: "oidc", expiresInFormat: "seconds" });
  return { id: c.id, secret: clientSecret!, redirectUri };
}

async function browse(authorizationUrl: URL, subscriber: { msisdn: string; pin: string }) {
  const { callbackUrl } = await signInAndConsent({ authorizationUrl: authorizationUrl.href, msisdn: subscriber.msisdn,
    pin: subscriber.pin });
  return callbackUrl;
}

async function premiumInfo(accessToken: string) {
  const res = await fetch(new URL("/premiuminfo", baseUrl), { headers: { authorization: `Bearer ${accessToken}` } });
  expect(res.status).toBe(200);
  return res.json() as Promise<Record<string, unknown>>;
}

describe("openid-client v6, README defaults (PKCE S256; no state, no nonce: the server supports PKCE)", () => {
  it("signs in, reads userinfo and premium info, refreshes", async () => {
    const rp = await registerDefaultClient();
    const subscriber = await createTestSubscriber();
    // README: discovery(server, clientId, clientSecret); the default client authentication is client_secret_post.
    const config = await client.discovery(issuer, rp.id, rp.secret, undefined, { execute: [client.allowInsecureRequests] });
    expect(config.serverMetadata().supportsPKCE()).toBe(true);

    const codeVerifier = client.randomPKCECodeVerifier();
    const parameters: Record<string, string> = {
      redirect_uri: rp.redirectUri, scope: "openid email offline_access mc_identity_phonenumber",
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: "S256",
    };
    let state: string | undefined;
    if (!config.serverMetadata().supportsPKCE()) parameters.state = state = client.randomState();
    const url = client.buildAuthorizationUrl(config, parameters);
    expect(url.searchParams.has("state")).toBe(false);
    expect(url.searchParams.has("nonce")).toBe(false);

    const tokens = await client.authorizationCodeGrant(config, await browse(url, subscriber),
      { pkceCodeVerifier: codeVerifier, expectedState: state });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: baseUrl, aud: rp.id, acr: "2" });
    expect(claims.nonce).toBeUndefined();
    expect(tokens.expires_in).toBe(3600);

    const userInfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(userInfo).toMatchObject({ sub: claims.sub, email: "alice@example.test" });
    expect(await premiumInfo(tokens.access_token)).toMatchObject({ phone_number: `+${subscriber.msisdn}` });

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()?.sub).toBe(claims.sub);
    expect(refreshed.expiresIn()).toBeGreaterThan(3590);
    expect(await client.fetchUserInfo(config, refreshed.access_token, claims.sub)).toMatchObject({ sub: claims.sub });
  });

  it("the same defaults against a mobile-connect client are refused (what issue 18 reported), as that profile says", async () => {
    const rp = await registerDefaultClient();
    await updateClient({ clientId: rp.id, changes: { profile: "mobile-connect" } });
    const config = await client.discovery(issuer, rp.id, rp.secret, undefined, { execute: [client.allowInsecureRequests] });
    const codeVerifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: rp.redirectUri, scope: "openid email",
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: "S256" });
    const res = await fetch(url, { redirect: "manual" });
    const callback = new URL(res.headers.get("location")!);
    expect(Object.fromEntries(callback.searchParams)).toMatchObject({ error: "invalid_request",
      error_description: "MANDATORY parameter state is missing" });
    await expect(client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: codeVerifier }))
      .rejects.toMatchObject({ error: "invalid_request" });
  });
});

describe("oauth4webapi v3, README defaults (PKCE S256; state and nonce only without PKCE support)", () => {
  it("signs in, reads userinfo and premium info, refreshes", async () => {
    const rp = await registerDefaultClient();
    const subscriber = await createTestSubscriber();
    const insecure = { [oauth.allowInsecureRequests]: true } as const;
    const as = await oauth.processDiscoveryResponse(issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
    const c: oauth.Client = { client_id: rp.id };
    const clientAuth = oauth.ClientSecretPost(rp.secret);

    const codeVerifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set("client_id", c.client_id);
    url.searchParams.set("redirect_uri", rp.redirectUri);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("scope", "openid email offline_access mc_identity_phonenumber");
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(codeVerifier));
    url.searchParams.set("code_challenge_method", "S256");
    let state: string | undefined;
    let nonce: string | undefined;
    if (as.code_challenge_methods_supported?.includes("S256") !== true) {
      url.searchParams.set("state", (state = oauth.generateRandomState()));
      url.searchParams.set("nonce", (nonce = oauth.generateRandomNonce()));
    }
    expect(state).toBeUndefined();

    const params = oauth.validateAuthResponse(as, c, await browse(url, subscriber), state);
    const response = await oauth.authorizationCodeGrantRequest(as, c, clientAuth, params, rp.redirectUri, codeVerifier,
      insecure);
    const result = await oauth.processAuthorizationCodeResponse(as, c, response, { expectedNonce: nonce, requireIdToken: true });
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    expect(claims).toMatchObject({ iss: baseUrl, aud: rp.id });
    expect(result.expires_in).toBe(3600);

    const userInfo = await oauth.processUserInfoResponse(as, c, claims.sub,
      await oauth.userInfoRequest(as, c, result.access_token, insecure));
    expect(userInfo).toMatchObject({ sub: claims.sub, email: "alice@example.test" });
    expect(await premiumInfo(result.access_token)).toMatchObject({ phone_number: `+${subscriber.msisdn}` });

    const refreshed = await oauth.processRefreshTokenResponse(as, c,
      await oauth.refreshTokenGrantRequest(as, c, clientAuth, result.refresh_token!, insecure));
    expect(oauth.getValidatedIdTokenClaims(refreshed)?.sub).toBe(claims.sub);
    expect(refreshed.expires_in).toBe(3600);
  });
});

describe("@auth/core (Auth.js, next-auth v5's core) as shipped: a generic OIDC provider, default checks (PKCE)", () => {
  /** The RP's cookie jar across Auth() calls, as the browser would keep it. */
  class Jar {
    private cookies = new Map<string, string>();
    absorb(res: Response) {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(";");
        const i = pair!.indexOf("=");
        const value = pair!.slice(i + 1);
        if (/max-age=0|expires=thu, 01 jan 1970/i.test(c) || value === "") this.cookies.delete(pair!.slice(0, i));
        else this.cookies.set(pair!.slice(0, i), value);
      }
    }
    header() {
      return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    }
  }

  // The provider as the Auth.js docs write a generic OIDC provider: id, name, type, issuer, clientId, clientSecret.
  // The second run adds the one thing premium info needs, a Mobile Connect identity scope, as the RP's own choice.
  it.each([
    ["its default scope (openid profile email)", undefined],
    ["a Mobile Connect scope added", "openid profile email mc_identity_phonenumber"],
  ])("signs in through the provider with %s; the RP reads userinfo and premium info", async (_, scope) => {
    const rpOrigin = "http://localhost:3998";
    const rp = await registerDefaultClient(`${rpOrigin}/auth/callback/operator`);
    const subscriber = await createTestSubscriber();
    let account: Record<string, unknown> | undefined;
    const config: AuthConfig = {
      secret: "interop-test-secret-0123456789abcdef0123456789",
      trustHost: true,
      basePath: "/auth",
      providers: [{ id: "operator", name: "Operator", type: "oidc", issuer: baseUrl, clientId: rp.id, clientSecret: rp.secret,
        ...(scope ? { authorization: { params: { scope } } } : {}) }],
      callbacks: {
        jwt({ token, account: a }) {
          if (a) account = a as unknown as Record<string, unknown>;
          return token;
        },
      },
    };
    const jar = new Jar();
    const call = async (path: string, init: RequestInit = {}) => {
      const res = await Auth(new Request(new URL(path, rpOrigin), {
        ...init, headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
      }), config);
      jar.absorb(res);
      return res;
    };

    const { csrfToken } = (await (await call("/auth/csrf")).json()) as { csrfToken: string };
    const signIn = await call("/auth/signin/operator", {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${rpOrigin}/` }),
    });
    expect(signIn.status).toBe(302);
    const authorizationUrl = new URL(signIn.headers.get("location")!);
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(new URL("/authorize", baseUrl).href);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.has("nonce")).toBe(false);
    expect(authorizationUrl.searchParams.has("state")).toBe(false);

    const callbackUrl = await browse(authorizationUrl, subscriber);
    expect(callbackUrl.origin).toBe(rpOrigin);
    const callback = await call(callbackUrl.pathname + callbackUrl.search);
    expect(callback.headers.get("location")).toBe(`${rpOrigin}/`);

    // Signed in: a session exists. Its user is built from the id_token's claims, which carry no email or
    // name here (those are released at userinfo), so it is empty but for what the RP adds itself.
    const session = (await (await call("/auth/session")).json()) as { user?: Record<string, unknown>; expires?: string };
    expect(session.user).toBeDefined();
    expect(Date.parse(session.expires!)).toBeGreaterThan(Date.now());
    expect(account).toMatchObject({ provider: "operator", type: "oidc", token_type: "bearer", expires_in: 3600 });
    expect(decodeJwt(account!.id_token as string)).toMatchObject({ iss: baseUrl, aud: rp.id,
      sub: account!.providerAccountId });

    const accessToken = account!.access_token as string;
    const ui = await fetch(new URL("/userinfo", baseUrl), { headers: { authorization: `Bearer ${accessToken}` } });
    expect(await ui.json()).toMatchObject({ email: "alice@example.test" });
    if (scope) {
      expect(await premiumInfo(accessToken)).toMatchObject({ phone_number: `+${subscriber.msisdn}` });
    } else {
      // No identity scope granted: premium info answers the interface's 401 (by design, not a library issue).
      const pi = await fetch(new URL("/premiuminfo", baseUrl), { headers: { authorization: `Bearer ${accessToken}` } });
      expect(pi.status).toBe(401);
    }
  });
});

describe("next-auth v4 (the app's own dependency) with its documented custom OIDC provider: checks PKCE and state", () => {
  it("signs in through the provider; the RP reads userinfo and premium info with the account's access token", async () => {
    // next-auth v4 runs inside Next.js; its core handler (what NextAuth() wraps) is driven here directly. Its package
    // exports do not list it, so it is loaded by file.
    const { AuthHandler } = (await import("../../../node_modules/next-auth/core/index.js")) as unknown as {
      AuthHandler(params: { req: Request; options: Record<string, unknown> }): Promise<{
        status?: number; redirect?: string; body?: unknown;
        cookies?: Array<{ name: string; value: string; options?: { maxAge?: number; expires?: Date } }>;
      }>;
    };
    // Origin from the Host header (as behind a proxy), for this test only.
    vi.stubEnv("AUTH_TRUST_HOST", "true");
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const rpOrigin = "http://localhost:3997";
    const rp = await registerDefaultClient(`${rpOrigin}/api/auth/callback/operator`);
    const subscriber = await createTestSubscriber();
    let account: Record<string, unknown> | undefined;
    const options = {
      secret: "interop-test-secret-0123456789abcdef0123456789",
      providers: [{
        // https://next-auth.js.org/configuration/providers/oauth#using-a-custom-provider, as documented.
        id: "operator", name: "Operator", type: "oauth", wellKnown: `${baseUrl}/.well-known/openid-configuration`,
        authorization: { params: { scope: "openid email profile mc_identity_phonenumber" } },
        idToken: true, checks: ["pkce", "state"], clientId: rp.id, clientSecret: rp.secret,
        profile(profile: Record<string, unknown>) {
          return { id: String(profile.sub), name: null, email: null, image: null };
        },
      }],
      callbacks: {
        jwt({ token, account: a }: { token: Record<string, unknown>; account?: Record<string, unknown> }) {
          if (a) account = a;
          return token;
        },
      },
    };
    const jar = new Map<string, string>();
    const call = async (path: string, init: { method?: string; body?: Record<string, string> } = {}) => {
      const res = await AuthHandler({ options, req: new Request(new URL(path, rpOrigin), {
        method: init.method ?? "GET",
        headers: { host: new URL(rpOrigin).host, "x-forwarded-proto": "http", "content-type": "application/json",
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
        ...(init.body ? { body: JSON.stringify(init.body) } : {}),
      }) });
      for (const c of res.cookies ?? []) {
        if (c.options?.maxAge === 0 || c.value === "") jar.delete(c.name);
        else jar.set(c.name, c.value);
      }
      return res;
    };

    const { csrfToken } = (await call("/api/auth/csrf")).body as { csrfToken: string };
    const signIn = await call("/api/auth/signin/operator", { method: "POST",
      body: { csrfToken, callbackUrl: `${rpOrigin}/`, json: "true" } });
    const authorizationUrl = new URL(signIn.redirect ?? (signIn.body as { url: string }).url);
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(new URL("/authorize", baseUrl).href);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.has("state")).toBe(true);
    expect(authorizationUrl.searchParams.has("nonce")).toBe(false);

    const callbackUrl = await browse(authorizationUrl, subscriber);
    expect(callbackUrl.origin).toBe(rpOrigin);
    const callback = await call(callbackUrl.pathname + callbackUrl.search);
    expect(callback.redirect).toBe(`${rpOrigin}/`);
    expect((await call("/api/auth/session")).body).toMatchObject({ user: {} });
    expect(account).toMatchObject({ provider: "operator", type: "oauth", token_type: "bearer" });
    expect(decodeJwt(account!.id_token as string)).toMatchObject({ iss: baseUrl, aud: rp.id,
      sub: account!.providerAccountId });

    const accessToken = account!.access_token as string;
    const ui = await fetch(new URL("/userinfo", baseUrl), { headers: { authorization: `Bearer ${accessToken}` } });
    expect(await ui.json()).toMatchObject({ email: "alice@example.test" });
    expect(await premiumInfo(accessToken)).toMatchObject({ phone_number: `+${subscriber.msisdn}` });
  });
});
