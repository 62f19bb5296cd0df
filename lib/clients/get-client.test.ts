import { beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "@/test/support/server";
import { db } from "@/lib/db";
import { config } from "@/lib/config";
import { getClient, invalidateClient } from "./get-client";

// The client cache's invalidation generation (review 22 #4): a read begun before invalidateClient must not be
// written back, or a disable in this process would be undone for the cache's lifetime.
beforeAll(() => {
  const url = freshDatabase("get-client");
  process.env.DATABASE_URL = url;
  expect(config().DATABASE_URL).toBe(url);
});

describe("getClient's cache", () => {
  it("does not keep a read that started before invalidateClient", async () => {
    const id = `cache-${Date.now()}`;
    await db.client.create({ data: { id, name: "Cache", redirectUris: "[]", allowedScopes: "openid",
      sectorIdentifier: "rp.example.test" } });
    const pending = getClient({ clientId: id }); // the read is under way
    invalidateClient({ clientId: id }); // a change made meanwhile drops the cache
    expect((await pending)!.active).toBe(true); // the caller still gets what it read
    await db.client.update({ where: { id }, data: { status: "disabled" } });
    expect((await getClient({ clientId: id }))!.active).toBe(false); // but it was not cached: read again
    // A read after the invalidation is cached as usual.
    await db.client.update({ where: { id }, data: { status: "active" } });
    expect((await getClient({ clientId: id }))!.active).toBe(false);
    invalidateClient({ clientId: id });
    expect((await getClient({ clientId: id }))!.active).toBe(true);
  });
});
