import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchClientDocument, isAllowedAddress } from "./fetch-client-document";

const fetchRemoteText = async (url: string, limits: { allowLoopback?: boolean; maxBytes?: number; timeoutMs?: number } = {}) =>
  (await fetchClientDocument(url, { allowLoopback: false, ...limits })).body;

describe("isAllowedAddress (SSRF)", () => {
  it.each(["10.0.0.1", "172.16.5.4", "192.168.1.1", "127.0.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
    "224.0.0.1", "255.255.255.255", "::1", "::", "fd00::1", "fe80::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1",
    "64:ff9b::a00:1", "2001:db8::1", "::ffff:8.8.8.8", "not-an-address",
    // IPv4-compatible (::/96) and IPv4-translated (::ffff:0:0/96) forms of private and loopback addresses
    "::10.0.0.1", "::127.0.0.1", "::a9fe:a9fe", "::ffff:0:10.0.0.1", "::ffff:0:127.0.0.1", "::ffff:0:a9fe:a9fe",
    // NAT64 with an embedded private address (RFC 6052 well-known and local-use prefixes), and other special IPv6
    "64:ff9b::10.0.0.1", "64:ff9b::169.254.169.254", "64:ff9b:1::a00:1", "100::1", "2001::1", "2001:10::1",
    "2002:a00:1::1", "3fff::1", "ff02::1", "fec0::1", "fe80::1%eth0", "4000::1", "::8.8.8.8"])("refuses %s", (address) => {
    expect(isAllowedAddress(address)).toBe(false);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700::1111", "2a00:1450:4009:81f::200e", "2001:4860:4860::8888"])("allows %s", (address) => {
    expect(isAllowedAddress(address)).toBe(true);
  });

  it("allows loopback only when asked, and nothing else private then", () => {
    expect(isAllowedAddress("127.0.0.1", true)).toBe(true);
    expect(isAllowedAddress("::1", true)).toBe(true);
    expect(isAllowedAddress("10.0.0.1", true)).toBe(false);
    expect(isAllowedAddress("169.254.169.254", true)).toBe(false);
  });
});

describe("fetchClientDocument (jwks_uri, request_uri)", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/ok") return res.end("a.b.c");
      if (req.url === "/big") return res.end("x".repeat(70 * 1024));
      if (req.url === "/chunked-big") {
        res.write("x".repeat(40 * 1024));
        return setTimeout(() => res.end("x".repeat(40 * 1024)), 10);
      }
      if (req.url === "/redirect") return res.writeHead(302, { location: "/ok" }).end();
      if (req.url === "/slow") return setTimeout(() => res.end("late"), 2_000);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("reads a loopback URL over http only when loopback is allowed", async () => {
    await expect(fetchRemoteText(`${base}/ok`, { allowLoopback: true })).resolves.toBe("a.b.c");
    await expect(fetchRemoteText(`${base}/ok`)).rejects.toThrow(/https/);
    await expect(fetchRemoteText(`${base.replace("http:", "https:")}/ok`)).rejects.toThrow(/private, loopback or reserved/);
  });

  it("refuses a localhost name unless loopback is allowed (checked in the connection's own lookup)", async () => {
    const port = (server.address() as AddressInfo).port;
    await expect(fetchRemoteText(`https://localhost:${port}/ok`)).rejects.toThrow(/private, loopback or reserved/);
    await expect(fetchRemoteText(`http://localhost:${port}/ok`, { allowLoopback: true })).resolves.toBe("a.b.c");
  });

  it("refuses bodies over the limit (declared or streamed), redirects, and slow answers", async () => {
    await expect(fetchRemoteText(`${base}/big`, { allowLoopback: true })).rejects.toThrow(/larger than 64 KiB/);
    await expect(fetchRemoteText(`${base}/chunked-big`, { allowLoopback: true, maxBytes: 50 * 1024 }))
      .rejects.toThrow(/larger than/);
    await expect(fetchRemoteText(`${base}/redirect`, { allowLoopback: true })).rejects.toThrow(/redirects are not followed/);
    await expect(fetchRemoteText(`${base}/slow`, { allowLoopback: true, timeoutMs: 300 })).rejects.toThrow(/did not answer in time/);
  });

  it("refuses URLs with credentials or that do not parse", async () => {
    await expect(fetchRemoteText("https://user:pw@rp.example.test/x")).rejects.toThrow(/credentials/);
    await expect(fetchRemoteText("not a url")).rejects.toThrow(/not valid/);
  });
});
