import type { Command } from "commander";
import type { AdminKit } from "./kit";

/** PLACEHOLDER of the foundation commit: the purposes command group (issue 21), filled in by its stream. */
export function register(_program: Command, _kit: AdminKit): void {}
