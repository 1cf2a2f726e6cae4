import React from "react";

export interface InvoiceRow {
  id: string;
  number: string;
  customerName: string;
  totalCents: number;
  status: "draft" | "open" | "paid" | "void";
}

const currency = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

export function InvoiceTable({ rows, onOpen }: { rows: InvoiceRow[]; onOpen: (id: string) => void }) {
  if (rows.length === 0) {
    return <p className="empty-state">No invoices yet.</p>;
  }
  return (
    <table className="invoice-table">
      <thead>
        <tr>
          <th scope="col">Number</th>
          <th scope="col">Customer</th>
          <th scope="col">Total</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} onClick={() => onOpen(row.id)}>
            <td>{row.number}</td>
            <td>{row.customerName}</td>
            <td className="numeric">{currency.format(row.totalCents / 100)}</td>
            <td>
              <span className={`badge badge--${row.status}`}>{row.status}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
