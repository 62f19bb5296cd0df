import { beforeAll, describe, expect, it } from "vitest";
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
});
