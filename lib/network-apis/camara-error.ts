/**
 * An error of a network API in the CAMARA shape (CAMARA API Design Guide §3.2, CAMARA_common.yaml):
 * `{"status": <HTTP status>, "code": "<CODE>", "message": "<human text>"}`. One class, the codes as the published
 * API definitions spell them; `headers` carries `WWW-Authenticate` on 401s.
 */
export class CamaraError extends Error {
  readonly headers: Record<string, string>;

  constructor(readonly status: number, readonly code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "CamaraError";
    this.headers = headers;
  }

  toJSON() {
    return { status: this.status, code: this.code, message: this.message };
  }
}

/** The common errors (CAMARA_common.yaml), with their published default messages. */
export const camaraErrors = {
  invalidArgument: (message = "Client specified an invalid argument, request body or query param.") =>
    new CamaraError(400, "INVALID_ARGUMENT", message),
  outOfRange: (message = "Client specified an invalid range.") => new CamaraError(400, "OUT_OF_RANGE", message),
  unauthenticated: (message = "Request not authenticated due to missing, invalid, or expired credentials. "
    + "A new authentication is required.", challenge = 'Bearer error="invalid_token"') =>
    new CamaraError(401, "UNAUTHENTICATED", message, { "WWW-Authenticate": challenge }),
  permissionDenied: (message = "Client does not have sufficient permissions to perform this action.") =>
    new CamaraError(403, "PERMISSION_DENIED", message),
  invalidTokenContext: (message = "The phone number cannot be deduced from the access token context.") =>
    new CamaraError(403, "INVALID_TOKEN_CONTEXT", message),
  notFound: (message = "The specified resource is not found.") => new CamaraError(404, "NOT_FOUND", message),
  identifierNotFound: (message = "Device identifier not found.") =>
    new CamaraError(404, "IDENTIFIER_NOT_FOUND", message),
  methodNotAllowed: () => new CamaraError(405, "METHOD_NOT_ALLOWED", "The requested method is not allowed/supported on the target resource."),
  unsupportedMediaType: () => new CamaraError(415, "UNSUPPORTED_MEDIA_TYPE", "The request body must be application/json."),
  missingIdentifier: (message = "The phone number is not included in the request.") =>
    new CamaraError(422, "MISSING_IDENTIFIER", message),
  unnecessaryIdentifier: (message = "The phone number is already identified by the access token.") =>
    new CamaraError(422, "UNNECESSARY_IDENTIFIER", message),
  serviceNotApplicable: (message = "The service is not available for the provided phone number.") =>
    new CamaraError(422, "SERVICE_NOT_APPLICABLE", message),
  tooManyRequests: (retryAfter: number) => new CamaraError(429, "TOO_MANY_REQUESTS",
    "Rate limit reached.", { "Retry-After": String(retryAfter) }),
  internal: () => new CamaraError(500, "INTERNAL", "Server error."),
  unavailable: (retryAfter: number) => new CamaraError(503, "UNAVAILABLE", "Service Unavailable.",
    { "Retry-After": String(retryAfter) }),
};
