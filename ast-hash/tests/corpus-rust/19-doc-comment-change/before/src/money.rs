//! Money amounts as integer cents.

use std::fmt;
use std::str::FromStr;

/// An amount of money in cents. Negative amounts are refunds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Money(pub i64);

#[derive(Debug, PartialEq, Eq)]
pub struct ParseMoneyError;

impl FromStr for Money {
    type Err = ParseMoneyError;

    /// Parses `"12.34"` or `"-0.5"`; at most two decimals.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (neg, digits) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if frac.len() > 2 || whole.is_empty() {
            return Err(ParseMoneyError);
        }
        let whole: i64 = whole.parse().map_err(|_| ParseMoneyError)?;
        let frac: i64 = format!("{frac:0<2}").parse().map_err(|_| ParseMoneyError)?;
        let cents = whole * 100 + frac;
        Ok(Money(if neg { -cents } else { cents }))
    }
}

impl fmt::Display for Money {
    /// Formats with two decimals:
    ///
    /// ```
    /// # use shop::money::Money;
    /// assert_eq!(Money(-1250).to_string(), "-12.50");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
    }
}
