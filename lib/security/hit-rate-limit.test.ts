import { describe, expect, it } from "vitest";
import { db } from "../db";
import { randomToken, sha256 } from "../crypto";
import { hitRateLimit, hitRateLimits, peekRateLimit, rateLimitWindow } from "./hit-rate-limit";
import { lockoutSeconds } from "./limits";

const limit = (n: number) => ({ name: `test-${randomToken(6)}`, limit: n, windowSeconds: 60 });

describe("hitRateLimit (database-backed fixed window)", () => {
  it("allows `limit` hits per window, then answers Retry-After until the window ends", async () => {
    const l = limit(3);
    const start = Math.floor(Date.now() / 60_000) * 60_000 + 20_000; // 20 s into a window
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await hitRateLimit({ limit: l, subject: "x", now: start }));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
    expect(verdicts.map((v) => v.count)).toEqual([1, 2, 3, 4]);
    expect(verdicts[3]!.retryAfter).toBe(40);
    expect((await peekRateLimit({ limit: l, subject: "x", now: start })).allowed).toBe(false);
    // Another subject, and the next window, start from zero; the expired row is not read.
    expect((await hitRateLimit({ limit: l, subject: "y", now: start })).count).toBe(1);
    expect((await hitRateLimit({ limit: l, subject: "x", now: start + 60_000 })).count).toBe(1);
    expect((await peekRateLimit({ limit: l, subject: "x", now: start + 60_000 })).allowed).toBe(true);
  });

  it("counts exactly under concurrency (one atomic upsert per hit) and stores no raw subject", async () => {
    const l = limit(10);
    const verdicts = await Promise.all(Array.from({ length: 25 }, () => hitRateLimit({ limit: l, subject: "447700900123" })));
    expect(verdicts.map((v) => v.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(10);
    const rows = await db.rateLimit.findMany({ where: { key: { startsWith: `${l.name}:` } } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key).not.toContain("447700900123");
    // Keyed (SUBJECT_SECRET): not the plain SHA-256 of the number, which anyone could brute-force over a numbering plan.
    const hash = rows[0]!.key.split(":")[1]!;
    expect(hash).toHaveLength(32);
    expect(hash).not.toBe(sha256("447700900123").slice(0, 32));
    expect(rows[0]!.key).not.toContain(sha256("447700900123").slice(0, 12));
    expect(rateLimitWindow(l, "447700900123", Date.now()).key.split(":")[1]).toBe(hash);
    // One subject's counters do not match across limits.
    expect(rateLimitWindow(limit(10), "447700900123", Date.now()).key.split(":")[1]).not.toBe(hash);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.windowStart.getTime()).toBe(60_000);
  });
});

describe("hitRateLimits (in order, stops at the first refusal)", () => {
  it("a request refused by the first limit is not counted in the later ones", async () => {
    const [specific, shared] = [limit(2), limit(10)];
    const verdicts = [];
    for (let i = 0; i < 5; i++) verdicts.push(await hitRateLimits([[specific, "a"], [shared, "n"]]));
    expect(verdicts.map((v) => v?.limit.name ?? null)).toEqual([null, null, specific.name, specific.name, specific.name]);
    // Only the two allowed requests (and none of the three refused) count in the shared limit.
    expect((await hitRateLimit({ limit: shared, subject: "n" })).count).toBe(3);
    expect((await hitRateLimits([[limit(1), "b"], [shared, "n"]]))).toBeNull();
  });
});

describe("lockout escalation", () => {
  it("5 min, 15 min, 1 h, then 24 h", () => {
    expect([1, 2, 3, 4, 5, 9].map(lockoutSeconds)).toEqual([300, 900, 3600, 86_400, 86_400, 86_400]);
  });
});
