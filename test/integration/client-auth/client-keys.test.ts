import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getClient } from "@/lib/clients/get-client";
import { verifyClientJwt } from "@/lib/clients/verify-client-jwt";
import { cacheLifetimeMs, JWKS_CACHE } from "@/lib/clients/client-keys";
import { fetchClientDocument, isPublicAddress } from "@/lib/clients/fetch-client-document";
import { assertion, registerKeyClient, startJwksServer, testKey } from "./support";

// This worker fetches from 127.0.0.1 like a development instance (read by lib/config.ts on first use).
process.env.ALLOW_LOOPBACK_CLIENT_URLS = "true";

let jwks: Awaited<ReturnType<typeof startJwksServer>>;
beforeAll(async () => {
  jwks = await startJwksServer();
});
afterAll(async () => {
  vi.useRealTimers();
  await jwks?.close();
});

const rules = { audience: "https://op.test/" };

describe("jwks_uri cache (lib/clients/client-keys.ts)", () => {
  it("refetches once on an unknown kid after the cooldown, and again when the cached set expires", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const a = await testKey("ES256");
      const b = await testKey("PS256");
      jwks.state.keys = [a.jwk];
      jwks.state.cacheControl = "public, max-age=5"; // below the minimum: held 60 s
      const rp = (await getClient({ clientId: (await registerKeyClient({ jwksUri: `${jwks.base}/jwks/unit` })).id }))!;
      await verifyClientJwt(rp, await assertion(a, rp.id, rules.audience), rules);
      expect(jwks.hits("/jwks/unit")).toBe(1);

      // The client rotates to b: within the cooldown an unknown kid is refused without a fetch...
      jwks.state.keys = [a.jwk, b.jwk];
      await expect(verifyClientJwt(rp, await assertion(b, rp.id, rules.audience), rules)).rejects.toThrow(/no registered key/);
      expect(jwks.hits("/jwks/unit")).toBe(1);
      // ...after it, the unknown kid causes one fetch, and b verifies.
      vi.setSystemTime(Date.now() + 31_000);
      await verifyClientJwt(rp, await assertion(b, rp.id, rules.audience), rules);
      expect(jwks.hits("/jwks/unit")).toBe(2);
      // Unknown kids right after that fetch: no fetch.
      await expect(verifyClientJwt(rp, await assertion({ ...b, kid: "nope" }, rp.id, rules.audience), rules)).rejects
        .toThrow(/no registered key/);
      expect(jwks.hits("/jwks/unit")).toBe(2);
      // max-age=5 was held for the 60 s minimum: still cached at +59 s, fetched again after.
      vi.setSystemTime(Date.now() + 59_000);
      await verifyClientJwt(rp, await assertion(a, rp.id, rules.audience), rules);
      expect(jwks.hits("/jwks/unit")).toBe(2);
      vi.setSystemTime(Date.now() + 2_000);
      await verifyClientJwt(rp, await assertion(a, rp.id, rules.audience), rules);
      expect(jwks.hits("/jwks/unit")).toBe(3);
    } finally {
      vi.useRealTimers();
      jwks.state.cacheControl = "max-age=600";
    }
  });

  it("concurrent first uses share one fetch", async () => {
    const a = await testKey("ES256");
    jwks.state.keys = [a.jwk];
    const rp = (await getClient({ clientId: (await registerKeyClient({ jwksUri: `${jwks.base}/jwks/shared` })).id }))!;
    await Promise.all(Array.from({ length: 10 }, async () =>
      verifyClientJwt(rp, await assertion(a, rp.id, rules.audience), rules)));
    expect(jwks.hits("/jwks/shared")).toBe(1);
  });

  it("honours Cache-Control max-age and Expires within 60 s .. 24 h (default 10 min)", () => {
    const none = { cacheControl: null, expires: null, date: null };
    expect(cacheLifetimeMs(none)).toBe(JWKS_CACHE.defaultMs);
    expect(cacheLifetimeMs({ ...none, cacheControl: "public, max-age=3600" })).toBe(3_600_000);
    expect(cacheLifetimeMs({ ...none, cacheControl: "max-age=1" })).toBe(60_000);
    expect(cacheLifetimeMs({ ...none, cacheControl: "no-store" })).toBe(60_000);
    expect(cacheLifetimeMs({ ...none, cacheControl: "max-age=31536000" })).toBe(24 * 3_600_000);
    const date = "Wed, 25 Nov 2026 12:00:00 GMT";
    expect(cacheLifetimeMs({ ...none, date, expires: "Wed, 25 Nov 2026 12:30:00 GMT" })).toBe(1_800_000);
    expect(cacheLifetimeMs({ ...none, date, expires: "0" })).toBe(60_000);
    // max-age wins over Expires (RFC 9111 §5.3).
    expect(cacheLifetimeMs({ cacheControl: "max-age=120", date, expires: "Wed, 25 Nov 2026 12:30:00 GMT" })).toBe(120_000);
  });
});

describe("fetching a client's URL (lib/clients/fetch-client-document.ts)", () => {
  it("classifies addresses: only public ones are fetched without the development flag", () => {
    for (const a of ["10.0.0.1", "127.0.0.1", "169.254.169.254", "172.16.5.4", "192.168.1.1", "100.64.0.1", "0.0.0.0",
      "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "224.0.0.1", "not-an-ip"]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001::200e"]) expect(isPublicAddress(a), a).toBe(true);
  });

  it("stops reading a body without Content-Length at the size limit", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }); // chunked: no Content-Length
      const chunk = "x".repeat(16 * 1024);
      let sent = 0;
      const write = () => {
        while (sent < 64 && res.write(chunk)) sent++;
        if (sent < 64) res.once("drain", write);
        else res.end();
      };
      write();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      await expect(fetchClientDocument(url)).rejects.toThrow(/larger than 64 KiB/);
      await expect(fetchClientDocument(url.replace("http:", "ftp:"))).rejects.toThrow(/https/);
      await expect(fetchClientDocument(url.replace("127.0.0.1", "user:pw@127.0.0.1"))).rejects.toThrow(/credentials/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
