import { describe, expect, inject, it } from "vitest";
import * as oauth from "oauth4webapi";
import { importJWK, jwtVerify, SignJWT } from "jose";
import { getActiveKey } from "@/lib/keys/key-store";

const baseUrl = inject("baseUrl");

describe("provider metadata", () => {
  it("passes oauth4webapi's discovery validation with issuer equal to ISSUER", async () => {
    const issuer = new URL(baseUrl);
    const res = await oauth.discoveryRequest(issuer, { algorithm: "oidc", [oauth.allowInsecureRequests]: true });
    const as = await oauth.processDiscoveryResponse(issuer, res);
    expect(as.issuer).toBe(baseUrl);
    expect(as.scopes_supported).toContain("openid");
    expect(as.acr_values_supported).toEqual(["2", "3"]);
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    expect(as.subject_types_supported).toEqual(["pairwise"]);
  });

  it("carries the interface's extension keys", async () => {
    const m = await (await fetch(`${baseUrl}/.well-known/openid-configuration`)).json();
    expect(m.version).toBeTypeOf("string");
    expect(m.login_hint_methods_supported).toEqual(["MSISDN", "ENCR_MSISDN", "PCR"]);
    expect(m.service_version_supported).toContainEqual({ "openid mc_authn": "mc_v1.2" });
    expect(m.mobile_connect_version_supported).toEqual(m.service_version_supported);
    expect(m.mc_version).toContain("mc_v1.1");
    expect(m.id_token_signing_alg_values_supported).toContain("RS256");
  });

  it("advertises OpenID Connect CIBA and the server-initiated version (docs/ciba.md)", async () => {
    const m = await (await fetch(`${baseUrl}/.well-known/openid-configuration`)).json();
    expect(m.backchannel_authentication_endpoint).toBe(`${baseUrl}/bc-authorize`);
    expect(m.backchannel_token_delivery_modes_supported).toEqual(["poll", "ping", "push"]);
    expect(m.backchannel_authentication_request_signing_alg_values_supported).toEqual(["RS256", "PS256", "ES256"]);
    expect(m.backchannel_user_code_parameter_supported).toBe(true);
    expect(m.mc_version).toContain("mc_v2.0");
    expect(m.service_version_supported).toContainEqual({ "openid mc_authn": "mc_v2.0" });
    expect(m.service_version_supported).toContainEqual({ "openid mc_authn": "mc_v1.2" });
    expect(m.mobile_connect_version_supported).toEqual(m.service_version_supported);
    // oauth4webapi reads the same document as a CIBA-capable authorization server
    const issuer = new URL(baseUrl);
    const as = await oauth.processDiscoveryResponse(issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oidc", [oauth.allowInsecureRequests]: true }));
    expect(as.backchannel_authentication_endpoint).toBe(`${baseUrl}/bc-authorize`);
  });

  it("advertises no URL that does not answer", async () => {
    const m = await (await fetch(`${baseUrl}/.well-known/openid-configuration`)).json();
    const urls = Object.entries(m).filter(([k, v]) => typeof v === "string" && /(_endpoint|_uri|_documentation)$/.test(k));
    expect(urls.length).toBeGreaterThan(5);
    for (const [key, url] of urls) {
      const res = await fetch(url as string, { redirect: "manual" });
      expect(res.status, `${key} ${url}`).not.toBe(404);
      expect(res.status, `${key} ${url}`).toBeLessThan(500);
    }
  });
});

describe("JWKS", () => {
  it("publishes the active RS256 key with kid, alg and use, and verifies what it signs", async () => {
    const res = await fetch(`${baseUrl}/jwks`);
    expect(res.status).toBe(200);
    const { keys } = await res.json();
    const active = await getActiveKey("sig");
    const published = keys.find((k: { kid: string }) => k.kid === active.kid);
    expect(published).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
    expect(published.d).toBeUndefined();
    const jwt = await new SignJWT({ x: 1 }).setProtectedHeader({ alg: "RS256", kid: active.kid }).sign(active.privateKey);
    const { payload } = await jwtVerify(jwt, await importJWK(published, "RS256"));
    expect(payload.x).toBe(1);
    expect(keys.every((k: Record<string, unknown>) => !("d" in k || "p" in k))).toBe(true);
  });
});

describe("health", () => {
  it("answers ok when the database answers", async () => {
    const res = await fetch(`${baseUrl}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });
});
