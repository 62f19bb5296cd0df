import { setStaffRole } from "@/lib/console/staff-accounts";
import { staffAction } from "@/lib/console/staff-action";

// POST /console/staff/role - a member's new role (their sessions end); an administrator may not demote themself.
export const POST = staffAction("role", async ({ username, form }) => {
  await setStaffRole(username, form.get("role") ?? "");
  return { done: "role" };
}, { selfRefused: (form) => form.get("role") !== "admin" });
