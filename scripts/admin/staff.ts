import { Option, type Command } from "commander";
import type { AdminKit } from "./kit";

/**
 * `staff create | list | set-role | disable | enable | reset` (issue 22, docs/console.md): the operator's staff
 * accounts for the web console. `create` and `reset` print the generated password and the TOTP enrolment
 * (secret and otpauth:// URI) once; only the password's scrypt hash and the sealed TOTP secret are stored.
 * Every command but `list` is audited (admin_staff_…).
 */
export function register(program: Command, kit: AdminKit): void {
  const { act, audited } = kit;
  for (const c of ["create", "set-role", "disable", "enable", "reset"]) audited.add(`staff ${c}`);
  const group = program.command("staff").description("console staff accounts (the web console at /console)");
  const roleOption = () => new Option("--role <role>", "viewer (reads), care (subscribers) or admin (everything)")
    .choices(["viewer", "care", "admin"]).makeOptionMandatory();
  const shown = (c: { username: string; password: string; totpSecret: string; totpUri: string }, what: string) => ({
    json: { username: c.username, password: c.password, totp_secret: c.totpSecret, totp_uri: c.totpUri },
    text: [`${what} ${c.username}.`, `password: ${c.password}`, `TOTP secret: ${c.totpSecret}`, `TOTP URI: ${c.totpUri}`,
      "Shown once: give them to the member over a safe channel; the member adds the URI to an authenticator app."],
  });

  group.command("create <username>").description("create a staff account (password and TOTP secret printed once)")
    .addOption(roleOption())
    .action(act(async (username: string, opts: { role: string }) => {
      const { createStaff } = await import("../../lib/console/staff-accounts");
      return shown(await createStaff({ username, role: opts.role }), `Created ${opts.role}`);
    }));

  group.command("list").description("list staff accounts").action(act(async () => {
    const { listStaff } = await import("../../lib/console/staff-accounts");
    const all = await listStaff();
    return {
      json: { staff: all.map((s) => ({ username: s.username, role: s.role, disabled: s.disabled,
        locked_until: s.lockedUntil?.toISOString() ?? null, last_sign_in_at: s.lastSignInAt?.toISOString() ?? null })) },
      text: all.length === 0 ? ["No staff accounts."] : all.map((s) => `${s.username}\t${s.role}${s.disabled ? "\tdisabled" : ""}`
        + `${s.lockedUntil && s.lockedUntil > new Date() ? `\tlocked until ${s.lockedUntil.toISOString()}` : ""}`),
    };
  }));

  group.command("set-role <username>").description("change a member's role (ends their console sessions)")
    .addOption(roleOption())
    .action(act(async (username: string, opts: { role: string }) => {
      const { setStaffRole } = await import("../../lib/console/staff-accounts");
      const s = await setStaffRole(username, opts.role);
      return { json: { username: s.username, role: s.role }, text: [`${s.username} is now ${s.role}.`] };
    }));

  group.command("disable <username>").description("disable a member (ends their console sessions at once)")
    .action(act(async (username: string) => {
      const { setStaffDisabled } = await import("../../lib/console/staff-accounts");
      const s = await setStaffDisabled(username, true);
      return { json: { username: s.username, disabled: true }, text: [`${s.username} disabled.`] };
    }));

  group.command("enable <username>").description("re-enable a member (also lifts a sign-in lockout)")
    .action(act(async (username: string) => {
      const { setStaffDisabled } = await import("../../lib/console/staff-accounts");
      const s = await setStaffDisabled(username, false);
      return { json: { username: s.username, disabled: false }, text: [`${s.username} enabled.`] };
    }));

  group.command("reset <username>").description("new password and TOTP secret (printed once); ends their sessions")
    .action(act(async (username: string) => {
      const { resetStaffCredentials } = await import("../../lib/console/staff-accounts");
      return shown(await resetStaffCredentials(username), "Reset");
    }));
}
