const DIACRITICS = /[\u0300-\u036f]/g
const NON_WORD = /[^a-z0-9]+/g
const EDGE_DASHES = /^-+|-+$/g
const RESERVED = new Set(["admin", "api", "new", "settings"])

export function slugify(input, maxLength = 64) {
  const normalized = input
    .normalize("NFKD")
    .replace(DIACRITICS, "")
    .toLowerCase()
  let slug = normalized.replace(NON_WORD, "-").replace(EDGE_DASHES, "")
  if (slug.length > maxLength) {
    slug = slug.slice(0, maxLength).replace(EDGE_DASHES, "")
  }
  return slug || "untitled"
}

export function uniqueSlug(input, taken) {
  const base = slugify(input)
  let candidate = RESERVED.has(base) ? `${base}-1` : base
  let counter = 2
  while (taken.has(candidate)) {
    candidate = `${base}-${counter}`
    counter += 1
  }
  return candidate
}

export function isValidSlug(value) {
  return value.length > 0 && value === slugify(value, value.length) && !RESERVED.has(value)
}
