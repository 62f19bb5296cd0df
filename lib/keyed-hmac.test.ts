import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyedHmac } from "./keyed-hmac";

const direct = (key: string | Buffer, input: string) => createHmac("sha256", key).update(input).digest("base64url");

describe("keyedHmac", () => {
  it("returns HMAC-SHA-256 in base64url, the same for a remembered input", () => {
    const hmac = keyedHmac();
    expect(hmac("secret-1", "sector\nsub-1")).toBe(direct("secret-1", "sector\nsub-1"));
    expect(hmac("secret-1", "sector\nsub-1")).toBe(direct("secret-1", "sector\nsub-1"));
    expect(hmac("secret-1", "sector\nsub-2")).toBe(direct("secret-1", "sector\nsub-2"));
  });

  it("never answers from the memo of another key", () => {
    const hmac = keyedHmac();
    const a = hmac("secret-1", "x");
    const b = hmac("secret-2", "x");
    expect(b).toBe(direct("secret-2", "x"));
    expect(b).not.toBe(a);
    expect(hmac(Buffer.from("k"), "x")).toBe(direct(Buffer.from("k"), "x"));
  });

  it("stays correct past its bound", () => {
    const hmac = keyedHmac(3);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 10; i++) expect(hmac("s", `in-${i}`)).toBe(direct("s", `in-${i}`));
    }
  });
});
