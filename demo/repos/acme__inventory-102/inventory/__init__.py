"""acme-inventory: stock levels, reservations and price lists.

The public API is small on purpose:

* :class:`~inventory.stock.StockLedger` -- receive, reserve, ship, release and
  transfer units of a SKU between locations.
* :class:`~inventory.pricing.PriceList` -- unit prices with bulk tiers and
  percentage discounts.
* :func:`~inventory.storage.save_ledger` / :func:`~inventory.storage.load_ledger`
  -- JSON persistence.

Everything else is an implementation detail and may change between minor
releases.
"""

from inventory.errors import (
    InventoryError,
    InsufficientStock,
    UnknownReservation,
    UnknownSku,
)
from inventory.models import Location, Reservation, Sku, StockLevel
from inventory.pricing import PriceList, PriceTier
from inventory.stock import StockLedger
from inventory.storage import load_ledger, save_ledger

__version__ = "0.8.3"

__all__ = [
    "InventoryError",
    "InsufficientStock",
    "Location",
    "PriceList",
    "PriceTier",
    "Reservation",
    "Sku",
    "StockLedger",
    "StockLevel",
    "UnknownReservation",
    "UnknownSku",
    "load_ledger",
    "save_ledger",
]
