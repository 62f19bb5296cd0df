import type { ConsoleAction } from "../console-post";
import { AdminError } from "../../admin/admin-error";
import { rotateKeys } from "../../keys/rotate-keys";
import { isSigningAlg, KEY_CACHE_MS } from "../../keys/key-store";
import { unpublishKey } from "../../keys/unpublish-key";

// The console's key actions (app/console/(app)/keys/<verb>/route.ts, admin only), audited `console_keys_<verb>`.

/**
 * Rotates the `use` (sig or enc) key like `keys rotate --use [--alg]`: for sig, the form's `alg` only, or every
 * signing algorithm's key when the form has none.
 */
export const rotateKeysAction: ConsoleAction = async ({ form }) => {
  const use = form.get("use");
  if (use !== "sig" && use !== "enc") throw new AdminError("use must be sig or enc");
  const alg = form.get("alg") || undefined;
  if (alg !== undefined && (use !== "sig" || !isSigningAlg(alg))) throw new AdminError("alg must be a signing algorithm of a sig key");
  // A second click within a minute would activate a key other instances do not publish yet (docs/operations.md).
  const { rotated } = await rotateKeys({ use, alg, minNextAgeMs: KEY_CACHE_MS });
  return { back: "/console/keys", done: "rotated",
    audit: { type: "console_keys_rotate", outcome: "success",
      detail: { use, alg: alg ?? (use === "sig" ? "all" : null), activated: rotated.map((r) => r.activated).join(" "),
        next: rotated.map((r) => r.next).join(" ") } } };
};

/**
 * Ends a retired key's publication early (lib/keys/unpublish-key.ts), only with the form's explicit
 * confirmation (`confirm=yes`, a checkbox saying what stops verifying); without it nothing changes.
 */
export const unpublishKeyAction: ConsoleAction = async ({ form }) => {
  if (form.get("confirm") !== "yes") return { back: "/console/keys", e: "confirm" };
  const { kid, use } = await unpublishKey({ kid: form.get("kid") ?? "" });
  return { back: "/console/keys", done: "unpublished",
    audit: { type: "console_keys_unpublish", outcome: "success", detail: { kid, use } } };
};
