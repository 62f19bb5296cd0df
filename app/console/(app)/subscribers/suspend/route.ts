import { consolePost } from "@/lib/console/console-post";
import { formSubscriber, subscriberPage } from "@/lib/console/subscribers/subscriber-action";
import { suspendSubscriber } from "@/lib/subscribers/suspend-subscriber";

// POST /console/subscribers/suspend - care: refuses sign-in, ends sessions, revokes tokens (the CLI's
// `subscriber suspend`); only with the confirmation box ticked.
export const POST = consolePost("care", async ({ form }) => {
  const s = await formSubscriber(form);
  if ("refused" in s) return s.refused;
  if (form.get("confirm") !== "yes") return { back: subscriberPage(s.id), e: "confirm" };
  await suspendSubscriber({ id: s.id });
  return { back: subscriberPage(s.id), done: "suspended",
    audit: { type: "console_subscribers_suspend", outcome: "success", subscriberId: s.id } };
});
