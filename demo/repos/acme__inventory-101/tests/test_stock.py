import pytest

from inventory.errors import InsufficientStock, UnknownReservation, UnknownSku
from inventory.models import Location, Sku


def test_receive_and_available(ledger, widget, main_store):
    assert ledger.available(widget) == 40
    assert ledger.available(widget, main_store) == 40


def test_unknown_sku(ledger):
    with pytest.raises(UnknownSku):
        ledger.available(Sku("GADGET-9"))


def test_reserve_reduces_available(ledger, widget, main_store):
    res = ledger.reserve(widget, main_store, 15, order_ref="1001")
    assert res.id == "R00001"
    assert ledger.available(widget) == 25
    assert ledger.level(widget, main_store).reserved == 15


def test_cannot_reserve_more_than_available(ledger, widget, main_store):
    ledger.reserve(widget, main_store, 30)
    with pytest.raises(InsufficientStock) as info:
        ledger.reserve(widget, main_store, 11)
    assert info.value.available == 10


def test_ship_whole_reservation_closes_it(ledger, widget, main_store):
    res = ledger.reserve(widget, main_store, 5)
    ledger.ship(res.id)
    level = ledger.level(widget, main_store)
    assert (level.on_hand, level.reserved) == (35, 0)
    with pytest.raises(UnknownReservation):
        ledger.reservation(res.id)


def test_partial_shipments(ledger, widget, main_store):
    res = ledger.reserve(widget, main_store, 10)
    ledger.ship(res.id, 4)
    ledger.ship(res.id, 4)
    assert ledger.reservation(res.id).remaining == 2
    with pytest.raises(InsufficientStock):
        ledger.ship(res.id, 3)


def test_release_returns_units(ledger, widget, main_store):
    res = ledger.reserve(widget, main_store, 12)
    ledger.release(res.id, reason="customer cancelled")
    assert ledger.available(widget) == 40
    assert res.notes == ["released: customer cancelled"]


def test_release_unknown(ledger):
    with pytest.raises(UnknownReservation):
        ledger.release("R99999")


def test_non_sellable_location_not_counted(ledger, widget, returns_shelf):
    ledger.receive(widget, returns_shelf, 3)
    assert ledger.available(widget) == 40
    assert ledger.available(widget, returns_shelf) == 3


def test_transfer_marks_units_in_transit(ledger, widget, main_store):
    van = Location("van-2")
    ledger.transfer(widget, main_store, van, 6)
    assert ledger.level(widget, van).in_transit == 6
    ledger.complete_transfer(widget, van, 6)
    assert ledger.level(widget, van).on_hand == 6
    assert ledger.available(widget) == 40
