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
 * (over http: loopback only). The limits hold there too: no redirect, 64 KiB, 5 s, no private address.
 */
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT = "https://rp.example.test/callback";

let server: RunningServer;
let rpServer: http.Server;
let rpBase: string;
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
  const issuer = new URL(server.baseUrl);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((r) => (rpServer ? rpServer.close(() => r()) : r()));
});

async function keyClient() {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const name = `JarRef${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`;
  const { client, clientSecret } = await createClient({ name, redirectUris: [REDIRECT], scopes: [...SUPPORTED_SCOPES],
    jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" }] } });
  return { id: client.id, c: { client_id: client.id } as oauth.Client, auth: oauth.ClientSecretBasic(clientSecret!),
    key: { key: privateKey, kid: "k1" } as oauth.PrivateKey };
}

/** Serves `answer` at a fresh path of the relying party's server; returns its URL. */
function serve(answer: (res: http.ServerResponse) => void) {
  const path = `/ro/${randomToken(8)}`;
  served.set(path, answer);
  return `${rpBase}${path}`;
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

  it.each([
    ["a redirect", (res: http.ServerResponse) => res.writeHead(302, { location: "https://rp.example.test/ro" }).end(), "redirects are not followed"],
    ["a body over 64 KiB", (res: http.ServerResponse) => res.end("x".repeat(65 * 1024)), "larger than"],
    ["a 404", (res: http.ServerResponse) => res.writeHead(404).end(), "404"],
  ])("%s: invalid_request_uri on the error page", async (_name, answer, words) => {
    const rp = await keyClient();
    const html = await expectErrorPage(await authorizeAt(rp.id, serve(answer)));
    expect(html).toContain("invalid_request_uri");
    expect(html).toContain(words);
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

  it("private addresses other than loopback stay refused with the flag", async () => {
    const rp = await keyClient();
    expect(await expectErrorPage(await authorizeAt(rp.id, "https://192.168.0.10/ro"))).toContain("invalid_request_uri");
    expect(await expectErrorPage(await authorizeAt(rp.id, "http://10.0.0.1/ro"))).toContain("invalid_request_uri");
  });
});
