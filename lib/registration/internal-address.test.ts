import { describe, expect, it } from "vitest";
import { checkPublicHost, isInternalAddress } from "./internal-address";

describe("isInternalAddress", () => {
  it.each([
    "127.0.0.1", "127.8.9.1", "10.1.2.3", "172.31.255.255", "192.168.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
    "224.0.0.1", "255.255.255.255", "::1", "::", "fd12::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:a00:1",
    "64:ff9b::a00:1", "2001:db8::1", "not an address",
  ])("%s is internal", (a) => expect(isInternalAddress(a)).toBe(true));

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"])("%s is public", (a) => {
    expect(isInternalAddress(a)).toBe(false);
  });
});

describe("checkPublicHost", () => {
  it("refuses internal literals and names, accepts public literals and anything when allowed", async () => {
    await expect(checkPublicHost("https://[::1]/x", "u", false)).rejects.toThrow(/loopback, private or reserved/);
    await expect(checkPublicHost("https://localhost./x", "u", false)).rejects.toThrow(/loopback/);
    await expect(checkPublicHost("https://a.b.internal/x", "u", false)).rejects.toThrow(/loopback/);
    await expect(checkPublicHost("https://8.8.8.8/x", "u", false)).resolves.toBeUndefined();
    await expect(checkPublicHost("https://10.0.0.1/x", "u", true)).resolves.toBeUndefined();
  });
});
