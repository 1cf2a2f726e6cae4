import type { ValidationResult } from "./result";

export function validatePercentage(value: number): ValidationResult {
  if (Number.isNaN(value)) return { ok: false, reason: "not_a_number" };
  return value >= 0 && value <= 100 ? { ok: true } : { ok: false, reason: "out_of_range" };
}

export function validatePort(value: number): ValidationResult {
  if (!Number.isInteger(value)) return { ok: false, reason: "not_integer" };
  return value >= 1 && value <= 65535 ? { ok: true } : { ok: false, reason: "out_of_range" };
}

export function validateAmountCents(value: number, max = 100_000_000): ValidationResult {
  if (!Number.isSafeInteger(value)) return { ok: false, reason: "not_integer" };
  if (value < 0) return { ok: false, reason: "negative" };
  return value <= max ? { ok: true } : { ok: false, reason: "too_large" };
}

export function validateQuantity(value: number, max = 999): ValidationResult {
  if (!Number.isInteger(value)) return { ok: false, reason: "not_integer" };
  if (value < 1) return { ok: false, reason: "too_small" };
  return value <= max ? { ok: true } : { ok: false, reason: "too_large" };
}
