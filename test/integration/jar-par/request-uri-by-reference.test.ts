import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as oauth from "oauth4webapi";
import { exportJWK, generateKeyPair } from "jose";
import { randomToken } from "@/lib/crypto";
import { createClient } from "@/lib/clients/create-client";
import { SUPPORTED_SCOPES } from "@/lib/oauth/scopes";
import { startServer, type RunningServer } from "../../support/server";
import { createTestSubscriber } from "../../support/fixtures";
import { signInAndConsent } from "../../support/browserless";
import { expectErrorPage } from "../../support/authorize-support";

/**
 * `request_uri` by reference (RFC 9101 §5.2): a second instance on the shared database, started with
 * ALLOW_LOOPBACK_CLIENT_URLS=true so that it may fetch from the relying party's server on 127.0.0.1
 * (over http: loopback only). Only from the origin of one of the client's redirect URIs or of its jwks_uri
 * (RFC 9101 §10.4.1): the clients here register http://127.0.0.1:<port>/cb. The limits hold there too:
 * no redirect, 64 KiB, 5 s, no private address; and the error page never tells why a fetch failed.
 */
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT = "https://rp.example.test/callback";

let server: RunningServer;
let rpServer: http.Server;
let rpBase: string;
/** Another server on 127.0.0.1 (another port, so another origin): it counts every request it gets. */
let otherServer: http.Server;
let otherBase: string;
const otherHits: string[] = [];
let as: oauth.AuthorizationServer;
/** What the relying party's server answers at /ro/{name}. */
const served = new Map<string, (res: http.ServerResponse) => void>();

