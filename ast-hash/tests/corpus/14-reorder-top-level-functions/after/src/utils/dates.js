const MS_PER_DAY = 24 * 60 * 60 * 1000;

export function businessDaysBetween(from, to) {
  let count = 0;
  for (let cursor = startOfDayUtc(from); cursor < to; cursor = addDays(cursor, 1)) {
    if (!isWeekend(cursor)) count += 1;
  }
  return count;
}

export function isWeekend(date) {
  const day = date.getUTCDay();
  return day === 0 || day === 6;
}

export function daysBetween(from, to) {
  return Math.round((startOfDayUtc(to).getTime() - startOfDayUtc(from).getTime()) / MS_PER_DAY);
}

export function startOfDayUtc(date) {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

export function addDays(date, days) {
  return new Date(date.getTime() + days * MS_PER_DAY);
}

export function isoDate(date) {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

function pad(value) {
  return String(value).padStart(2, "0");
}
