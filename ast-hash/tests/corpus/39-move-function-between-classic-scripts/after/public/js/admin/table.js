/* Legacy admin table rendering. Classic <script>, loaded after format.js;
   it calls the format.js globals only at render time, never at load time. */
"use strict";

function renderRow(invoice) {
  return (
    "<tr>" +
    "<td>" + escapeHtml(invoice.number) + "</td>" +
    "<td>" + escapeHtml(truncate(invoice.customer, 32)) + "</td>" +
    "<td class=\"num\">" + formatCurrency(invoice.totalCents, invoice.currency) + "</td>" +
    "<td>" + formatDate(invoice.issuedAt) + "</td>" +
    "</tr>"
  );
}

function renderTable(invoices) {
  if (invoices.length === 0) {
    return "<p class=\"empty\">No invoices.</p>";
  }
  return "<table class=\"invoices\"><tbody>" + invoices.map(renderRow).join("") + "</tbody></table>";
}

function mountTable(containerId, invoices) {
  var container = document.getElementById(containerId);
  if (container) {
    container.innerHTML = renderTable(invoices);
  }
}

function escapeHtml(text) {
  return String(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

function truncate(text, max) {
  if (text.length <= max) {
    return text;
  }
  return text.slice(0, max - 1) + "\u2026";
}
