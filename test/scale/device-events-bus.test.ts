import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquirePostgres, freshPostgresDatabase } from "../support/postgres";
import type { DeviceEvent } from "@/lib/out-of-band/device-events-bus";

/**
 * The cross-instance device-request notification on PostgreSQL (LISTEN/NOTIFY): a NOTIFY sent by
 * another process (another instance) reaches this process's listeners, and this process's own
 * publications go out through the database too.
 */
let skip = "";
let stopPg = () => {};
let databaseUrl = "";
let bus: typeof import("@/lib/out-of-band/device-events-bus");

beforeAll(async () => {
  const got = await acquirePostgres();
  if ("skip" in got) {
    skip = got.skip;
    return void console.log(`device events bus test skipped: ${skip}`);
  }
  stopPg = got.stop;
  databaseUrl = freshPostgresDatabase("bus", got.url);
  process.env.DATABASE_URL = databaseUrl; // read by lib/config on first use, i.e. by the import below
  bus = await import("@/lib/out-of-band/device-events-bus");
}, 90_000);
afterAll(() => stopPg());

function next(filter: (e: DeviceEvent) => boolean): Promise<DeviceEvent> {
  return new Promise((resolve) => {
    const off = bus.onDeviceEvent((e) => {
      if (!filter(e)) return;
      off();
      resolve(e);
    });
  });
}

describe("device events across instances (PostgreSQL LISTEN/NOTIFY)", () => {
  it("hears a NOTIFY from another connection and sends its own through the database", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const other = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      const heard = next((e) => e.requestId === "from-b");
      // The listener connects on the first subscription: wait until the server reports it.
      for (let i = 0; i < 100; i++) {
        const r = await other.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'device-events' AND datname = current_database()");
        if (r.rows[0]!.n > 0) break;
        await new Promise((res) => setTimeout(res, 50));
      }
      const sent = Date.now();
      await other.query("SELECT pg_notify('device_events', $1)", [JSON.stringify({ kind: "answered", subscriberId: "s", requestId: "from-b" })]);
      expect(await heard).toEqual({ kind: "answered", subscriberId: "s", requestId: "from-b" });
      const latency = Date.now() - sent;

      const own = next((e) => e.requestId === "from-a");
      bus.publishDeviceEvent({ kind: "created", subscriberId: "s", requestId: "from-a" });
      expect((await own).kind).toBe("created");
      console.log(`device events: a NOTIFY from another instance reached the listener in ${latency} ms`);
      expect(latency).toBeLessThan(1_000);
    } finally {
      await other.end();
    }
  });
});
