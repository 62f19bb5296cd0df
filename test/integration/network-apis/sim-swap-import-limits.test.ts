import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { fileLines, importSimSwaps, MAX_IMPORT_FILE_BYTES } from "@/lib/sim-swap/import-sim-swaps";

/**
 * Regression (review of issue 21, n1): the import read whole lines before checking their length, so one huge line
 * exhausted memory. Now a file larger than MAX_IMPORT_FILE_BYTES is refused before it is read, and a line longer
 * than the cap is skipped unheld and reported as too long: nothing is imported (docs/sim-swap.md "Import format").
 */
const dir = mkdtempSync(path.join(os.tmpdir(), "sim-import-limits-"));
let files = 0;
const file = (text: string | Buffer) => {
  const p = path.join(dir, `events-${++files}.txt`);
  writeFileSync(p, text);
  return p;
};
let lines = 0;
const number = () => `4479${String(Date.now()).slice(-6)}${String(++lines).padStart(2, "0")}`;
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

async function collect(p: string) {
  const out: [number, string | symbol][] = [];
  for await (const entry of fileLines(p)) out.push(entry);
  return out;
}

describe("sim import: bounded input", () => {
  it("one huge line (48 MB, no line break) is reported as too long, never held; nothing imported", async () => {
    const a = number();
    const p = file(Buffer.concat([Buffer.from(`${a},${hoursAgo(2)}\n`), Buffer.alloc(48 * 1024 * 1024, "9")]));
    const heapBefore = process.memoryUsage().heapUsed;
    const r = await importSimSwaps({ path: p });
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(40 * 1024 * 1024);
    expect(r).toMatchObject({ lines: 2, imported: 0, rejected: 1,
      errors: [{ line: 2, message: "line longer than 1000 characters" }] });
    expect(await db.simSwapEvent.count({ where: { msisdn: a } })).toBe(0);
  });

  it("a long line between good ones is numbered right (CRLF, CR and LF line ends)", async () => {
    const a = number();
    const p = file(`${a},${hoursAgo(3)},r1-${a}\r\n${"x".repeat(10_000)}\r${a},${hoursAgo(2)},r2-${a}\n`);
    const r = await importSimSwaps({ path: p });
    expect(r).toMatchObject({ lines: 3, imported: 0, rejected: 1,
      errors: [{ line: 2, message: "line longer than 1000 characters" }] });
    expect(await db.simSwapEvent.count({ where: { msisdn: a } })).toBe(0);
  });

  it("line ends split across read chunks, a BOM, no final line break", async () => {
    // 65 lines of 1,000 bytes, then a CR as the last byte of the first 64 KiB chunk and its LF first in the next.
    const text = `\uFEFF${"a".repeat(999)}\n${`${"a".repeat(999)}\n`.repeat(64)}${"b".repeat(535 - 3)}\r\nc`;
    expect(Buffer.byteLength(text.slice(0, text.indexOf("\r") + 1))).toBe(64 * 1024);
    const got = await collect(file(text));
    expect(got).toHaveLength(67);
    expect(got[0]).toEqual([1, "a".repeat(999)]);
    expect(got[65]).toEqual([66, "b".repeat(532)]);
    expect(got[66]).toEqual([67, "c"]);
    expect((await collect(file(`x\n${"y".repeat(5000)}`))).map(([n, l]) => [n, typeof l])).toEqual([[1, "string"],
      [2, "symbol"]]);
  });

  it("a file larger than the maximum is refused before it is read; so is a path that is no file", async () => {
    const p = file("");
    truncateSync(p, MAX_IMPORT_FILE_BYTES + 1); // sparse: no disk used
    await expect(importSimSwaps({ path: p })).rejects.toThrow(
      `nothing imported: the import file is larger than ${MAX_IMPORT_FILE_BYTES} bytes; split it`);
    const sub = path.join(dir, "a-directory");
    mkdirSync(sub);
    for (const bad of [sub, path.join(dir, "missing.txt")]) {
      await expect(importSimSwaps({ path: bad })).rejects.toThrow("nothing imported: the import file cannot be read");
    }
  });
});
