import { beforeAll, describe, expect, it } from "vitest";
import { AdminError } from "@/lib/admin/admin-error";
import { freshDatabase } from "@/test/support/server";
import { db } from "@/lib/db";
import { config } from "@/lib/config";
import { getActiveKey, getKeys, invalidateKeyCache, SIGNING_ALGS } from "./key-store";
import { rotateKeys } from "./rotate-keys";

// Rotation is tried on a database of its own: the integration server's keys must not move under other tests.
beforeAll(() => {
  const url = freshDatabase("rotate-keys");
  process.env.DATABASE_URL = url;
  expect(config().DATABASE_URL).toBe(url);
});

const KTY = { RS256: "RSA", PS256: "RSA", ES256: "EC", EdDSA: "OKP" } as const;

describe("the key set", () => {
  it("has one active and one next sig key per algorithm (its own kid, alg, use sig), and one active enc key", async () => {
    const keys = await getKeys();
    for (const alg of SIGNING_ALGS) {
      const mine = keys.filter((k) => k.use === "sig" && k.alg === alg);
      expect(mine.map((k) => k.status).sort(), alg).toEqual(["active", "next"]);
      for (const k of mine) {
        expect(k.publicJwk).toMatchObject({ kid: k.kid, alg, use: "sig", kty: KTY[alg] });
        expect(k.publicJwk).not.toHaveProperty("d");
      }
      expect((await getActiveKey("sig", alg)).kid).toBe(mine.find((k) => k.status === "active")!.kid);
    }
    expect(keys.find((k) => k.alg === "ES256")!.publicJwk.crv).toBe("P-256");
    expect(keys.find((k) => k.alg === "EdDSA")!.publicJwk.crv).toBe("Ed25519");
    // RS256 and PS256 have separate RSA keys.
    expect((await getActiveKey("sig", "RS256")).publicJwk.n).not.toBe((await getActiveKey("sig", "PS256")).publicJwk.n);
    expect((await getActiveKey("sig")).alg).toBe("RS256"); // the default
    expect(new Set(keys.map((k) => k.kid)).size).toBe(keys.length);
    expect(keys.filter((k) => k.use === "enc" && k.status === "active")).toHaveLength(1);
  });

  it("creates the other algorithms' keys for a database that has only RS256 sig keys (before issue 23)", async () => {
    const others = SIGNING_ALGS.filter((a) => a !== "RS256");
    await db.key.deleteMany({ where: { use: "sig", alg: { in: others } } });
    const rs = (await db.key.findMany({ where: { use: "sig" } })).map((k) => k.kid).sort();
    invalidateKeyCache();
    const keys = await getKeys();
    for (const alg of others) {
      expect(keys.filter((k) => k.use === "sig" && k.alg === alg).map((k) => k.status).sort()).toEqual(["active", "next"]);
    }
    expect(keys.filter((k) => k.alg === "RS256").map((k) => k.kid).sort()).toEqual(rs); // untouched
  });

  it("signs with the oldest active key of each alg and demotes newer duplicates to next", async () => {
    const active = await db.key.findFirstOrThrow({ where: { use: "sig", alg: "ES256", status: "active" } });
    const next = await db.key.findFirstOrThrow({ where: { use: "sig", alg: "ES256", status: "next" } });
    await db.key.update({ where: { kid: next.kid }, data: { status: "active", createdAt: new Date(active.createdAt.getTime() + 1000) } });
    invalidateKeyCache();
    expect((await getActiveKey("sig", "ES256")).kid).toBe(active.kid);
    expect((await db.key.findUniqueOrThrow({ where: { kid: next.kid } })).status).toBe("next");
    expect((await getActiveKey("sig", "RS256")).alg).toBe("RS256"); // other algs unaffected
  });
});

