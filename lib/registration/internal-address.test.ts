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
});
