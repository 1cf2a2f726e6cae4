export interface Column<T> {
  header: string;
  value: (row: T) => string | number;
  align?: "left" | "right";
}

const SEPARATOR = "  |  ";

function pad(text: string, width: number, align: "left" | "right"): string {
  return align === "right" ? text.padStart(width) : text.padEnd(width);
}

export function renderTable<T>(rows: T[], columns: Column<T>[]): string {
  const cells = rows.map((row) => columns.map((column) => String(column.value(row))));
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...cells.map((line) => line[index].length)),
  );
  const header = columns.map((column, index) => pad(column.header, widths[index], "left")).join(SEPARATOR);
  const rule = widths.map((width) => "-".repeat(width)).join("-+-");
  const body = cells.map((line) =>
    line.map((cell, index) => pad(cell, widths[index], columns[index].align ?? "left")).join(SEPARATOR),
  );
  return [header, rule, ...body].join("\n");
}
