import type { Command } from "commander";

/** What a command produces: the JSON object for --json, the lines for people (scripts/admin.ts output contract). */
export type Output = { json: Record<string, unknown>; text: string[] };

/**
 * What scripts/admin.ts lends the command groups that live in their own files (the network APIs' groups, issue 21):
 * `act` wraps an action so its Output is printed by the one printer; a name added to `audited` ("group command")
 * is written to the audit log after it succeeds, with the operating-system user as the actor.
 */
export interface AdminKit {
  act<A extends unknown[]>(fn: (...args: A) => Promise<Output>): (...args: A) => Promise<void>;
  audited: Set<string>;
}

export type RegisterCommands = (program: Command, kit: AdminKit) => void;
