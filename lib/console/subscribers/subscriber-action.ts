import type { Params } from "../../http/params";
import type { ConsoleActionResult } from "../console-post";
import { findSubscriber } from "../../subscribers/find-subscriber";

/**
 * The subscriber a care action names (the form's hidden `id`), or the result that sends the member back to the
 * list saying there is none. One read.
 */
export async function formSubscriber(form: Params): Promise<{ id: string } | { refused: ConsoleActionResult }> {
  const id = form.get("id") ?? "";
  const found = id && id.length <= 100 ? await findSubscriber({ id }) : null;
  if (!found) return { refused: { back: "/console/subscribers", e: "unknown" } };
  return { id: found.id };
}

/** The subscriber page a care action returns to. */
export const subscriberPage = (id: string) => `/console/subscribers/${encodeURIComponent(id)}`;
