/// One line of a shopping cart.
#[derive(Debug, Clone)]
pub struct CartLine {
    pub sku: String,
    pub unit_cents: i64,
    pub quantity: i64,
    /// Fraction taken off the line, 0.0..=1.0.
    pub discount: f64,
}

/// VAT rate for a region code; unknown regions pay the standard rate.
pub fn vat_rate(region: &str) -> f64 {
    match region {
        "DE" => 0.19,
        "FR" => 0.20,
        "LU" => 0.17,
        _ => 0.21,
    }
}

/// Gross price of one line in cents, rounded to the nearest cent.
pub fn line_total_cents(line: &CartLine, region: &str) -> i64 {
    let rate = vat_rate(region);
    let rate = line.discount.clamp(0.0, 1.0);
    let net = (line.unit_cents * line.quantity) as f64 * (1.0 - rate);
    (net * (1.0 + rate)).round() as i64
}

/// Gross total of a cart.
pub fn cart_total_cents(lines: &[CartLine], region: &str) -> i64 {
    lines.iter().map(|l| line_total_cents(l, region)).sum()
}
