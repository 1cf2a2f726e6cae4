use std::collections::BTreeMap;
use std::fmt::Write;

pub struct Order {
    pub customer: String,
    pub day: String,
    pub total_cents: i64,
}

/// One line per day: date, order count and revenue.
pub fn daily_summary(orders: &[Order]) -> String {
    let mut m: BTreeMap<&str, Vec<&Order>> = BTreeMap::new();
    for o in orders {
        m.entry(o.day.as_str()).or_default().push(o);
    }
    let mut s = String::new();
    for (d, v) in &m {
        let t: i64 = v.iter().map(|o| o.total_cents).sum();
        let _ = writeln!(s, "{}  {:3} orders  {:>10.2}", d, v.len(), t as f64 / 100.0);
    }
    s
}

/// The customer with the highest total spend; ties go to the smaller name.
pub fn top_customer(orders: &[Order]) -> Option<(&str, i64)> {
    let mut acc: BTreeMap<&str, i64> = BTreeMap::new();
    for o in orders {
        *acc.entry(o.customer.as_str()).or_insert(0) += o.total_cents;
    }
    let mut best: Option<(&str, i64)> = None;
    for (c, n) in acc {
        if best.map_or(true, |(_, b)| n > b) {
            best = Some((c, n));
        }
    }
    best
}
