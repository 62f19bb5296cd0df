import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { exportJWK, generateKeyPair } from "jose";
import { startServer, type RunningServer } from "@/test/support/server";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { CIBA_GRANT_TYPE } from "@/lib/ciba/ciba";

/**
 * Dynamic registration of CIBA clients (RFC 7591 / 7592 with CIBA Core §4, docs/ciba.md "Registration"): the four
 * backchannel fields and the CIBA grant type accepted, checked, stored, echoed by POST, GET and PUT; a notification
 * endpoint inside the operator's network refused like the logout and jwks URIs. A server of its own with open
 * registration and the production address rules (no loopback).
 */
let server: RunningServer;
let baseUrl = "";
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  server = await startServer({ name: "ciba-registration", env: { REGISTRATION_OPEN: "true", REGISTRATION_LIMIT_PER_IP: "100000" } });
  baseUrl = server.baseUrl;
  process.env.DATABASE_URL = server.databaseUrl;
  expect(config().DATABASE_URL).toBe(server.databaseUrl);
}, 120_000);
afterAll(() => server?.stop());

type Json = Record<string, unknown>;
const RP = "https://rp.example.test";
const NOTIFY = `${RP}/ciba/notify`;
const ciba = (extra: Json = {}): Json => ({
  redirect_uris: [`${RP}/callback`], grant_types: ["authorization_code", CIBA_GRANT_TYPE],
  backchannel_token_delivery_mode: "poll", ...extra,
});

