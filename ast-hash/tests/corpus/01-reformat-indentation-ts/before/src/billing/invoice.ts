import { Money, addMoney, zeroMoney } from "./money";
import type { Customer } from "../customers/types";

export interface InvoiceLine {
  sku: string;
  description: string;
  quantity: number;
  unitPrice: Money;
}

export interface Invoice {
  id: string;
  customer: Customer;
  lines: InvoiceLine[];
  issuedAt: Date;
  dueInDays: number;
}

export function invoiceSubtotal(invoice: Invoice): Money {
  let total = zeroMoney(invoice.customer.currency);
  for (const line of invoice.lines) {
    total = addMoney(total, { amount: line.unitPrice.amount * line.quantity, currency: line.unitPrice.currency });
  }
  return total;
}

export function dueDate(invoice: Invoice): Date {
  const due = new Date(invoice.issuedAt.getTime());
  due.setUTCDate(due.getUTCDate() + invoice.dueInDays);
  return due;
}

export function isOverdue(invoice: Invoice, now: Date = new Date()): boolean {
  return now.getTime() > dueDate(invoice).getTime() && invoice.lines.length > 0;
}
