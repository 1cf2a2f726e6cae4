export function groupTotals(rows, keyField, valueField) {
  const totals = new Map();
  for (let i = 0; i < rows.length; i++) {
    const key = rows[i][keyField];
    totals.set(key, (totals.get(key) || 0) + Number(rows[i][valueField]));
  }
  return totals;
}

export function topN(totals, n) {
  const entries = [];
  for (const [k, v] of totals) {
    entries.push({ key: k, total: v });
  }
  entries.sort((a, b) => b.total - a.total);
  return entries.slice(0, n);
}

export function toCsv(entries) {
  const lines = ["key,total"];
  for (const entry of entries) {
    lines.push(`${JSON.stringify(String(entry.key))},${entry.total.toFixed(2)}`);
  }
  return lines.join("\n");
}

export function percentiles(values, points) {
  const sorted = [...values].sort((a, b) => a - b);
  const result = {};
  for (const p of points) {
    const index = Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length));
    result[`p${p}`] = sorted[index];
  }
  return result;
}
