import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "@/test/support/server";
import { config } from "@/lib/config";
import { db } from "@/lib/db";

/**
 * The check_session_iframe's `frame-ancestors` is built from stored redirect URIs (lib/http/csp-sources.ts). A row
 * written before the registration rules refused odd hosts (here inserted straight into the database, as legacy data)
 * must not reach the header: `https://0;sandbox/cb` copied verbatim would add a `sandbox` directive and stop session
 * management for every relying party. On a server of its own, so the 30 s origin cache starts empty.
 */
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ name: "check-session-csp" });
  process.env.DATABASE_URL = server.databaseUrl;
  expect(config().DATABASE_URL).toBe(server.databaseUrl);
  for (const [name, uris] of [
    ["LegacyInjected", ["https://0;sandbox/cb", "https://a,b.example.test/cb", "https://legacy.example.test/cb"]],
    ["LegacyPlain", ["https://plain.example.test:8443/cb"]],
  ] as const) {
    await db.client.create({ data: { id: `legacy-${randomUUID()}`, name, redirectUris: JSON.stringify(uris),
      allowedScopes: "openid", sectorIdentifier: "legacy.example.test", isPublic: true } });
  }
}, 120_000);
afterAll(() => server?.stop());

describe("check_session_iframe with a malformed stored redirect URI", () => {
  it("leaves the malformed origins out of frame-ancestors and keeps the policy's directives intact", async () => {
    const res = await fetch(`${server.baseUrl}/logout/check-session`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    const directives = csp.split(";").map((d) => d.trim().split(" ")[0]);
    expect(directives).toEqual(["default-src", "script-src", "frame-ancestors", "base-uri", "form-action"]);
    expect(/frame-ancestors ([^;]+)/.exec(csp)![1]!.split(" "))
      .toEqual(["https://legacy.example.test", "https://plain.example.test:8443"]);
    expect(csp).not.toMatch(/sandbox|a,b/);
  });
});
