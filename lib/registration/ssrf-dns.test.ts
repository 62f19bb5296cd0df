import { describe, expect, it, vi } from "vitest";

// DNS answers for names that resolve into the operator's network (rebinding, "localtest.me"-style names):
// checked at registration (checkPublicHost) and when the sector_identifier_uri is fetched (the connection's lookup).
const ANSWERS: Record<string, Array<{ address: string; family: number }>> = {
  "evil.example.test": [{ address: "93.184.216.34", family: 4 }, { address: "10.0.0.7", family: 4 }],
  "loop.example.test": [{ address: "::1", family: 6 }],
  "good.example.test": [{ address: "93.184.216.34", family: 4 }],
};
vi.mock("node:dns/promises", () => ({
  lookup: async (host: string) => {
    if (ANSWERS[host]) return ANSWERS[host];
    throw Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" });
  },
}));
vi.mock("node:dns", async (original) => ({
  ...(await original<typeof import("node:dns")>()),
  lookup: (host: string, _options: unknown, callback: (err: Error | null, a?: unknown) => void) => {
    if (ANSWERS[host]) return callback(null, ANSWERS[host]);
    callback(Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" }));
  },
}));

const { checkPublicHost } = await import("./internal-address");
const { fetchSectorIdentifier } = await import("./fetch-sector-identifier");

describe("names that resolve to internal addresses", () => {
  it("checkPublicHost refuses a name with any internal address, accepts public and unresolvable names", async () => {
    await expect(checkPublicHost("https://evil.example.test/bc", "backchannel_logout_uri", false))
      .rejects.toThrow(/backchannel_logout_uri https:\/\/evil.example.test\/bc points at a loopback, private or reserved/);
    await expect(checkPublicHost("https://loop.example.test/bc", "u", false)).rejects.toThrow(/loopback/);
    await expect(checkPublicHost("https://good.example.test/bc", "u", false)).resolves.toBeUndefined();
    await expect(checkPublicHost("https://nowhere.example.test/bc", "u", false)).resolves.toBeUndefined();
  });

  it("the sector_identifier_uri fetch checks the address when it connects (no rebinding between check and fetch)", async () => {
    await expect(fetchSectorIdentifier("https://evil.example.test/s.json", false))
      .rejects.toThrow(/could not be read: the URL's host is a private, loopback or reserved address/);
    await expect(fetchSectorIdentifier("https://loop.example.test/s.json", false)).rejects.toThrow(/private, loopback or reserved/);
  });
});