async function send(method: string, url: string, body?: Json, token?: string) {
  const res = await fetch(url, {
    method, ...(body ? { body: JSON.stringify(body) } : {}),
    headers: { ...(body ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Json };
}
const register = (body: Json) => send("POST", `${baseUrl}/register`, body);

async function refused(body: Json, description: RegExp) {
  const r = await register(body);
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.error).toBe("invalid_client_metadata");
  expect(r.body.error_description).toMatch(description);
}

describe("registering a CIBA client", () => {
  it("accepts poll mode with the grant and echoes the fields; the client row carries them", async () => {
    const r = await register(ciba({ backchannel_user_code_parameter: true }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.grant_types).toEqual(["authorization_code", CIBA_GRANT_TYPE]);
    expect(r.body.backchannel_token_delivery_mode).toBe("poll");
    expect(r.body.backchannel_user_code_parameter).toBe(true);
    expect(r.body.backchannel_client_notification_endpoint).toBeUndefined();
    const row = await db.client.findUniqueOrThrow({ where: { id: r.body.client_id as string } });
    expect(row).toMatchObject({ backchannelTokenDeliveryMode: "poll", backchannelUserCodeParameter: true,
      grantTypes: `authorization_code ${CIBA_GRANT_TYPE}` });
  });

  it("accepts ping and push with an https notification endpoint", async () => {
    for (const mode of ["ping", "push"]) {
      const r = await register(ciba({ backchannel_token_delivery_mode: mode, backchannel_client_notification_endpoint: NOTIFY }));
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body).toMatchObject({ backchannel_token_delivery_mode: mode, backchannel_client_notification_endpoint: NOTIFY,
        backchannel_user_code_parameter: false });
    }
  });

  it("accepts signed authentication requests with the client's keys", async () => {
    const { publicKey } = await generateKeyPair("PS256");
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "PS256", use: "sig" }] };
    const r = await register(ciba({ jwks, backchannel_authentication_request_signing_alg: "PS256" }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.backchannel_authentication_request_signing_alg).toBe("PS256");
  });

  it("says nothing of CIBA for a client without the grant", async () => {
    const r = await register({ redirect_uris: [`${RP}/callback`] });
    expect(r.status).toBe(201);
    expect(r.body.backchannel_token_delivery_mode).toBeUndefined();
  });

  it("refuses what CIBA Core §4 and our rules refuse", async () => {
    await refused(ciba({ backchannel_token_delivery_mode: undefined }), /backchannel_token_delivery_mode is required/);
    await refused(ciba({ backchannel_token_delivery_mode: "pull" }), /delivery mode must be one of poll, ping, push/);
    await refused(ciba({ backchannel_token_delivery_mode: "ping" }), /ping mode needs a backchannel client notification endpoint/);
    await refused(ciba({ backchannel_token_delivery_mode: "push" }), /push mode needs/);
    await refused(ciba({ backchannel_token_delivery_mode: "ping", backchannel_client_notification_endpoint: "http://rp.example.test/n" }),
      /must use https/);
    await refused(ciba({ backchannel_token_delivery_mode: "ping", backchannel_client_notification_endpoint: `${NOTIFY}#x` }),
      /fragment/);
    await refused(ciba({ backchannel_token_delivery_mode: "ping", backchannel_client_notification_endpoint: "notify" }),
      /not an absolute URI/);
    await refused(ciba({ backchannel_authentication_request_signing_alg: "HS256" }), /signing alg must be one of RS256, PS256, ES256/);
    await refused(ciba({ backchannel_authentication_request_signing_alg: "none" }), /signing alg must be one of/);
    await refused(ciba({ backchannel_authentication_request_signing_alg: "RS256" }), /need the client's public keys/);
    await refused(ciba({ backchannel_user_code_parameter: "yes" }), /backchannel_user_code_parameter must be true or false/);
    await refused(ciba({ backchannel_token_delivery_mode: 1 }), /must be a string/);
    await refused(ciba({ token_endpoint_auth_method: "none" }), /needs a confidential client/);
  });

  it("keeps client_credentials and JWT bearer operator-only", async () => {
    await refused(ciba({ grant_types: ["authorization_code", "client_credentials"] }), /cannot be registered/);
    await refused(ciba({ grant_types: ["authorization_code", "urn:ietf:params:oauth:grant-type:jwt-bearer"] }), /cannot be registered/);
  });

  const internal = ["https://127.0.0.1/notify", "https://10.0.0.5/notify", "https://169.254.169.254/latest/meta-data",
    "https://192.168.1.1/n", "https://[::1]/n", "https://[fd00::1]/n", "https://localhost/n", "https://metadata.internal/n"];
  it.each(internal)("refuses the internal notification endpoint %s (SSRF)", async (uri) => {
    await refused(ciba({ backchannel_token_delivery_mode: "ping", backchannel_client_notification_endpoint: uri }),
      /backchannel_client_notification_endpoint .* loopback, private or reserved address/);
  });
});

describe("RFC 7592: reading and replacing a CIBA registration", () => {
  it("echoes the fields on GET, replaces them on PUT, and refuses an internal endpoint on PUT", async () => {
    const created = await register(ciba({ backchannel_token_delivery_mode: "ping", backchannel_client_notification_endpoint: NOTIFY }));
    expect(created.status).toBe(201);
    const uri = created.body.registration_client_uri as string;
    const token = created.body.registration_access_token as string;
    const read = await send("GET", uri, undefined, token);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ backchannel_token_delivery_mode: "ping", backchannel_client_notification_endpoint: NOTIFY,
      grant_types: ["authorization_code", CIBA_GRANT_TYPE] });

    const put = (extra: Json) => send("PUT", uri, { ...ciba(extra), client_id: created.body.client_id }, token);
    const pushed = await put({ backchannel_token_delivery_mode: "push", backchannel_client_notification_endpoint: `${RP}/push`,
      backchannel_user_code_parameter: true });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
    expect(pushed.body).toMatchObject({ backchannel_token_delivery_mode: "push",
      backchannel_client_notification_endpoint: `${RP}/push`, backchannel_user_code_parameter: true });

    const bad = await put({ backchannel_token_delivery_mode: "ping", backchannel_client_notification_endpoint: "https://10.9.9.9/n" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_client_metadata");

    // A replacement without the fields clears them (RFC 7592 §2.2); the grant goes with them.
    const plain = await send("PUT", uri, { client_id: created.body.client_id, redirect_uris: [`${RP}/callback`] }, token);
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body.grant_types).toEqual(["authorization_code"]);
    expect(plain.body.backchannel_token_delivery_mode).toBeUndefined();
    const row = await db.client.findUniqueOrThrow({ where: { id: created.body.client_id as string } });
    expect(row.backchannelClientNotificationEndpoint).toBeNull();
  });
});
