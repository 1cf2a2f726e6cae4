"""Stock levels per warehouse and the reorder rule used by the nightly job."""

from dataclasses import dataclass, field
from typing import Dict, List, Optional


@dataclass
class StockLevel:
  sku: str
  warehouse: str
  on_hand: int = 0
  reserved: int = 0
  incoming: List[int] = field(default_factory=list)

  def available(self) -> int:
    return max(self.on_hand - self.reserved, 0)

  def projected(self) -> int:
    return self.available() + sum(self.incoming)


def needs_reorder(level: StockLevel, minimum: int, lead_time_days: int, daily_demand: float) -> bool:
  expected_use = daily_demand * lead_time_days
  if level.projected() - expected_use < minimum:
    return True
  return False


def reorder_quantity(level: StockLevel, minimum: int, maximum: int, pack_size: int = 1) -> int:
  shortfall = maximum - level.projected()
  if shortfall <= 0 or level.projected() >= minimum:
    return 0
  packs = -(-shortfall // pack_size)
  return packs * pack_size


def summarize(levels: List[StockLevel], warehouse: Optional[str] = None) -> Dict[str, int]:
  totals: Dict[str, int] = {}
  for level in levels:
    if warehouse is not None and level.warehouse != warehouse:
      continue
    totals[level.sku] = totals.get(level.sku, 0) + level.available()
  return totals


def low_stock_report(levels: List[StockLevel], minimum: int) -> List[str]:
  lines = []
  for level in sorted(levels, key=lambda l: (l.warehouse, l.sku)):
    if level.available() < minimum:
      lines.append("%s/%s: %d available (minimum %d)" % (level.warehouse, level.sku, level.available(), minimum))
  return lines
