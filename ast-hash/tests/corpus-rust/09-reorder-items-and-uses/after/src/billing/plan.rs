use std::fmt;

use std::collections::HashMap;

const YEARLY_DISCOUNT_PERCENT: i64 = 15;

pub const FREE_TRIAL_DAYS: u32 = 14;

/// How often a plan is charged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interval {
    Monthly,
    Yearly,
}

/// An amount in cents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cents(pub i64);

impl fmt::Display for Cents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}.{:02}", self.0 / 100, self.0 % 100)
    }
}

/// One entry of the price list.
#[derive(Debug, Clone)]
pub struct Plan {
    pub code: &'static str,
    pub price: Cents,
    pub interval: Interval,
}

/// What a plan costs when billed once a year.
pub fn yearly_price(plan: &Plan) -> Cents {
    match plan.interval {
        Interval::Yearly => plan.price,
        Interval::Monthly => {
            let full = plan.price.0 * 12;
            Cents(full - full * YEARLY_DISCOUNT_PERCENT / 100)
        }
    }
}

/// Price list indexed by plan code.
pub fn catalog(plans: &[Plan]) -> HashMap<&'static str, Plan> {
    plans.iter().map(|p| (p.code, p.clone())).collect()
}
