import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "x-correlation-id";
const VALID_ID = /^[A-Za-z0-9._-]{8,128}$/;

export function requestId() {
  return function requestIdMiddleware(req, res, next) {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const id = typeof incoming === "string" && VALID_ID.test(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    next();
  };
}

export function childLogger(logger, req) {
  return logger.child({ requestId: req.id, method: req.method, path: req.url });
}

export function forwardHeaders(req, extra = {}) {
  return { ...extra, [REQUEST_ID_HEADER]: req.id };
}
