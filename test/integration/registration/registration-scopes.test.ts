import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startServer, type RunningServer } from "@/test/support/server";
import { parseConfig } from "@/lib/config";
import { SUPPORTED_SCOPES } from "@/lib/oauth/scopes";

/**
 * The operator's allow-list of registrable scopes (REGISTRATION_SCOPES, docs/registration.md and
 * docs/configuration.md): its parsing, and a server of its own whose operator lists the national identifier
 * (and leaves email out), with open registration so no initial access token is needed.
 */
let server: RunningServer;
let baseUrl = "";
vi.setConfig({ testTimeout: 60_000 });

const LISTED = "openid mc_identity_nationalid mc_identity_phonenumber";
const RP = "https://rp.example.test";

beforeAll(async () => {
  server = await startServer({ name: "registration-scopes", env: {
    REGISTRATION_OPEN: "true", REGISTRATION_SCOPES: `  ${LISTED.replaceAll(" ", "   ")} `, REGISTRATION_LIMIT_PER_IP: "1000",
  } });
  baseUrl = server.baseUrl;
}, 120_000);
afterAll(() => server?.stop());

type Json = Record<string, unknown>;

async function send(method: string, url: string, body: Json, token?: string) {
  const res = await fetch(url, { method, body: JSON.stringify(body),
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return { status: res.status, body: (await res.json()) as Json };
}

const register = (extra: Json = {}) => send("POST", `${baseUrl}/register`, { redirect_uris: [`${RP}/cb`], ...extra });

describe("REGISTRATION_SCOPES: parsing at start-up", () => {
  const SECRETS = { KEY_ENCRYPTION_SECRET: "k".repeat(32), SUBJECT_SECRET: "s".repeat(32) };
  const failure = (value: string) => {
    try {
      parseConfig({ ...SECRETS, REGISTRATION_SCOPES: value });
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error("parseConfig accepted a bad REGISTRATION_SCOPES");
  };

  it("defaults to every supported scope but the national identifier", () => {
    expect(parseConfig(SECRETS).REGISTRATION_SCOPES).toEqual(SUPPORTED_SCOPES.filter((s) => s !== "mc_identity_nationalid"));
  });

  it("reads a space-separated list, duplicates and extra spaces ignored", () => {
    expect(parseConfig({ ...SECRETS, REGISTRATION_SCOPES: " openid  mc_identity_nationalid openid " }).REGISTRATION_SCOPES)
      .toEqual(["openid", "mc_identity_nationalid"]);
  });

  it("refuses an unsupported scope and a list without openid, naming the variable", () => {
    expect(failure("openid admin")).toMatch(/^Invalid configuration: REGISTRATION_SCOPES must list supported scopes only \(unknown: admin/);
    expect(failure("openid,email")).toMatch(/REGISTRATION_SCOPES .*unknown: openid,email/);
    expect(failure("email phone")).toMatch(/REGISTRATION_SCOPES must include openid/);
  });
});

describe("a server whose operator lists the national identifier (and not email)", () => {
  it("registers a client with mc_identity_nationalid", async () => {
    const r = await register({ scope: "openid mc_identity_nationalid" });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.scope).toBe("openid mc_identity_nationalid");
  });

  it("refuses a supported scope the operator did not list, at POST and at PUT, naming it", async () => {
    const refused = await register({ scope: "openid email mc_identity_phonenumber" });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: "invalid_client_metadata",
      error_description: `scope email cannot be registered on this server (allowed: ${LISTED})` });

    const c = await register({ scope: "openid mc_identity_phonenumber" });
    expect(c.status).toBe(201);
    const uri = c.body.registration_client_uri as string;
    const token = c.body.registration_access_token as string;
    const put = (scope: string) => send("PUT", uri, { client_id: c.body.client_id, redirect_uris: [`${RP}/cb`], scope }, token);
    expect(await put("openid profile email")).toMatchObject({ status: 400, body: { error: "invalid_client_metadata",
      error_description: expect.stringMatching(/^scope profile, email cannot be registered/) } });
    expect(await put("openid mc_identity_nationalid")).toMatchObject({ status: 200,
      body: { scope: "openid mc_identity_nationalid" } });
  });

  it("gives a registration without scope openid alone", async () => {
    const r = await register();
    expect(r.status).toBe(201);
    expect(r.body.scope).toBe("openid");
  });
});
