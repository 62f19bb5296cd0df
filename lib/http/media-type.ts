/** The media type of a request's body, lower-cased without parameters (RFC 9110 §8.3.1); "" when none. */
export function mediaType(req: Request): string {
  return (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}
