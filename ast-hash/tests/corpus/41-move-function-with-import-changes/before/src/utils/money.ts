export type CurrencyCode = "USD" | "EUR" | "GBP" | "JPY";

const MINOR_UNITS: Record<CurrencyCode, number> = { USD: 2, EUR: 2, GBP: 2, JPY: 0 };

export function toMinor(amount: number, currency: CurrencyCode): number {
  return Math.round(amount * 10 ** MINOR_UNITS[currency]);
}

export function fromMinor(minor: number, currency: CurrencyCode): number {
  return minor / 10 ** MINOR_UNITS[currency];
}

export function formatMoney(minor: number, currency: CurrencyCode, locale = "en-US"): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(fromMinor(minor, currency));
}

export function sumMinor(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

export function splitEvenly(minor: number, parts: number): number[] {
  const base = Math.floor(minor / parts);
  const remainder = minor - base * parts;
  return Array.from({ length: parts }, (_, index) => base + (index < remainder ? 1 : 0));
}
