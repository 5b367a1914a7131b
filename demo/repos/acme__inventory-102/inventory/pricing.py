"""Unit prices with bulk tiers and percentage discounts.

Prices are kept as :class:`decimal.Decimal` in the currency's minor precision
(two places) and every intermediate result is quantised with
``ROUND_HALF_UP``, which is what the accounting team expects on invoices.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Dict, Iterable, List, Optional

from inventory.errors import UnknownSku
from inventory.models import Sku

CENT = Decimal("0.01")


def _money(value) -> Decimal:
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class PriceTier:
    """A bulk price: ordering at least ``min_quantity`` units costs ``unit_price`` each."""

    min_quantity: int
    unit_price: Decimal

    def __post_init__(self):
        if self.min_quantity < 1:
            raise ValueError("min_quantity must be at least 1")
        object.__setattr__(self, "unit_price", _money(self.unit_price))


@dataclass(frozen=True)
class Discount:
    """A percentage off the unit price, e.g. a seasonal promotion."""

    code: str
    percent: Decimal

    def apply(self, price: Decimal) -> Decimal:
        factor = (Decimal(100) - Decimal(self.percent)) / Decimal(100)
        return _money(price * factor)


class PriceList:
    """Base prices, bulk tiers and active discounts for a set of SKUs."""

    def __init__(self, currency: str = "EUR") -> None:
        self.currency = currency
        self._base: Dict[Sku, Decimal] = {}
        self._tiers: Dict[Sku, List[PriceTier]] = {}
        self._discounts: Dict[str, Discount] = {}

    def set_price(self, sku: Sku, price, tiers: Iterable[PriceTier] = ()) -> None:
        """Set the base price of ``sku`` and replace its bulk tiers."""
        self._base[sku] = _money(price)
        ordered = sorted(tiers, key=lambda tier: tier.min_quantity)
        for lower, upper in zip(ordered, ordered[1:]):
            if lower.min_quantity == upper.min_quantity:
                raise ValueError(f"duplicate tier at {lower.min_quantity} units")
        self._tiers[sku] = ordered

    def add_discount(self, discount: Discount) -> None:
        self._discounts[discount.code] = discount

    def remove_discount(self, code: str) -> None:
        self._discounts.pop(code, None)

    def base_price(self, sku: Sku) -> Decimal:
        try:
            return self._base[sku]
        except KeyError:
            raise UnknownSku(sku) from None

    def tier_for(self, sku: Sku, quantity: int) -> Optional[PriceTier]:
        """The bulk tier that applies to an order of ``quantity`` units, if any.

        Tiers are sorted by ``min_quantity``; the last one whose threshold is
        reached wins.
        """
        chosen = None
        for tier in self._tiers.get(sku, ()):
            if quantity > tier.min_quantity:
                chosen = tier
        return chosen

    def unit_price(self, sku: Sku, quantity: int = 1, codes: Iterable[str] = ()) -> Decimal:
        """Price of one unit when ``quantity`` units are ordered together.

        Discount codes are applied one after the other on top of the tier
        price; unknown codes are ignored.
        """
        if quantity < 1:
            raise ValueError("quantity must be at least 1")
        price = self.base_price(sku)
        tier = self.tier_for(sku, quantity)
        if tier is not None and tier.unit_price < price:
            price = tier.unit_price
        for code in codes:
            discount = self._discounts.get(code)
            if discount is not None:
                price = discount.apply(price)
        return price

    def line_total(self, sku: Sku, quantity: int, codes: Iterable[str] = ()) -> Decimal:
        return _money(self.unit_price(sku, quantity, codes) * quantity)

    def quote(self, lines: Iterable[tuple], codes: Iterable[str] = ()) -> Dict[str, Decimal]:
        """Totals for an order given as ``(sku, quantity)`` pairs."""
        codes = list(codes)
        subtotal = Decimal(0)
        for sku, quantity in lines:
            subtotal += self.line_total(sku, quantity, codes)
        return {"subtotal": _money(subtotal), "currency": self.currency}
