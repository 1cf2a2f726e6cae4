export function groupTotals(rows, keyField, valueField) {
  const totals = new Map();
  for (let rowIndex = 0; rowIndex < rows.length; rowIndex++) {
    const key = rows[rowIndex][keyField];
    totals.set(key, (totals.get(key) || 0) + Number(rows[rowIndex][valueField]));
  }
  return totals;
}

export function topN(totals, n) {
  const entries = [];
  for (const [groupKey, groupTotal] of totals) {
    entries.push({ key: groupKey, total: groupTotal });
  }
  entries.sort((a, b) => b.total - a.total);
  return entries.slice(0, n);
}

export function toCsv(entries) {
  const lines = ["key,total"];
  for (const row of entries) {
    lines.push(`${JSON.stringify(String(row.key))},${row.total.toFixed(2)}`);
  }
  return lines.join("\n");
}

export function percentiles(values, points) {
  const sorted = [...values].sort((a, b) => a - b);
  const result = {};
  for (const point of points) {
    const index = Math.min(sorted.length - 1, Math.floor((point / 100) * sorted.length));
    result[`p${point}`] = sorted[index];
  }
  return result;
}
