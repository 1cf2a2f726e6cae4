use std::fmt;

/// Alert severity. The derived `Ord` follows declaration order, which the
/// pager relies on: only alerts at or above the configured level page anyone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
    Critical,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
            Severity::Critical => "critical",
        };
        f.write_str(s)
    }
}

#[derive(Debug, Clone)]
pub struct Alert {
    pub severity: Severity,
    pub message: String,
}

/// Alerts that must page the on-call engineer, most severe first.
pub fn to_page(alerts: &[Alert], threshold: Severity) -> Vec<&Alert> {
    let mut out: Vec<&Alert> = alerts.iter().filter(|a| a.severity >= threshold).collect();
    out.sort_by(|a, b| b.severity.cmp(&a.severity));
    out
}
