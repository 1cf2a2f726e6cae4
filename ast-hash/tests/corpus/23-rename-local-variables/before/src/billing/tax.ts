export interface TaxRule {
  region: string;
  rate: number;
  exemptCategories: string[];
}

export interface TaxableItem {
  category: string;
  amountCents: number;
}

export function computeTax(items: TaxableItem[], rules: TaxRule[], region: string): number {
  const rule = rules.find((candidate) => candidate.region === region);
  if (!rule) {
    return 0;
  }
  let taxable = 0;
  for (const item of items) {
    if (!rule.exemptCategories.includes(item.category)) {
      taxable += item.amountCents;
    }
  }
  const raw = taxable * rule.rate;
  return Math.round(raw);
}

export function effectiveRate(items: TaxableItem[], rules: TaxRule[], region: string): number {
  const gross = items.reduce((sum, item) => sum + item.amountCents, 0);
  if (gross === 0) {
    return 0;
  }
  const tax = computeTax(items, rules, region);
  return tax / gross;
}
