"use strict";

function required(env, name) {
  const value = env[name];
  if (value === undefined || value === "") {
    throw new Error(`missing required environment variable ${name}`);
  }
  return value;
}

function optionalInt(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const parsed = Number.parseInt(raw, 10);
  if (Number.isNaN(parsed)) {
    throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  }
  return parsed;
}

function loadConfig(env = process.env) {
  return {
    databaseUrl: required(env, "DATABASE_URL"),
    jwtSecret: required(env, "JWT_SECRET"),
    port: optionalInt(env, "PORT", 3000),
    workerConcurrency: optionalInt(env, "WORKER_CONCURRENCY", 4),
  };
}

module.exports = { loadConfig, required, optionalInt };
