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

  it("never hands out the same bytes twice across pool refills, and the bytes look uniform", () => {
    // 20,000 tokens of 32 bytes: ~156 refills of the 4 KB pool, every size in between.
    const seen = new Set<string>();
    const counts = new Array<number>(256).fill(0);
    let total = 0;
    for (let i = 0; i < 20_000; i++) {
      const size = 1 + (i % 300); // also sizes above the pooled maximum (256)
      const t = randomToken(size);
      const bytes = Buffer.from(t, "base64url");
      expect(bytes.length).toBe(size);
      if (size >= 8) {
        expect(seen.has(t)).toBe(false);
        seen.add(t);
      }
      for (const b of bytes) counts[b]!++;
      total += bytes.length;
    }
    // Each byte value within ±25 % of its expected count (a stuck or repeating pool fails this).
    const expected = total / 256;
    expect(Math.min(...counts)).toBeGreaterThan(expected * 0.75);
    expect(Math.max(...counts)).toBeLessThan(expected * 1.25);
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

describe("uuidV7", () => {
  it("is an RFC 9562 version 7 UUID carrying the time, unique, and ordered by time", async () => {
    const { uuidV7 } = await import("./crypto");
    const at = Date.UTC(2026, 10, 23, 12, 0, 0, 123);
    const id = uuidV7(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBe(at);
    const ids = Array.from({ length: 2000 }, (_, i) => uuidV7(at + Math.floor(i / 10)));
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 10; i < ids.length; i += 10) expect(ids[i]! > ids[i - 1]!).toBe(true); // a later millisecond sorts after
  });
});
