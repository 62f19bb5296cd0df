import { describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { addressMatcher } from "./address-ranges";
import { clientIp, forwardedClientAddress } from "./client-ip";

const h = (xff?: string) => new Headers(xff === undefined ? {} : { "x-forwarded-for": xff });
const base = { KEY_ENCRYPTION_SECRET: "k".repeat(32), SUBJECT_SECRET: "s".repeat(32) };
const proxies = (list: string) => addressMatcher(parseConfig({ ...base, TRUSTED_PROXY: list }).TRUSTED_PROXY);

describe("clientIp", () => {
  it("reads the address the server resolved (the only, else the rightmost, X-Forwarded-For entry)", () => {
    expect(clientIp(h("192.0.2.1"))).toBe("192.0.2.1");
    expect(clientIp(h("::ffff:127.0.0.1"))).toBe("127.0.0.1");
    expect(clientIp(h("2001:db8::1"))).toBe("2001:db8::1");
    expect(clientIp(h("6.6.6.6, 198.51.100.7"))).toBe("198.51.100.7");
  });

  it("answers 'unknown' for a missing or malformed header", () => {
    expect(clientIp(h())).toBe("unknown");
    expect(clientIp(h("<script>"))).toBe("unknown");
    expect(clientIp(h("a".repeat(100)))).toBe("unknown");
  });
});

describe("forwardedClientAddress", () => {
  const trusted = proxies("127.0.0.1, 10.0.0.0/24, ::1");

  it("takes a peer that is not a configured proxy as the client, whatever X-Forwarded-For it wrote", () => {
    expect(forwardedClientAddress("203.0.113.9", "198.18.0.9", trusted)).toBe("203.0.113.9");
    expect(forwardedClientAddress("127.0.0.2", "198.18.0.9", trusted)).toBe("127.0.0.2");
    expect(forwardedClientAddress("::ffff:203.0.113.9", "198.18.0.9", trusted)).toBe("203.0.113.9");
    expect(forwardedClientAddress("203.0.113.9", "198.18.0.9", proxies("false"))).toBe("203.0.113.9");
  });

  it("from a proxy, walks X-Forwarded-For from the right past the configured proxies to the first other address", () => {
    expect(forwardedClientAddress("127.0.0.1", "198.18.0.9", trusted)).toBe("198.18.0.9");
    expect(forwardedClientAddress("::ffff:127.0.0.1", "198.18.0.9", trusted)).toBe("198.18.0.9");
    expect(forwardedClientAddress("::1", "2001:db8::7", trusted)).toBe("2001:db8::7");
    // Two proxies: nginx (127.0.0.1) behind a load balancer (10.0.0.5); what the client wrote further left is ignored.
    expect(forwardedClientAddress("127.0.0.1", "6.6.6.6, 198.18.0.9, 10.0.0.5", trusted)).toBe("198.18.0.9");
    expect(forwardedClientAddress("127.0.0.1", ["6.6.6.6", "198.18.0.9"], trusted)).toBe("198.18.0.9");
    // Proxies that add the client's port.
    expect(forwardedClientAddress("127.0.0.1", "198.18.0.9:4711", trusted)).toBe("198.18.0.9");
    expect(forwardedClientAddress("127.0.0.1", "[2001:db8::7]:4711, 10.0.0.5", trusted)).toBe("2001:db8::7");
  });

  it("from a proxy that sent no usable entry, stops at the last proxy reached", () => {
    expect(forwardedClientAddress("127.0.0.1", undefined, trusted)).toBe("127.0.0.1");
    expect(forwardedClientAddress("127.0.0.1", "", trusted)).toBe("127.0.0.1");
    expect(forwardedClientAddress("127.0.0.1", "<script>, 10.0.0.5", trusted)).toBe("10.0.0.5");
    expect(forwardedClientAddress("127.0.0.1", "10.0.0.5", trusted)).toBe("10.0.0.5");
    expect(forwardedClientAddress(undefined, "198.18.0.9", trusted)).toBeUndefined();
  });
});

describe("TRUSTED_PROXY", () => {
  it("is a list of addresses and CIDR ranges; false, 0 or unset: none", () => {
    expect(parseConfig(base).TRUSTED_PROXY).toEqual([]);
    expect(parseConfig({ ...base, TRUSTED_PROXY: "false" }).TRUSTED_PROXY).toEqual([]);
    expect(parseConfig({ ...base, TRUSTED_PROXY: "0" }).TRUSTED_PROXY).toEqual([]);
    expect(parseConfig({ ...base, TRUSTED_PROXY: "127.0.0.1, 10.0.0.0/8 ::1" }).TRUSTED_PROXY).toEqual([
      { address: "127.0.0.1", prefix: 32, family: "ipv4" }, { address: "10.0.0.0", prefix: 8, family: "ipv4" },
      { address: "::1", prefix: 128, family: "ipv6" }]);
  });

  it("refuses the former true and proxy counts at start-up, saying what to write instead", () => {
    for (const old of ["true", "1", "2"]) {
      expect(() => parseConfig({ ...base, TRUSTED_PROXY: old })).toThrow(/TRUSTED_PROXY is now the list of your reverse proxies' addresses/);
    }
    expect(() => parseConfig({ ...base, TRUSTED_PROXY: "yes" })).toThrow(/TRUSTED_PROXY must be a list of addresses or CIDR ranges/);
    expect(() => parseConfig({ ...base, TRUSTED_PROXY: "10.0.0.0/33" })).toThrow(/TRUSTED_PROXY/);
    expect(() => parseConfig({ ...base, OTP_SEND_LIMIT_PER_IP: "0" })).toThrow(/OTP_SEND_LIMIT_PER_IP/);
  });
});
