import { setStaffDisabled } from "@/lib/console/staff-accounts";
import { staffAction } from "@/lib/console/staff-action";

// POST /console/staff/disable - the member's sessions end at once; an administrator may not disable themself.
export const POST = staffAction("disable", async ({ username }) => {
  await setStaffDisabled(username, true);
  return { done: "disabled" };
}, { selfRefused: () => true });
