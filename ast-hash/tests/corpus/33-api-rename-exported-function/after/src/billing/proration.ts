export interface ProrationInput {
  oldPriceCents: number;
  newPriceCents: number;
  periodStart: Date;
  periodEnd: Date;
  changeAt: Date;
}

const MS_PER_DAY = 86_400_000;

function wholeDays(from: Date, to: Date): number {
  return Math.max(0, Math.round((to.getTime() - from.getTime()) / MS_PER_DAY));
}

export function calculateProration(input: ProrationInput): number {
  const totalDays = wholeDays(input.periodStart, input.periodEnd);
  if (totalDays === 0) return 0;
  const remainingDays = wholeDays(input.changeAt, input.periodEnd);
  const unusedCredit = (input.oldPriceCents * remainingDays) / totalDays;
  const newCharge = (input.newPriceCents * remainingDays) / totalDays;
  return Math.round(newCharge - unusedCredit);
}

export function describeProration(input: ProrationInput): string {
  const amount = calculateProration(input);
  if (amount === 0) return "No charge for this change.";
  return amount > 0
    ? `You will be charged $${(amount / 100).toFixed(2)} today.`
    : `You will receive a credit of $${(-amount / 100).toFixed(2)}.`;
}
