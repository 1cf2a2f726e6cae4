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
  const matchingRule = rules.find((entry) => entry.region === region);
  if (!matchingRule) {
    return 0;
  }
  let taxableCents = 0;
  for (const item of items) {
    if (!matchingRule.exemptCategories.includes(item.category)) {
      taxableCents += item.amountCents;
    }
  }
  const unrounded = taxableCents * matchingRule.rate;
  return Math.round(unrounded);
}

export function effectiveRate(items: TaxableItem[], rules: TaxRule[], region: string): number {
  const grossCents = items.reduce((sum, item) => sum + item.amountCents, 0);
  if (grossCents === 0) {
    return 0;
  }
  const taxCents = computeTax(items, rules, region);
  return taxCents / grossCents;
}
