import { consolePost } from "@/lib/console/console-post";
import { liftThrottle } from "@/lib/console/limits/lift-throttle";

// POST /console/limits/lift - admin: deletes one abuse counter (its subject starts again from zero), audited.
export const POST = consolePost("admin", async ({ form }) => {
  const lifted = await liftThrottle({ key: form.get("key") ?? "" });
  if (!lifted) return { back: "/console/limits", e: "gone" };
  return { back: "/console/limits", done: "lifted",
    audit: { type: "console_limits_lift", outcome: "success", detail: { limit: lifted } } };
});
