import { consolePost } from "@/lib/console/console-post";
import { formSubscriber, subscriberPage } from "@/lib/console/subscribers/subscriber-action";
import { unlockSubscriber } from "@/lib/subscribers/unlock-subscriber";

// POST /console/subscribers/unlock - care: clears the subscriber's PIN lockout (the CLI's `subscriber unlock`).
export const POST = consolePost("care", async ({ form }) => {
  const s = await formSubscriber(form);
  if ("refused" in s) return s.refused;
  await unlockSubscriber({ id: s.id });
  return { back: subscriberPage(s.id), done: "unlocked",
    audit: { type: "console_subscribers_unlock", outcome: "success", subscriberId: s.id } };
});
