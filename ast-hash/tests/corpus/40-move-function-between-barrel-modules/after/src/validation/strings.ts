import type { ValidationResult } from "./result";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function validateEmail(value: string): ValidationResult {
  const trimmed = value.trim();
  if (trimmed.length > 254) return { ok: false, reason: "too_long" };
  return EMAIL.test(trimmed) ? { ok: true } : { ok: false, reason: "invalid_email" };
}

export function validateSlug(value: string, maxLength = 48): ValidationResult {
  if (value.length === 0) return { ok: false, reason: "empty" };
  if (value.length > maxLength) return { ok: false, reason: "too_long" };
  return SLUG.test(value) ? { ok: true } : { ok: false, reason: "invalid_slug" };
}
