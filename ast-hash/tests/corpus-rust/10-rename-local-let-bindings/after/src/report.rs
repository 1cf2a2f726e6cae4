use std::collections::BTreeMap;
use std::fmt::Write;

pub struct Order {
    pub customer: String,
    pub day: String,
    pub total_cents: i64,
}

/// One line per day: date, order count and revenue.
pub fn daily_summary(orders: &[Order]) -> String {
    let mut by_day: BTreeMap<&str, Vec<&Order>> = BTreeMap::new();
    for o in orders {
        by_day.entry(o.day.as_str()).or_default().push(o);
    }
    let mut out = String::new();
    for (day, group) in &by_day {
        let cents: i64 = group.iter().map(|o| o.total_cents).sum();
        let _ = writeln!(out, "{}  {:3} orders  {:>10.2}", day, group.len(), cents as f64 / 100.0);
    }
    out
}

/// The customer with the highest total spend; ties go to the smaller name.
pub fn top_customer(orders: &[Order]) -> Option<(&str, i64)> {
    let mut spent: BTreeMap<&str, i64> = BTreeMap::new();
    for o in orders {
        *spent.entry(o.customer.as_str()).or_insert(0) += o.total_cents;
    }
    let mut best: Option<(&str, i64)> = None;
    for (customer, amount) in spent {
        if best.map_or(true, |(_, b)| amount > b) {
            best = Some((customer, amount));
        }
    }
    best
}
