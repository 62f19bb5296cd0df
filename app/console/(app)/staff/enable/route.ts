import { setStaffDisabled } from "@/lib/console/staff-accounts";
import { staffAction } from "@/lib/console/staff-action";

// POST /console/staff/enable - re-enables a member and lifts a sign-in lockout.
export const POST = staffAction("enable", async ({ username }) => {
  await setStaffDisabled(username, false);
  return { done: "enabled" };
});
