import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { AdminError } from "../admin/admin-error";
import { uuidV7 } from "../crypto";
import { db } from "../db";
import { isUniqueViolation } from "../store/is-unique-violation";
import { applySimSwap } from "./apply-sim-swap";
import { insertSimSwapEvent } from "./record-sim-swap";
import { derivedReference, simSwapMsisdn, simSwapReference, simSwapTime } from "./sim-swap-event";

/** One bad line of an import file: its 1-based number and what is wrong (never the line itself: it holds a number). */
export interface ImportLineError {
  line: number;
  message: string;
}

export interface SimSwapImport {
  /** Event lines read (blank lines, comments and a CSV header excluded). */
  lines: number;
  /** Events recorded now. */
  imported: number;
  /** Events already recorded by an earlier import (same reference): skipped. */
  duplicates: number;
  /** New events of numbers that are subscribers', whose effects were applied. */
  applied: number;
  /** Bad lines in all (errors lists the first MAX_LISTED_ERRORS). */
  rejected: number;
  errors: ImportLineError[];
}

/** At most this many bad lines are listed (the count goes on). */
const MAX_LISTED_ERRORS = 100;
/** Events recorded per batch (one read of the references already there, one multi-row INSERT). */
const CHUNK = 500;
/** A longer line is refused unparsed. */
const MAX_LINE = 1000;
/**
 * A raw line (before trimming) longer than this is never held: the reader skips to its end and reports it as too
 * long, so one huge line cannot exhaust memory (the review of issue 21, n1).
 */
const MAX_RAW_LINE = 4 * MAX_LINE;
/** A larger file is refused before anything is read (docs/sim-swap.md "Import format"). */
export const MAX_IMPORT_FILE_BYTES = 512 * 1024 * 1024;

/** Stands for a line longer than MAX_RAW_LINE, which fileLines never holds. */
const TOO_LONG = Symbol("line too long");

export interface ParsedLine {
  msisdn: string;
  swappedAt: Date;
  reference: string;
}

/**
 * One line of an import file (docs/sim-swap.md "Import"): CSV `msisdn,swapped_at[,reference]` or a JSON object
 * `{"msisdn", "swapped_at" (or "swappedAt"), "reference"?}`. Returns null for a line to skip (blank, `#` comment,
 * the CSV header), the event, or an error text. An event without a reference gets derivedReference (number and
 * instant), so importing a file twice records each event once.
 */
export function parseImportLine(raw: string | typeof TOO_LONG, now = new Date()): ParsedLine | string | null {
  if (raw === TOO_LONG) return `line longer than ${MAX_LINE} characters`;
  const text = raw.trim();
  if (text === "" || text.startsWith("#")) return null;
  if (text.length > MAX_LINE) return `line longer than ${MAX_LINE} characters`;
  let fields: { msisdn: unknown; swappedAt: unknown; reference: unknown };
  if (text.startsWith("{")) {
    let value: unknown;
    try { value = JSON.parse(text); } catch { return "not valid JSON"; }
    if (!value || typeof value !== "object" || Array.isArray(value)) return "not a JSON object";
    const o = value as Record<string, unknown>;
    fields = { msisdn: o.msisdn, swappedAt: o.swapped_at ?? o.swappedAt, reference: o.reference };
  } else {
    const parts = text.split(",").map((p) => p.trim());
    if (/^msisdn$/i.test(parts[0] ?? "")) return null; // the header
    if (parts.length < 2 || parts.length > 3) return "expected msisdn,swapped_at[,reference]";
    fields = { msisdn: parts[0], swappedAt: parts[1], reference: parts[2] };
  }
  const msisdn = simSwapMsisdn(fields.msisdn);
  if (!msisdn) return "msisdn must be 7-15 digits with country code (a leading + allowed)";
  const swappedAt = simSwapTime(fields.swappedAt, now);
  if (typeof swappedAt === "string") return swappedAt;
  const reference = simSwapReference(fields.reference);
  if (typeof reference === "object") return reference.error;
  return { msisdn, swappedAt, reference: reference ?? derivedReference(msisdn, swappedAt) };
}

/**
 * The file's lines, numbered from 1 (LF, CRLF or CR ends a line; a BOM is dropped), streamed with bounded memory:
 * a line longer than MAX_RAW_LINE is skipped to its end unheld and yielded as TOO_LONG.
 */
export async function* fileLines(path: string): AsyncGenerator<[number, string | typeof TOO_LONG]> {
  let n = 0;
  let pending = "";
  let tooLong = false;
  let afterCr = false; // the previous chunk ended with CR: a LF starting this one belongs to it
  const end = (line: string): [number, string | typeof TOO_LONG] => {
    n += 1;
    return [n, tooLong ? TOO_LONG : n === 1 ? line.replace(/^\uFEFF/, "") : line];
  };
  for await (const chunk of createReadStream(path, { encoding: "utf8", highWaterMark: 64 * 1024 })) {
    let text = chunk as string;
    if (afterCr && text.startsWith("\n")) text = text.slice(1);
    afterCr = text.endsWith("\r");
    const parts = text.split(/\r\n|\r|\n/);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (!tooLong) {
        pending += part;
        if (pending.length > MAX_RAW_LINE) { tooLong = true; pending = ""; }
      }
      if (i < parts.length - 1) {
        yield end(pending);
        pending = "";
        tooLong = false;
      }
    }
  }
  if (pending !== "" || tooLong) yield end(pending);
}

