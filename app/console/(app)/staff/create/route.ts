import { createStaff } from "@/lib/console/staff-accounts";
import { showCredentials, staffAction } from "@/lib/console/staff-action";

// POST /console/staff/create - a new member (username, role); the password and TOTP enrolment are shown once.
export const POST = staffAction("create", async ({ username, form, m, lang }) => {
  const c = await createStaff({ username, role: form.get("role") ?? "" });
  return { show: showCredentials(c, m.shown.createdTitle(c.username), m, lang) };
});
