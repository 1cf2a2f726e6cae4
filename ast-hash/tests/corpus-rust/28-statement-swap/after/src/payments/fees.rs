/// Monthly volume tiers: (volume threshold in cents, fee in basis points).
/// A payment is charged the rate of the tier the merchant was in *before* it.
const TIERS: [(i64, i64); 3] = [(0, 290), (1_000_000, 250), (10_000_000, 190)];

#[derive(Debug, Default)]
pub struct Merchant {
    pub volume_this_month: i64,
    pub fees_this_month: i64,
}

fn fee_bps(volume: i64) -> i64 {
    TIERS
        .iter()
        .rev()
        .find(|(threshold, _)| volume >= *threshold)
        .map_or(TIERS[0].1, |(_, bps)| *bps)
}

/// Records a payment and returns the fee charged for it, in cents.
pub fn charge(merchant: &mut Merchant, amount: i64) -> i64 {
    merchant.volume_this_month += amount;
    let fee = (amount * fee_bps(merchant.volume_this_month) + 5_000) / 10_000;
    merchant.fees_this_month += fee;
    fee
}

/// Starts a new billing month.
pub fn reset_month(merchant: &mut Merchant) {
    *merchant = Merchant::default();
}
