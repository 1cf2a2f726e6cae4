import { formatMoney, sumMinor, type CurrencyCode } from "../utils/money";

export interface ReceiptLine {
  label: string;
  quantity: number;
  unitMinor: number;
}

export interface Receipt {
  number: string;
  currency: CurrencyCode;
  lines: ReceiptLine[];
  taxMinor: number;
}

export function renderReceipt(receipt: Receipt): string {
  const lineTotals = receipt.lines.map((line) => line.quantity * line.unitMinor);
  const subtotal = sumMinor(lineTotals);
  const rows = receipt.lines.map(
    (line, index) => `${line.quantity} x ${line.label}`.padEnd(40) + formatMoney(lineTotals[index], receipt.currency),
  );
  return [
    `Receipt ${receipt.number}`,
    ...rows,
    "-".repeat(52),
    "Subtotal".padEnd(40) + formatMoney(subtotal, receipt.currency),
    "Tax".padEnd(40) + formatMoney(receipt.taxMinor, receipt.currency),
    "Total".padEnd(40) + formatMoney(subtotal + receipt.taxMinor, receipt.currency),
  ].join("\n");
}
