import { describe, expect, it } from "vitest";
import { fromHexAddress, parseCidr, parsePortRange, toHexAddress } from "./address";
import { parseLoginHint } from "../oauth/hints/parse-login-hint";

describe("network addresses", () => {
  it("stores IPv4 as its IPv4-mapped IPv6 form, the same as the mapped literal", () => {
    expect(toHexAddress("10.64.0.1")).toBe("00000000000000000000ffff0a400001");
    expect(toHexAddress("::ffff:10.64.0.1")).toBe("00000000000000000000ffff0a400001");
    expect(toHexAddress("::FFFF:0a40:0001")).toBe("00000000000000000000ffff0a400001");
  });

  it("expands IPv6 (compressed, full, embedded IPv4, upper case)", () => {
    expect(toHexAddress("2001:db8::1")).toBe("20010db8000000000000000000000001");
    expect(toHexAddress("2001:DB8:0:0:0:0:0:1")).toBe("20010db8000000000000000000000001");
    expect(toHexAddress("::")).toBe("0".repeat(32));
    expect(toHexAddress("::1")).toBe("0".repeat(31) + "1");
    expect(toHexAddress("fe80::")).toBe("fe80" + "0".repeat(28));
    expect(toHexAddress("64:ff9b::192.0.2.33")).toBe("0064ff9b0000000000000000c0000221");
  });

  it("refuses what is not an address", () => {
    for (const bad of ["", "10.0.0", "10.0.0.256", "1::2::3", "fe80::1%eth0", "example.org", "12345::", "::ffff:1.2.3"]) {
      expect(toHexAddress(bad)).toBeNull();
    }
  });

  it("reads back the readable form", () => {
    expect(fromHexAddress(toHexAddress("10.64.0.1")!)).toBe("10.64.0.1");
    expect(fromHexAddress(toHexAddress("2001:db8:0:0:1:0:0:1")!)).toBe("2001:db8::1:0:0:1");
    expect(fromHexAddress(toHexAddress("2001:db8::")!)).toBe("2001:db8::");
  });

  it("parses CIDR ranges: first, last, the IPv6 prefix, host bits refused", () => {
    expect(parseCidr("10.64.0.0/24")).toEqual({ cidr: "10.64.0.0/24", firstAddress: "00000000000000000000ffff0a400000",
      lastAddress: "00000000000000000000ffff0a4000ff", prefixLength: 120 });
    expect(parseCidr("127.0.0.2")).toMatchObject({ cidr: "127.0.0.2/32", prefixLength: 128 });
    expect(parseCidr("2001:DB8::/64")).toEqual({ cidr: "2001:db8::/64", firstAddress: "20010db8" + "0".repeat(24),
      lastAddress: "20010db8" + "0".repeat(8) + "f".repeat(16), prefixLength: 64 });
    expect(parseCidr("0.0.0.0/0")).toMatchObject({ prefixLength: 96, lastAddress: "00000000000000000000ffffffffffff" });
    for (const bad of ["10.64.0.1/24", "10.0.0.0/33", "2001:db8::/129", "10.0.0.0/8/1", "10.0.0.0/x", "nope/8"]) {
      expect(parseCidr(bad)).toBeNull();
    }
  });

  it("parses port ranges and numbers", () => {
    expect(parsePortRange("1024-2047")).toEqual({ portFrom: 1024, portTo: 2047 });
    expect(parsePortRange("80")).toEqual({ portFrom: 80, portTo: 80 });
    for (const bad of ["2047-1024", "0-65536", "-1", "a-b", "1-2-3"]) expect(parsePortRange(bad)).toBeNull();
  });
});

describe("ipport login hints (CAMARA)", () => {
  it("reads IPv4 and bracketed IPv6, with or without a port", () => {
    expect(parseLoginHint("ipport:198.51.100.1:12345")).toEqual({ kind: "IPPORT", address: "198.51.100.1", port: 12345 });
    expect(parseLoginHint("IPPORT:[2001:db8::1]:443")).toEqual({ kind: "IPPORT", address: "2001:db8::1", port: 443 });
    expect(parseLoginHint("ipport:[::ffff:198.51.100.1]:1")).toEqual({ kind: "IPPORT", address: "::ffff:198.51.100.1",
      port: 1 });
    expect(parseLoginHint("ipport:198.51.100.1")).toEqual({ kind: "IPPORT", address: "198.51.100.1" });
  });

  it("refuses malformed ones with invalid_request", () => {
    for (const bad of ["ipport:", "ipport:198.51.100.1:65536", "ipport:2001:db8::1:443", "ipport:[198.51.100.1]:1",
      "ipport:300.1.1.1:1", "ipport:[2001:db8::1]:", "ipport:198.51.100.1:1:2", "ipport:host:1"]) {
      expect(() => parseLoginHint(bad), bad).toThrow(/login_hint/);
    }
  });
});
