from decimal import Decimal

import pytest

from inventory.errors import UnknownSku
from inventory.models import Sku
from inventory.pricing import Discount, PriceList, PriceTier


def test_base_price(prices, widget):
    assert prices.unit_price(widget) == Decimal("12.50")


def test_tier_applies_above_threshold(prices, widget):
    assert prices.unit_price(widget, 20) == Decimal("11.00")
    assert prices.unit_price(widget, 80) == Decimal("9.75")


def test_unknown_sku(prices):
    with pytest.raises(UnknownSku):
        prices.unit_price(Sku("NOPE-1"))


def test_discount_stacks_on_tier(prices, widget):
    prices.add_discount(Discount("SPRING10", Decimal("10")))
    assert prices.unit_price(widget, 20, ["SPRING10"]) == Decimal("9.90")


def test_unknown_discount_ignored(prices, widget):
    assert prices.unit_price(widget, 1, ["NOT-A-CODE"]) == Decimal("12.50")


def test_duplicate_tiers_rejected(widget):
    price_list = PriceList()
    with pytest.raises(ValueError):
        price_list.set_price(widget, "5", tiers=[PriceTier(3, "4"), PriceTier(3, "3")])


def test_quote(prices, widget):
    gadget = Sku("GADGET-2")
    prices.set_price(gadget, "3.10")
    quote = prices.quote([(widget, 20), (gadget, 3)])
    assert quote == {"subtotal": Decimal("229.30"), "currency": "EUR"}