beforeAll(async () => {
  server = await startServer({ name: "jar-ref", databaseUrl: inject("databaseUrl"), env: { ALLOW_LOOPBACK_CLIENT_URLS: "true" } });
  rpServer = http.createServer((req, res) => {
    const answer = served.get(req.url ?? "");
    if (answer) answer(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => rpServer.listen(0, "127.0.0.1", r));
  rpBase = `http://127.0.0.1:${(rpServer.address() as AddressInfo).port}`;
  otherServer = http.createServer((req, res) => {
    otherHits.push(req.url ?? "");
    const answer = served.get(req.url ?? "");
    if (answer) answer(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => otherServer.listen(0, "127.0.0.1", r));
  otherBase = `http://127.0.0.1:${(otherServer.address() as AddressInfo).port}`;
  const issuer = new URL(server.baseUrl);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((r) => (rpServer ? rpServer.close(() => r()) : r()));
  await new Promise<void>((r) => (otherServer ? otherServer.close(() => r()) : r()));
});

/** The generic refusal (no fetch detail); the page escapes the apostrophes of the rest. */
const REFUSED = "The request_uri could not be used: it must be an https URL on the origin (scheme, host and port)";

/** A client with one key; its redirect URIs: REDIRECT, the relying party's server's /cb, and `extra`. */
async function keyClient(extra: string[] = []) {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const name = `JarRef${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`;
  const { client, clientSecret } = await createClient({ name, redirectUris: [REDIRECT, `${rpBase}/cb`, ...extra],
    sectorIdentifier: "rp.example.test",
    scopes: [...SUPPORTED_SCOPES], jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" }] } });
  return { id: client.id, c: { client_id: client.id } as oauth.Client, auth: oauth.ClientSecretBasic(clientSecret!),
    key: { key: privateKey, kid: "k1" } as oauth.PrivateKey };
}

/** Serves `answer` at a fresh path of the relying party's server (or of `base`); returns its URL. */
function serve(answer: (res: http.ServerResponse) => void, base = rpBase) {
  const path = `/ro/${randomToken(8)}`;
  served.set(path, answer);
  return `${base}${path}`;
}

const authorizeAt = (clientId: string, requestUri: string) =>
  fetch(`${server.baseUrl}/authorize?${new URLSearchParams({ client_id: clientId, request_uri: requestUri })}`,
    { redirect: "manual" });

describe("request_uri by reference", () => {
  it("oauth4webapi's request object, served by the relying party, completes the flow", async () => {
    const rp = await keyClient();
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const parameters = new URLSearchParams({ redirect_uri: REDIRECT, response_type: "code", scope: "openid", state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" });
    const jwt = await oauth.issueRequestObject(as, rp.c, parameters, rp.key);
    const requestUri = serve((res) => res.writeHead(200, { "content-type": "application/oauth-authz-req+jwt" }).end(jwt));
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set("client_id", rp.id);
    url.searchParams.set("request_uri", requestUri);
    const subscriber = await createTestSubscriber();
    const { callbackUrl } = await signInAndConsent({ authorizationUrl: url.href, msisdn: subscriber.msisdn, pin: subscriber.pin });
    const params = oauth.validateAuthResponse(as, rp.c, callbackUrl, state);
    const result = await oauth.processAuthorizationCodeResponse(as, rp.c,
      await oauth.authorizationCodeGrantRequest(as, rp.c, rp.auth, params, REDIRECT, verifier, insecure));
    expect(oauth.getValidatedIdTokenClaims(result)).toMatchObject({ iss: server.baseUrl, aud: rp.id });
  });

  // The page says the rule only, never why the fetch failed (that is logged): no oracle for what is behind.
  it.each([
    ["a redirect", (res: http.ServerResponse) => res.writeHead(302, { location: "https://rp.example.test/ro" }).end(), "redirects are not followed"],
    ["a body over 64 KiB", (res: http.ServerResponse) => res.end("x".repeat(65 * 1024)), "larger than"],
    ["a 404", (res: http.ServerResponse) => res.writeHead(404).end(), "HTTP 404"],
  ])("%s: invalid_request_uri on the error page, with the rule and no fetch detail", async (_name, answer, detail) => {
    const rp = await keyClient();
    const html = await expectErrorPage(await authorizeAt(rp.id, serve(answer)));
    expect(html).toContain("invalid_request_uri");
    expect(html).toContain(REFUSED);
    expect(html).not.toContain(detail);
  });

  it("a request_uri on another origin (here: another port of the same host) is refused without any fetch", async () => {
    const rp = await keyClient();
    const requestUri = serve((res) => res.end("never fetched"), otherBase);
    const html = await expectErrorPage(await authorizeAt(rp.id, requestUri));
    expect(html).toContain("invalid_request_uri");
    expect(html).toContain(REFUSED);
    // Nor anywhere else: an unresolvable name and an unused port answer the very same page, unfetched.
    for (const elsewhere of ["https://no-such-host.invalid/ro", "https://rp.example.test:8443/ro", `${rpBase}0/ro`]) {
      const page = await expectErrorPage(await authorizeAt(rp.id, elsewhere));
      expect(page).toContain(REFUSED);
      expect(page).not.toMatch(/resolve|private|ECONN|HTTP \d/);
    }
    expect(otherHits).not.toContain(new URL(requestUri).pathname);
  });

  it("the origin of the client's jwks_uri is allowed too", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" }] });
    const jwksUri = serve((res) => res.writeHead(200, { "content-type": "application/json" }).end(jwks), otherBase);
    const name = `JarRefJ${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`;
    const { client } = await createClient({ name, redirectUris: [REDIRECT], scopes: [...SUPPORTED_SCOPES], jwksUri });
    const c = { client_id: client.id } as oauth.Client;
    const parameters = new URLSearchParams({ redirect_uri: REDIRECT, response_type: "code", scope: "openid",
      state: oauth.generateRandomState(), code_challenge_method: "S256",
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()) });
    const jwt = await oauth.issueRequestObject(as, c, parameters, { key: privateKey, kid: "k1" });
    const requestUri = serve((res) => res.end(jwt), otherBase);
    const res = await authorizeAt(client.id, requestUri);
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).pathname).toMatch(/^\/interaction\/[A-Za-z0-9_-]{22}$/);
    expect(otherHits).toContain(new URL(requestUri).pathname);
  });

  it("an answer slower than 5 s: invalid_request_uri", async () => {
    const rp = await keyClient();
    const started = Date.now();
    const html = await expectErrorPage(await authorizeAt(rp.id, serve((res) => setTimeout(() => res.end("late"), 7_000))));
    expect(html).toContain("invalid_request_uri");
    expect(Date.now() - started).toBeLessThan(6_500);
  }, 20_000);

  it("something that is not a request object: invalid_request_object", async () => {
    const rp = await keyClient();
    const html = await expectErrorPage(await authorizeAt(rp.id, serve((res) => res.end("<html>hello</html>"))));
    expect(html).toContain("invalid_request_object");
  });

  it("private addresses other than loopback stay refused with the flag, even on a registered origin", async () => {
    const rp = await keyClient(["https://192.168.0.10/cb"]);
    expect(await expectErrorPage(await authorizeAt(rp.id, "https://192.168.0.10/ro"))).toContain("invalid_request_uri");
    expect(await expectErrorPage(await authorizeAt(rp.id, "http://10.0.0.1/ro"))).toContain("invalid_request_uri");
  });
});
