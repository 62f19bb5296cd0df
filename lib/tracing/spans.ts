import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";
import { tracing } from "./tracing-state";

/**
 * Runs `fn` inside a child span of the active one (the request's), ending it when `fn` settles; an
 * error marks the span failed with the error's class name only (messages can quote request data).
 * Callers check `tracing.on` first so that with tracing off nothing here runs.
 */
export function inSpan<T>(name: string, kind: SpanKind, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracing.tracer!.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      failed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** `inSpan` for a synchronous `fn` (better-sqlite3 statements). */
export function inSpanSync<T>(name: string, kind: SpanKind, attributes: Attributes, fn: () => T): T {
  const span = tracing.tracer!.startSpan(name, { kind, attributes });
  try {
    return fn();
  } catch (err) {
    failed(span, err);
    throw err;
  } finally {
    span.end();
  }
}

function failed(span: Span, err: unknown) {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute("error.type", err instanceof Error ? err.name : "error");
}

/** The span name of a statement: its first keyword (`SELECT`, `INSERT`...), as the conventions allow without a table. */
export function statementName(sql: string): string {
  const m = /^\s*([A-Za-z]+)/.exec(sql);
  return m ? m[1]!.toUpperCase() : "SQL";
}

/**
 * A database statement as a CLIENT span: db.system and db.query.text only. The text is the prepared
 * statement with its placeholders (`?`, `$1`); parameter values are never recorded. Only under a
 * span (a request's): the background loops' statements (purge, outbox polls) would otherwise make
 * one single-span trace each.
 */
export function dbSpan<T>(system: "sqlite" | "postgresql", sql: string, fn: () => Promise<T>): Promise<T> {
  if (!trace.getSpan(context.active())) return fn();
  return inSpan(statementName(sql), SpanKind.CLIENT, { "db.system": system, "db.query.text": sql }, fn);
}

/** `dbSpan` for a synchronous statement. */
export function dbSpanSync<T>(system: "sqlite" | "postgresql", sql: string, fn: () => T): T {
  if (!trace.getSpan(context.active())) return fn();
  return inSpanSync(statementName(sql), SpanKind.CLIENT, { "db.system": system, "db.query.text": sql }, fn);
}

/** A JWT signature (`jwt.sign`, INTERNAL) with its alg and kid: never the claims nor the token. */
export function signSpan<T>(alg: string, kid: string, fn: () => Promise<T>): Promise<T> {
  return inSpan("jwt.sign", SpanKind.INTERNAL, { "jwt.alg": alg, "jwt.kid": kid }, fn);
}

/**
 * An outbound HTTP call as a CLIENT span: method, the target's host and path (never its query, which
 * may carry tokens), and the response status set by the caller (`span.setAttribute`).
 */
export function outboundSpan<T>(method: string, url: string, fn: (span: Span) => Promise<T>): Promise<T> {
  let host = "", path = "";
  try {
    const u = new URL(url);
    host = u.hostname;
    path = u.pathname;
  } catch { /* an invalid URL fails in fn; the span keeps empty attributes */ }
  return inSpan(method, SpanKind.CLIENT, { "http.request.method": method, "server.address": host, "url.path": path }, fn);
}

export { tracing };
