/* Legacy admin helpers. Loaded as a classic <script> (not a module) before
   table.js by views/admin/layout.html; every top-level function is a global. */
"use strict";

function formatCurrency(cents, currency) {
  var amount = (cents / 100).toFixed(2);
  return (currency || "USD") + " " + amount.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function formatDate(iso) {
  var date = new Date(iso);
  if (isNaN(date.getTime())) {
    return "-";
  }
  return date.toLocaleDateString("en-GB", { day: "2-digit", month: "short", year: "numeric" });
}
