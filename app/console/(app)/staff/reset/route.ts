import { resetStaffCredentials } from "@/lib/console/staff-accounts";
import { showCredentials, staffAction } from "@/lib/console/staff-action";

// POST /console/staff/reset - a new password and TOTP secret (shown once), lockout lifted, the member's sessions ended.
export const POST = staffAction("reset", async ({ username, m, lang }) => {
  const c = await resetStaffCredentials(username);
  return { show: showCredentials(c, m.shown.resetTitle(c.username), m, lang) };
});
