import { consolePost } from "@/lib/console/console-post";
import { formSubscriber, subscriberPage } from "@/lib/console/subscribers/subscriber-action";
import { activateSubscriber } from "@/lib/subscribers/activate-subscriber";

// POST /console/subscribers/resume - care: lets a suspended subscriber sign in again (the CLI's `subscriber activate`).
export const POST = consolePost("care", async ({ form }) => {
  const s = await formSubscriber(form);
  if ("refused" in s) return s.refused;
  await activateSubscriber({ id: s.id });
  return { back: subscriberPage(s.id), done: "resumed",
    audit: { type: "console_subscribers_resume", outcome: "success", subscriberId: s.id } };
});