describe("rotateKeys", () => {
  it("rotates every signing algorithm at once: each next key becomes active, each active one retired, a new next", async () => {
    invalidateKeyCache();
    const before = await getKeys();
    const start = Date.now();
    const { rotated } = await rotateKeys({ use: "sig" });
    expect(rotated.map((r) => r.alg)).toEqual([...SIGNING_ALGS]);
    const rows = await db.key.findMany({ where: { use: "sig" } });
    for (const r of rotated) {
      const active = before.find((k) => k.use === "sig" && k.alg === r.alg && k.status === "active")!;
      const next = before.find((k) => k.use === "sig" && k.alg === r.alg && k.status === "next")!;
      expect(r).toMatchObject({ use: "sig", activated: next.kid, retired: 1 });
      const old = rows.find((x) => x.kid === active.kid)!;
      expect(old.status).toBe("retired");
      expect(old.retiredAt!.getTime()).toBeGreaterThanOrEqual(start - 1000);
      // Kept published for the longest token lifetime it may have signed plus the key cache lifetime.
      expect(old.removeAfter!.getTime() - old.retiredAt!.getTime()).toBe((config().ACCESS_TOKEN_TTL + 120) * 1000);
      expect(rows.filter((x) => x.alg === r.alg && x.status === "active").map((x) => x.kid)).toEqual([next.kid]);
      const upcoming = rows.find((x) => x.kid === r.next)!;
      expect(upcoming).toMatchObject({ status: "next", alg: r.alg });
      invalidateKeyCache();
      expect((await getActiveKey("sig", r.alg as (typeof SIGNING_ALGS)[number])).kid).toBe(next.kid);
      expect((await getKeys()).map((k) => k.kid)).toEqual(expect.arrayContaining([active.kid, next.kid, r.next]));
    }
  });

  it("rotates one algorithm with alg and leaves the others alone", async () => {
    const before = await db.key.findMany({ where: { use: "sig" } });
    const { rotated } = await rotateKeys({ use: "sig", alg: "EdDSA" });
    expect(rotated).toHaveLength(1);
    expect(rotated[0]).toMatchObject({ alg: "EdDSA", retired: 1 });
    const after = await db.key.findMany({ where: { use: "sig" } });
    for (const k of before.filter((x) => x.alg !== "EdDSA")) {
      expect(after.find((x) => x.kid === k.kid)!.status, k.alg).toBe(k.status);
    }
    expect(after.length).toBe(before.length + 1);
    await expect(rotateKeys({ use: "enc", alg: "ES256" })).rejects.toThrow(/sig keys only/);
  });

  it("refuses when any of the algorithms' next key is younger than minNextAgeMs, changing nothing", async () => {
    const before = await db.key.findMany({ where: { use: "sig" }, orderBy: { kid: "asc" } });
    await expect(rotateKeys({ use: "sig", minNextAgeMs: 60_000 })).rejects.toThrow(/rotate again in a minute/);
    expect(await db.key.findMany({ where: { use: "sig" }, orderBy: { kid: "asc" } })).toEqual(before);
  });

  it("drops a retired key from the published set once removeAfter has passed", async () => {
    const retired = await db.key.findFirstOrThrow({ where: { status: "retired" } });
    await db.key.update({ where: { kid: retired.kid }, data: { removeAfter: new Date(Date.now() - 1000) } });
    invalidateKeyCache();
    expect((await getKeys()).map((k) => k.kid)).not.toContain(retired.kid);
  });

  it("rotates the enc key the same way", async () => {
    const old = await getActiveKey("enc");
    const { rotated } = await rotateKeys({ use: "enc" });
    expect(rotated).toHaveLength(1);
    invalidateKeyCache();
    const now = await getActiveKey("enc");
    expect(now.kid).toBe(rotated[0]!.activated);
    expect(now.kid).not.toBe(old.kid);
    expect((await getKeys()).some((k) => k.kid === old.kid && k.status === "retired")).toBe(true);
  });

  it("lets exactly one of 5 parallel rotations rotate; the others are refused and change nothing", async () => {
    const before = await db.key.findMany({ where: { use: "sig" } });
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => rotateKeys({ use: "sig" })));
    const won = results.filter((r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof rotateKeys>>> => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(4);
    for (const r of lost) {
      expect(r.reason).toBeInstanceOf(AdminError);
      expect((r.reason as Error).message).toMatch(/another sig key rotation is in progress or just happened/);
    }
    const rows = await db.key.findMany({ where: { use: "sig" } });
    for (const alg of SIGNING_ALGS) {
      const active = before.find((k) => k.alg === alg && k.status === "active")!;
      const next = before.filter((k) => k.alg === alg && k.status === "next").sort((a, b) => +a.createdAt - +b.createdAt)[0]!;
      expect(rows.filter((r) => r.alg === alg && r.status === "active").map((r) => r.kid), alg).toEqual([next.kid]);
      expect(rows.find((r) => r.kid === active.kid)!.status).toBe("retired");
      // The activated key was never retired in between, and only the winner published a new next key.
      expect(rows.find((r) => r.kid === next.kid)!.retiredAt).toBeNull();
      const published = won[0]!.value.rotated.find((r) => r.alg === alg)!.next;
      // (An older demoted duplicate may still be `next` besides it: see "oldest active wins" above.)
      const newNext = rows.filter((r) => r.alg === alg && r.status === "next" && !before.some((b) => b.kid === r.kid));
      expect(newNext.map((r) => r.kid)).toEqual([published]);
    }
    expect(rows.length).toBe(before.length + SIGNING_ALGS.length);
  });
});
