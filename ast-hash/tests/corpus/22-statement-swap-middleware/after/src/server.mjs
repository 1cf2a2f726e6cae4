import express from "express";
import helmet from "helmet";
import { requestId } from "./middleware/request-id.mjs";
import { requireSession } from "./middleware/session.mjs";
import { apiRouter } from "./routes/api.mjs";
import { healthRouter } from "./routes/health.mjs";

const app = express();

app.disable("x-powered-by");
app.use(helmet());
app.use(requestId());
app.use(express.json({ limit: "1mb" }));
app.use(requireSession());
app.use("/health", healthRouter);
app.use("/api", apiRouter);

app.use((err, req, res, next) => {
  if (res.headersSent) {
    next(err);
    return;
  }
  req.log?.error(err);
  res.status(err.status ?? 500).json({ error: err.expose ? err.message : "internal_error" });
});

export function start(port = Number(process.env.PORT ?? 3000)) {
  return app.listen(port, () => {
    console.log(`listening on :${port}`);
  });
}

export default app;
