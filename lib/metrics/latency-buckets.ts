/** Latency buckets of ois_http_request_duration_seconds, in seconds: the hot path's milliseconds to a held wait. */
export const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
