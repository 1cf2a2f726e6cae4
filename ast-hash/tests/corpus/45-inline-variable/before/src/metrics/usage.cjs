"use strict";

const { percentile } = require("./stats.cjs");

function summarizeUsage(samples, windowMs) {
  const count = samples.length;
  if (count === 0) {
    return { count: 0, perSecond: 0, p50: null, p95: null, max: null };
  }
  const latencies = samples.map((sample) => sample.latencyMs);
  const perSecond = count / (windowMs / 1000);
  const max = Math.max(...latencies);
  return {
    count,
    perSecond: Number(perSecond.toFixed(2)),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max,
  };
}

function slowestEndpoints(samples, limit) {
  const byEndpoint = new Map();
  for (const sample of samples) {
    const list = byEndpoint.get(sample.endpoint) || [];
    list.push(sample.latencyMs);
    byEndpoint.set(sample.endpoint, list);
  }
  const ranked = [...byEndpoint.entries()]
    .map(([endpoint, values]) => ({ endpoint, p95: percentile(values, 95) }))
    .sort((a, b) => b.p95 - a.p95);
  return ranked.slice(0, limit);
}

module.exports = { summarizeUsage, slowestEndpoints };
