import { describe, expect, it } from "vitest";
import { checkPublicHost } from "./internal-address";

describe("checkPublicHost", () => {
  it("refuses internal literals and names, accepts public literals, and loopback only when allowed", async () => {
    await expect(checkPublicHost("https://[::1]/x", "u", false)).rejects.toThrow(/loopback, private or reserved/);
    await expect(checkPublicHost("https://localhost./x", "u", false)).rejects.toThrow(/loopback/);
    await expect(checkPublicHost("https://a.b.internal/x", "u", false)).rejects.toThrow(/loopback/);
    await expect(checkPublicHost("https://169.254.169.254/x", "u", false)).rejects.toThrow(/loopback/);
    await expect(checkPublicHost("https://::ffff:7f00:1/x".replace("::ffff:7f00:1", "[::ffff:7f00:1]"), "u", false))
      .rejects.toThrow(/loopback/);
    await expect(checkPublicHost("https://8.8.8.8/x", "u", false)).resolves.toBeUndefined();
    await expect(checkPublicHost("https://127.0.0.1/x", "u", true)).resolves.toBeUndefined();
    await expect(checkPublicHost("https://10.0.0.1/x", "u", true)).rejects.toThrow(/loopback, private or reserved/);
  });

  it("refuses IPv6 literals that embed a private IPv4 address: IPv4-compatible, IPv4-translated, NAT64", async () => {
    for (const host of ["[::10.0.0.1]", "[::127.0.0.1]", "[::ffff:0:10.0.0.1]", "[::ffff:0:a9fe:a9fe]",
      "[64:ff9b::10.0.0.1]", "[64:ff9b:1::a00:1]"]) {
      await expect(checkPublicHost(`https://${host}/x`, "jwks_uri", false), host).rejects.toThrow(/loopback, private or reserved/);
    }
    await expect(checkPublicHost("https://[2606:4700::1111]/x", "u", false)).resolves.toBeUndefined();
  });
});
