import { beforeAll, describe, expect, it } from "vitest";
import { AdminError } from "@/lib/admin/admin-error";
import { freshDatabase } from "@/test/support/server";
import { db } from "@/lib/db";
import { config } from "@/lib/config";
import { getActiveKey, getKeys, invalidateKeyCache } from "./key-store";
import { rotateKeys } from "./rotate-keys";

// Rotation is tried on a database of its own: the integration server's keys must not move under other tests.
beforeAll(() => {
  const url = freshDatabase("rotate-keys");
  process.env.DATABASE_URL = url;
  expect(config().DATABASE_URL).toBe(url);
});

describe("rotateKeys", () => {
  it("activates the already published next key, retires the active one and publishes a new next", async () => {
    const before = await getKeys();
    const active = before.find((k) => k.use === "sig" && k.status === "active")!;
    const next = before.find((k) => k.use === "sig" && k.status === "next")!;
    const start = Date.now();

    const result = await rotateKeys({ use: "sig" });
    expect(result).toMatchObject({ activated: next.kid, retired: 1 });

    const rows = await db.key.findMany({ where: { use: "sig" } });
    const old = rows.find((r) => r.kid === active.kid)!;
    expect(old.status).toBe("retired");
    expect(old.retiredAt!.getTime()).toBeGreaterThanOrEqual(start - 1000);
    // Kept published for the longest token lifetime it may have signed plus the key cache lifetime.
    expect(old.removeAfter!.getTime() - old.retiredAt!.getTime()).toBe((config().ACCESS_TOKEN_TTL + 120) * 1000);
    expect(rows.filter((r) => r.status === "active").map((r) => r.kid)).toEqual([next.kid]);
    expect(rows.find((r) => r.kid === result.next)!.status).toBe("next");

    invalidateKeyCache();
    expect((await getActiveKey("sig")).kid).toBe(next.kid);
    expect((await getKeys()).map((k) => k.kid)).toEqual(expect.arrayContaining([active.kid, next.kid, result.next]));
  });

  it("drops a retired key from the published set once removeAfter has passed", async () => {
    const retired = await db.key.findFirstOrThrow({ where: { status: "retired" } });
    await db.key.update({ where: { kid: retired.kid }, data: { removeAfter: new Date(Date.now() - 1000) } });
    invalidateKeyCache();
    expect((await getKeys()).map((k) => k.kid)).not.toContain(retired.kid);
  });

  it("rotates the enc key the same way", async () => {
    const old = await getActiveKey("enc");
    const result = await rotateKeys({ use: "enc" });
    invalidateKeyCache();
    const now = await getActiveKey("enc");
    expect(now.kid).toBe(result.activated);
    expect(now.kid).not.toBe(old.kid);
    expect((await getKeys()).some((k) => k.kid === old.kid && k.status === "retired")).toBe(true);
  });

  it("lets exactly one of 5 parallel rotations rotate; the others are refused and change nothing", async () => {
    const before = await db.key.findMany({ where: { use: "sig" } });
    const active = before.find((k) => k.status === "active")!;
    const next = before.filter((k) => k.status === "next").sort((a, b) => +a.createdAt - +b.createdAt)[0]!;
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => rotateKeys({ use: "sig" })));
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(4);
    for (const r of lost) {
      expect(r.reason).toBeInstanceOf(AdminError);
      expect((r.reason as Error).message).toMatch(/another sig key rotation is in progress or just happened/);
    }
    const rows = await db.key.findMany({ where: { use: "sig" } });
    expect(rows.filter((r) => r.status === "active").map((r) => r.kid)).toEqual([next.kid]);
    const old = rows.find((r) => r.kid === active.kid)!;
    expect(old.status).toBe("retired");
    // The activated key was never retired in between, and only the winner published a new next key.
    expect(rows.find((r) => r.kid === next.kid)!.retiredAt).toBeNull();
    expect(rows.length).toBe(before.length + 1);
    expect(rows.filter((r) => r.status === "next").map((r) => r.kid)).toEqual([(won[0] as PromiseFulfilledResult<{ next: string }>).value.next]);
  });
});
