import pytest

from inventory.models import Location, Sku
from inventory.pricing import PriceList, PriceTier
from inventory.stock import StockLedger


@pytest.fixture
def widget():
    return Sku("WIDGET-1")


@pytest.fixture
def main_store():
    return Location("main")


@pytest.fixture
def returns_shelf():
    return Location("returns", sellable=False)


@pytest.fixture
def ledger(widget, main_store):
    ledger = StockLedger()
    ledger.receive(widget, main_store, 40)
    return ledger


@pytest.fixture
def prices(widget):
    price_list = PriceList()
    price_list.set_price(
        widget,
        "12.50",
        tiers=[PriceTier(10, "11.00"), PriceTier(50, "9.75")],
    )
    return price_list
