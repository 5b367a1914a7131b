"""Plain data objects shared by the ledger, the price list and the storage layer."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

_SKU_RE = re.compile(r"^[A-Z0-9][A-Z0-9-]{1,31}$")


@dataclass(frozen=True)
class Sku:
    """A stock-keeping unit code such as ``WIDGET-1``.

    Codes are upper-case; lower-case input is normalised so that ``widget-1``
    and ``WIDGET-1`` refer to the same item.
    """

    code: str

    def __post_init__(self):
        normalised = self.code.strip().upper()
        if not _SKU_RE.match(normalised):
            raise ValueError(f"invalid SKU code: {self.code!r}")
        object.__setattr__(self, "code", normalised)

    def __str__(self):
        return self.code


@dataclass(frozen=True)
class Location:
    """A place where stock is kept: a warehouse, a shop floor, a van."""

    name: str
    sellable: bool = True

    def __str__(self):
        return self.name


@dataclass
class StockLevel:
    """Counters for one SKU at one location.

    ``reserved`` units are still physically on hand but promised to an order;
    ``in_transit`` units have left another location and not yet arrived here.
    """

    on_hand: int = 0
    reserved: int = 0
    in_transit: int = 0

    @property
    def available(self) -> int:
        return self.on_hand - self.reserved

    def copy(self) -> "StockLevel":
        return StockLevel(self.on_hand, self.reserved, self.in_transit)


@dataclass
class Reservation:
    """Units of a SKU promised to an order.

    ``quantity`` is what was originally reserved; ``shipped`` grows as the
    order is fulfilled in one or more shipments.
    """

    id: str
    sku: Sku
    location: Location
    quantity: int
    order_ref: Optional[str] = None
    shipped: int = 0
    notes: list = field(default_factory=list)

    @property
    def remaining(self) -> int:
        return self.quantity - self.shipped

    @property
    def is_complete(self) -> bool:
        return self.remaining == 0
