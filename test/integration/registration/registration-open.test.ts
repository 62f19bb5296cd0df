import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startServer, type RunningServer } from "@/test/support/server";
import { config } from "@/lib/config";
import { db } from "@/lib/db";

/**
 * The registration settings an operator may change (docs/registration.md, docs/configuration.md), on a
 * server of its own: open registration (REGISTRATION_OPEN=true), private addresses allowed for
 * development (ALLOW_LOOPBACK_CLIENT_URLS=true, so a sector_identifier_uri and logout URIs on
 * 127.0.0.1 are accepted and fetched), and a small per-address limit (TRUSTED_PROXY=127.0.0.1: each requester
 * speaks from its own X-Forwarded-For address).
 */
let server: RunningServer;
let baseUrl = "";
let files: http.Server;
let filesUrl = "";
let ipCounter = 0;
const newIp = () => `203.0.113.${++ipCounter}`;
vi.setConfig({ testTimeout: 60_000 });

const RP = "https://rp.example.test";
const OTHER = "https://app.example.test";

beforeAll(async () => {
  server = await startServer({ name: "registration-open", env: {
    REGISTRATION_OPEN: "true", ALLOW_LOOPBACK_CLIENT_URLS: "true", REGISTRATION_LIMIT_PER_IP: "5", TRUSTED_PROXY: "127.0.0.1",
  } });
  baseUrl = server.baseUrl;
  process.env.DATABASE_URL = server.databaseUrl;
  expect(config().DATABASE_URL).toBe(server.databaseUrl);
  // The relying party's own web server: its sector identifier file, and some hostile answers.
  files = http.createServer((req, res) => {
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(body);
    };
    switch (req.url) {
      case "/sector.json": return send(200, JSON.stringify([`${RP}/cb`, `${OTHER}/cb`, "https://third.example.test/cb"]));
      case "/partial.json": return send(200, JSON.stringify([`${RP}/cb`]));
      case "/sandbox.json": return send(200, JSON.stringify([`${RP}/cb`, "https://0;sandbox/cb"]));
      case "/object.json": return send(200, JSON.stringify({ redirect_uris: [`${RP}/cb`] }));
      case "/text": return send(200, "hello");
      case "/missing": return send(404, "{}");
      case "/redirect": return send(302, "", { location: `${filesUrl}/sector.json` });
      case "/huge": {
        res.writeHead(200, { "content-type": "application/json" });
        res.write("[");
        for (let i = 0; i < 200; i++) res.write(`${JSON.stringify("x".repeat(1000))},`);
        return res.end("\"y\"]");
      }
      case "/slow": return void setTimeout(() => send(200, "[]"), 8000);
      default: return send(404, "{}");
    }
  });
  await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  files?.closeAllConnections();
  files?.close();
  await server?.stop();
});

