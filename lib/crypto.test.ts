import { describe, expect, it } from "vitest";
import { decryptAtRest, encryptAtRest, hashSecret, randomToken, safeEqual, sha256, verifySecret } from "./crypto";

const SECRET = "a-key-encryption-secret-of-at-least-32-chars";

describe("hashSecret / verifySecret (scrypt)", () => {
  it("verifies the right secret only, with a fresh salt per hash", async () => {
    const [a, b] = await Promise.all([hashSecret("2580"), hashSecret("2580")]);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("2580");
    expect(await verifySecret("2580", a)).toBe(true);
    expect(await verifySecret("2581", a)).toBe(false);
    expect(await verifySecret("", a)).toBe(false);
  });

  it("refuses malformed stored values instead of throwing", async () => {
    for (const stored of ["", "plain", "bcrypt$1$2$3$4$5", "scrypt$16384$8$1$$"]) {
      expect(await verifySecret("2580", stored)).toBe(false);
    }
  });
});

describe("safeEqual", () => {
  it("compares contents and lengths", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
    expect(safeEqual("é", "e")).toBe(false);
  });
});

describe("randomToken / sha256", () => {
  it("produces url-safe tokens of the requested entropy and stable digests", () => {
    expect(randomToken()).toMatch(/^[\w-]{43}$/);
    expect(randomToken(12)).toMatch(/^[\w-]{16}$/);
    expect(randomToken()).not.toBe(randomToken());
    expect(sha256("abc")).toBe("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
  });
});

describe("encryptAtRest / decryptAtRest (AES-256-GCM)", () => {
  it("round-trips, with a fresh IV each time", () => {
    const a = encryptAtRest('{"d":"private"}', SECRET);
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toContain("private");
    expect(encryptAtRest('{"d":"private"}', SECRET)).not.toBe(a);
    expect(decryptAtRest(a, SECRET)).toBe('{"d":"private"}');
  });

  it("detects tampering and a wrong secret", () => {
    const sealed = encryptAtRest("key material", SECRET);
    const [v, iv, tag, ct] = sealed.split(".") as [string, string, string, string];
    const flip = (s: string) => (s[0] === "A" ? "B" : "A") + s.slice(1);
    expect(() => decryptAtRest([v, iv, tag, flip(ct)].join("."), SECRET)).toThrow();
    expect(() => decryptAtRest([v, iv, flip(tag), ct].join("."), SECRET)).toThrow();
    expect(() => decryptAtRest([v, flip(iv), tag, ct].join("."), SECRET)).toThrow();
    expect(() => decryptAtRest(sealed, `${SECRET}-other`)).toThrow();
    expect(() => decryptAtRest(`v2.${iv}.${tag}.${ct}`, SECRET)).toThrow(/unsupported/);
    expect(() => decryptAtRest("garbage", SECRET)).toThrow();
  });
});
