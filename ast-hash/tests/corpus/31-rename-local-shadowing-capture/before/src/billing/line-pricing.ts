import { roundCents } from "./money";

/** Standard VAT rate applied to every line of a cart. */
const rate = 0.2;

export interface CartLine {
  sku: string;
  priceCents: number;
  quantity: number;
  discount: number;
}

export function lineTotalCents(line: CartLine): number {
  const d = line.discount;
  const net = line.priceCents * line.quantity * (1 - d);
  return roundCents(net * (1 + rate));
}

export function cartTotalCents(lines: CartLine[]): number {
  return lines.reduce((sum, line) => sum + lineTotalCents(line), 0);
}

export function vatPortionCents(lines: CartLine[]): number {
  const gross = cartTotalCents(lines);
  return roundCents(gross - gross / (1 + rate));
}
