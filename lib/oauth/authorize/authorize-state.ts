import type { RegisteredClient } from "../../clients/get-client";
import type { LiveSession } from "../../sessions/live-session";
import type { RawParams } from "./collect-params";
import type { NextStep } from "./decide-next-step";
import type { StepContext } from "./respond-with-error";
import type { AuthorizationParams } from "./types";
import type { ValidatedRequest } from "./validate-params";

/**
 * The entry points of the authorization pipeline (pipeline.ts): `/authorize`, `/authorize/resume/{id}`
 * (after each interaction screen) and `/authorize/wait/{id}` (a `prompt=mobile` request waiting for
 * the handset).
 */
export type Entry = "authorize" | "resume" | "wait";

/** The stored request a resume or a wait works on, as far as the steps need it. */
export interface StoredRequest {
  id: string;
  status: string;
  sessionId: string | null;
  expiresAt: Date;
}

/** What the steps of one authorization request have found so far; each step reads and adds to it. */
export interface AuthorizeState {
  entry: Entry;
  req: Request;
  /** Where errors go once the client and redirect URI are verified (runAuthorizeStep). */
  ctx: StepContext;
  /** The stored request's id from the path (resume, wait). */
  id?: string;
  pairs?: Array<[string, string]>;
  raw?: RawParams;
  client?: RegisteredClient;
  clientAuthenticated?: boolean;
  /** The parameters came from a pushed request (RFC 9126) and/or a signed request object (RFC 9101). */
  requestSource?: { pushed: boolean; signed: boolean };
  browserId?: string | null;
  validated?: ValidatedRequest;
  params?: AuthorizationParams;
  stored?: StoredRequest;
  /** The handset request a `prompt=mobile` request waits on. */
  handset?: { id: string; checkCode: string; clientName: string };
  browserIdHash?: string | null;
  next?: NextStep;
  /** The session the code is issued for, once one answers the request. */
  session?: LiveSession;
  /** Cookies a step set on the way (a new browser signed in by the network): added to the response (pipeline.ts). */
  setCookies?: string[];
}

/**
 * One step: adds to the state and returns nothing to go on, or returns the response (a redirect, a
 * page) that ends the request; throws an OAuthError / AuthorizePageError to end it with an error.
 */
export type AuthorizeStep = (state: AuthorizeState) => Promise<Response | void> | Response | void;

/** A field an earlier step must have set (the list's order guarantees it; a miss is a programming error). */
export function need<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`authorization pipeline: ${name} is not set by an earlier step`);
  return value;
}