async function register(body: unknown, { ip = newIp(), token }: { ip?: string; token?: string } = {}) {
  const res = await fetch(`${baseUrl}/register`, {
    method: "POST", body: JSON.stringify(body),
    headers: { "content-type": "application/json", "x-forwarded-for": ip, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

describe("open registration (REGISTRATION_OPEN=true)", () => {
  it("registers a client without an initial access token", async () => {
    const r = await register({ redirect_uris: [`${RP}/cb`], client_name: `Open${Date.now()}` });
    expect(r.status).toBe(201);
    expect(r.body.client_secret).toBeTruthy();
    expect(await db.client.findUnique({ where: { id: r.body.client_id as string } })).toMatchObject({ registeredBy: "dynamic" });
  });

  it("still refuses a wrong initial access token (a token sent is a token checked)", async () => {
    const r = await register({ redirect_uris: [`${RP}/cb`] }, { token: "wrong" });
    expect(r).toMatchObject({ status: 401, body: { error: "invalid_token" } });
  });
});

describe("private addresses allowed (development): loopback logout URIs", () => {
  it("accepts back- and front-channel logout URIs on 127.0.0.1", async () => {
    const r = await register({ redirect_uris: ["http://127.0.0.1:4000/cb"], backchannel_logout_uri: "http://127.0.0.1:4000/bc",
      frontchannel_logout_uri: "http://localhost:4000/fc" });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ backchannel_logout_uri: "http://127.0.0.1:4000/bc", frontchannel_logout_uri: "http://localhost:4000/fc" });
  });
});

describe("sector_identifier_uri (OpenID Connect Registration §5): fetched with limits", () => {
  it("issue 33: a client of its own sector cannot take a shared one by PUT with a sector_identifier_uri", async () => {
    const c = await register({ redirect_uris: [`${RP}/cb`] });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const res = await fetch(c.body.registration_client_uri as string, { method: "PUT",
      body: JSON.stringify({ client_id: c.body.client_id, redirect_uris: [`${RP}/cb`], sector_identifier_uri: `${filesUrl}/sector.json` }),
      headers: { "content-type": "application/json", "x-forwarded-for": newIp(),
        authorization: `Bearer ${c.body.registration_access_token as string}` } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_client_metadata",
      error_description: expect.stringMatching(/pairwise sector cannot change \(this client has a sector of its own/) });
    expect((await db.client.findUniqueOrThrow({ where: { id: c.body.client_id as string } })).sectorIdentifier)
      .toBe(`client:${c.body.client_id as string}`);
  });

  it("accepts redirect URIs on several hosts listed at the sector_identifier_uri; its host is the sector", async () => {
    const uri = `${filesUrl}/sector.json`;
    const r = await register({ redirect_uris: [`${RP}/cb`, `${OTHER}/cb`], sector_identifier_uri: uri });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.sector_identifier_uri).toBe(uri);
    const row = await db.client.findUniqueOrThrow({ where: { id: r.body.client_id as string } });
    expect(row.sectorIdentifier).toBe(new URL(filesUrl).host);
  });

  it("refuses a redirect URI the file does not list (invalid_redirect_uri)", async () => {
    const r = await register({ redirect_uris: [`${RP}/cb`, `${OTHER}/cb`], sector_identifier_uri: `${filesUrl}/partial.json` });
    expect(r).toMatchObject({ status: 400, body: { error: "invalid_redirect_uri",
      error_description: `redirect URI ${OTHER}/cb is not listed at sector_identifier_uri` } });
  });

  it.each([
    ["an object instead of an array", "/object.json", /must answer a JSON array/],
    ["text", "/text", /must answer a JSON array/],
    ["a 404", "/missing", /could not be read: the URL answered HTTP 404/],
    ["a redirect (not followed)", "/redirect", /could not be read: the URL redirects; redirects are not followed/],
    ["a body over 50 KB", "/huge", /larger than 50 KiB/],
    ["an answer slower than 5 s", "/slow", /did not answer in time/],
  ])("refuses %s", async (_, path, description) => {
    const r = await register({ redirect_uris: [`${RP}/cb`], sector_identifier_uri: `${filesUrl}${path}` });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("invalid_client_metadata");
    expect(r.body.error_description).toMatch(description);
  });

  it("still requires https for a host that is not a loopback host", async () => {
    const r = await register({ redirect_uris: [`${RP}/cb`], sector_identifier_uri: "http://rp.example.test/sector.json" });
    expect(r).toMatchObject({ status: 400, body: { error: "invalid_client_metadata" } });
  });
});

describe("hosts of registered URIs: LDH DNS names or IP literals only (CSP injection, issue 33)", () => {
  const refusedWith = (r: { status: number; body: Record<string, unknown> }, error: string) => {
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.error).toBe(error);
    expect(r.body.error_description).toMatch(/must have a DNS host name \(letters, digits, hyphens and dots\) or an IP address/);
  };

  it("refuses https://0;sandbox/cb as a redirect URI, directly and listed at a sector_identifier_uri", async () => {
    refusedWith(await register({ redirect_uris: ["https://0;sandbox/cb"] }), "invalid_redirect_uri");
    refusedWith(await register({ redirect_uris: [`${RP}/cb`, "https://0;sandbox/cb"],
      sector_identifier_uri: `${filesUrl}/sandbox.json` }), "invalid_redirect_uri");
    // The sector document's own entries follow the rule, whichever redirect URIs are registered.
    refusedWith(await register({ redirect_uris: [`${RP}/cb`], sector_identifier_uri: `${filesUrl}/sandbox.json` }),
      "invalid_client_metadata");
    expect(await db.client.count({ where: { redirectUris: { contains: ";" } } })).toBe(0);
  });

  it.each([
    ["post_logout_redirect_uris", { post_logout_redirect_uris: ["https://0;sandbox/bye"] }],
    ["frontchannel_logout_uri", { frontchannel_logout_uri: "https://0;sandbox/fc" }],
    ["backchannel_logout_uri", { backchannel_logout_uri: "https://a_b.example.test/bc" }],
    ["jwks_uri", { jwks_uri: "https://x'y.example.test/jwks", token_endpoint_auth_method: "private_key_jwt" }],
    ["sector_identifier_uri", { sector_identifier_uri: "https://0;sandbox/sector.json" }],
  ])("refuses such a host in %s (invalid_client_metadata)", async (_, extra) => {
    refusedWith(await register({ redirect_uris: [`${RP}/cb`], ...extra }), "invalid_client_metadata");
  });
});

describe("the per-address limit (REGISTRATION_LIMIT_PER_IP)", () => {
  it("answers 429 with Retry-After after the limit, for that address only; refused requests count too", async () => {
    const ip = newIp();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await register(i % 2 ? {} : { redirect_uris: [`${RP}/cb`] }, { ip })).status);
    expect(statuses).toEqual([201, 400, 201, 400, 201]);
    const over = await register({ redirect_uris: [`${RP}/cb`] }, { ip });
    expect(over.status).toBe(429);
    expect(over.body.error_description).toMatch(/too many registration requests/);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    // The configuration endpoint shares the budget.
    const conf = await fetch(`${baseUrl}/register/any`, { headers: { "x-forwarded-for": ip, authorization: "Bearer x" } });
    expect(conf.status).toBe(429);
    expect((await register({ redirect_uris: [`${RP}/cb`] }, { ip: newIp() })).status).toBe(201);
  });
});