/** Refuses, before reading, a path that is not a readable regular file or is larger than MAX_IMPORT_FILE_BYTES. */
async function checkImportFile(path: string): Promise<void> {
  const info = await stat(path).catch(() => null);
  if (!info || !info.isFile()) throw new AdminError("nothing imported: the import file cannot be read (not a file)");
  if (info.size > MAX_IMPORT_FILE_BYTES) {
    throw new AdminError(`nothing imported: the import file is larger than ${MAX_IMPORT_FILE_BYTES} bytes; split it`);
  }
}

/**
 * Imports a file of SIM changes, streamed (never held in memory: at most MAX_IMPORT_FILE_BYTES, checked first, else
 * an AdminError; a line longer than MAX_RAW_LINE is never held, only reported). All-or-nothing on validity: a first
 * pass validates every line, and a file with any bad line imports nothing (the bad lines are listed with their
 * numbers, the first MAX_LISTED_ERRORS). The second pass records each event (one INSERT; a reference already
 * imported is a duplicate, skipped) and applies the effects of each new event of a subscriber's number
 * (applySimSwap: only what predates the event, so an old event ends nothing newer). An interrupted import is
 * completed by running it again.
 */
export async function importSimSwaps({ path, now = new Date() }: { path: string; now?: Date }): Promise<SimSwapImport> {
  await checkImportFile(path);
  const result: SimSwapImport = { lines: 0, imported: 0, duplicates: 0, applied: 0, rejected: 0, errors: [] };
  for await (const [n, line] of fileLines(path)) {
    const parsed = parseImportLine(line, now);
    if (parsed === null) continue;
    result.lines += 1;
    if (typeof parsed === "string") {
      result.rejected += 1;
      if (result.errors.length < MAX_LISTED_ERRORS) result.errors.push({ line: n, message: parsed });
    }
  }
  if (result.rejected > 0) return result;
  let chunk: ParsedLine[] = [];
  for await (const [, line] of fileLines(path)) {
    const parsed = parseImportLine(line, now);
    if (parsed === null || typeof parsed === "string") continue;
    chunk.push(parsed);
    if (chunk.length === CHUNK) {
      await importChunk(chunk, result, now);
      chunk = [];
    }
  }
  if (chunk.length) await importChunk(chunk, result, now);
  return result;
}

/**
 * Records a batch: the references already recorded are read once (duplicates), the rest inserted with one
 * multi-row INSERT. If a concurrent import inserted one of them meanwhile (unique violation), the batch falls back
 * to one INSERT per event (insertSimSwapEvent), which tells the duplicates apart. Then the effects of each new
 * event of a subscriber's number (one read of the batch's subscribers).
 */
async function importChunk(chunk: ParsedLine[], result: SimSwapImport, now: Date): Promise<void> {
  const byReference = new Map<string, ParsedLine>();
  for (const e of chunk) if (!byReference.has(e.reference)) byReference.set(e.reference, e); // the first one counts
  const unique = [...byReference.values()];
  result.duplicates += chunk.length - unique.length;
  const existing = new Set((await db.simSwapEvent.findMany({
    where: { source: "import", reference: { in: unique.map((e) => e.reference) } }, select: { reference: true },
  })).map((r) => r.reference));
  const fresh = unique.filter((e) => !existing.has(e.reference));
  result.duplicates += unique.length - fresh.length;
  let created: ParsedLine[] = fresh;
  try {
    if (fresh.length) {
      await db.simSwapEvent.createMany({ data: fresh.map((e) => ({ id: uuidV7(), msisdn: e.msisdn,
        swappedAt: e.swappedAt, source: "import", reference: e.reference })) });
    }
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    created = [];
    for (const e of fresh) {
      if ((await insertSimSwapEvent({ ...e, source: "import" })).created) created.push(e);
      else result.duplicates += 1;
    }
  }
  result.imported += created.length;
  if (!created.length) return;
  const subscribers = new Map((await db.subscriber.findMany({
    where: { msisdn: { in: [...new Set(created.map((e) => e.msisdn))] } }, select: { id: true, msisdn: true },
  })).map((s) => [s.msisdn, s.id]));
  for (const e of created) {
    const subscriberId = subscribers.get(e.msisdn);
    if (!subscriberId) continue;
    await applySimSwap({ subscriberId, msisdn: e.msisdn, swappedAt: e.swappedAt, source: "import", now });
    result.applied += 1;
  }
}
